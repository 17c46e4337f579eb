/* Smallest C user of an installed nwpio: status codes and nwpio_last_error. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "nwpio/nwpio.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  nwpio_stream* s = NULL;
  int rc = nwpio_open(&s, MPI_COMM_WORLD, "/nonexistent/namelist.input", 1, NULL);
  int ok = rc != NWPIO_OK && s == NULL && strlen(nwpio_last_error()) > 0;
  printf("consumer_c: open of a missing namelist -> %s: %s\n", nwpio_status_name(rc), nwpio_last_error());
  MPI_Finalize();
  return ok ? 0 : 1;
}
