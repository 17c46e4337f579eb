/* Smallest C user of an installed nwpio: status codes, nwpio_last_error, and the version of the
 * installed header and library (both the one under test, NWPIO_EXPECTED_VERSION). */
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
  printf("consumer_c: nwpio %s (header %s)\n", nwpio_version(), NWPIO_VERSION_STRING);
  ok = ok && strcmp(nwpio_version(), NWPIO_EXPECTED_VERSION) == 0 && strcmp(NWPIO_VERSION_STRING, NWPIO_EXPECTED_VERSION) == 0;
  MPI_Finalize();
  return ok ? 0 : 1;
}
