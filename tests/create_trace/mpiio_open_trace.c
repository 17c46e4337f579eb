// A profiling library (the MPI standard's PMPI interface), loaded with LD_PRELOAD, that logs
// every MPI_File_open of the program and of the libraries it calls (PnetCDF, HDF5) and forwards
// the call to PMPI_File_open unchanged: what the MPI-IO layer is asked to open, and whether the
// file was there before it.
//
// One line per call and process, appended to $NWPIO_MPIIO_TRACE/<pid>.log:
//   rank=<world rank> path=<path> amode=<amode> create=<0|1> excl=<0|1> existed=<0|1> rc=<rc> info:<key>=<value>...
// fields separated by tabs. `existed` is lstat(path) taken by every process of the open's
// communicator BEFORE any of them enters it (a barrier on that communicator between the lstat
// and the open), so it says whether the file was there before the open, on every rank alike,
// whichever rank the layer lets create it.
#define _POSIX_C_SOURCE 200809L  // open_memstream
#include <fcntl.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

// Appends one line to this process's log, in one write.
static void write_line(const char* line, size_t n) {
  const char* dir = getenv("NWPIO_MPIIO_TRACE");
  if (dir == NULL || dir[0] == '\0') return;
  char path[4096];
  snprintf(path, sizeof path, "%s/%ld.log", dir, (long)getpid());
  const int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) return;
  if (write(fd, line, n) != (ssize_t)n) perror("mpiio_open_trace: write");
  close(fd);
}

int MPI_File_open(MPI_Comm comm, const char* filename, int amode, MPI_Info info, MPI_File* fh) {
  struct stat st;
  const int existed = lstat(filename, &st) == 0;
  PMPI_Barrier(comm);  // every rank looked before any rank opens
  const int rc = PMPI_File_open(comm, filename, amode, info, fh);

  int rank = -1, size = 0;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  PMPI_Comm_size(comm, &size);
  char* line = NULL;
  size_t n = 0;
  FILE* out = open_memstream(&line, &n);
  if (out == NULL) return rc;
  fprintf(out, "rank=%d\tcomm_size=%d\tpath=%s\tamode=%d\tcreate=%d\texcl=%d\texisted=%d\trc=%d", rank, size, filename,
          amode, (amode & MPI_MODE_CREATE) != 0, (amode & MPI_MODE_EXCL) != 0, existed, rc);
  int nkeys = 0;
  if (info != MPI_INFO_NULL) PMPI_Info_get_nkeys(info, &nkeys);
  for (int i = 0; i < nkeys; ++i) {
    static char key[MPI_MAX_INFO_KEY + 1], value[MPI_MAX_INFO_VAL + 1];
    int flag = 0;
    PMPI_Info_get_nthkey(info, i, key);
    PMPI_Info_get(info, key, MPI_MAX_INFO_VAL, value, &flag);
    fprintf(out, "\tinfo:%s=%s", key, flag ? value : "");
  }
  fputc('\n', out);
  fclose(out);
  write_line(line, n);
  free(line);
  return rc;
}
