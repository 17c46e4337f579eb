// A PMPI library for LD_PRELOAD: counts what one process asks of MPI, for counts that do not
// depend on a machine's speed (scripts/count-mpi.sh). Counted: collective calls and MPI-IO
// opens on communicators of more than one rank (a call over MPI_COMM_SELF waits for nobody),
// and the messages and bytes of point-to-point sends and of MPI_Alltoallv (a zero count is no
// message). Calls the MPI library makes inside itself (an MPI-IO layer's own collectives) go
// through its internal interfaces and are not seen. At MPI_Finalize each rank writes one JSON
// object to $NWPIO_MPI_COUNTS_DIR/rank-<rank>.json (nothing without the variable).
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum Counter {
  kAllreduce, kBcast, kBarrier, kAllgather, kAllgatherv, kAlltoall, kAlltoallv, kGather, kGatherv,
  kScatterv, kReduce, kFileOpen, kSendMessages, kSendBytes, kAlltoallvMessages, kAlltoallvBytes, kCounters
};
static const char* const kNames[kCounters] = {
    "allreduce", "bcast", "barrier", "allgather", "allgatherv", "alltoall", "alltoallv", "gather", "gatherv",
    "scatterv", "reduce", "file_open", "send_messages", "send_bytes", "alltoallv_messages", "alltoallv_bytes"};
static long long counts[kCounters];

static int shared(MPI_Comm comm) {
  int size = 1;
  if (comm != MPI_COMM_NULL) PMPI_Comm_size(comm, &size);
  return size > 1;
}

static void count_send(int n, MPI_Datatype type) {
  int bytes = 0;
  PMPI_Type_size(type, &bytes);
  counts[kSendMessages] += 1;
  counts[kSendBytes] += (long long)n * bytes;
}

int MPI_Allreduce(const void* s, void* r, int n, MPI_Datatype t, MPI_Op o, MPI_Comm c) {
  if (shared(c)) counts[kAllreduce]++;
  return PMPI_Allreduce(s, r, n, t, o, c);
}
int MPI_Bcast(void* b, int n, MPI_Datatype t, int root, MPI_Comm c) {
  if (shared(c)) counts[kBcast]++;
  return PMPI_Bcast(b, n, t, root, c);
}
int MPI_Barrier(MPI_Comm c) {
  if (shared(c)) counts[kBarrier]++;
  return PMPI_Barrier(c);
}
int MPI_Allgather(const void* s, int sn, MPI_Datatype st, void* r, int rn, MPI_Datatype rt, MPI_Comm c) {
  if (shared(c)) counts[kAllgather]++;
  return PMPI_Allgather(s, sn, st, r, rn, rt, c);
}
int MPI_Allgatherv(const void* s, int sn, MPI_Datatype st, void* r, const int* rc, const int* d, MPI_Datatype rt,
                   MPI_Comm c) {
  if (shared(c)) counts[kAllgatherv]++;
  return PMPI_Allgatherv(s, sn, st, r, rc, d, rt, c);
}
int MPI_Alltoall(const void* s, int sn, MPI_Datatype st, void* r, int rn, MPI_Datatype rt, MPI_Comm c) {
  if (shared(c)) counts[kAlltoall]++;
  return PMPI_Alltoall(s, sn, st, r, rn, rt, c);
}
int MPI_Alltoallv(const void* s, const int* sc, const int* sd, MPI_Datatype st, void* r, const int* rc, const int* rd,
                  MPI_Datatype rt, MPI_Comm c) {
  if (shared(c)) {
    int size = 1, me = 0, bytes = 0;
    PMPI_Comm_size(c, &size);
    PMPI_Comm_rank(c, &me);
    PMPI_Type_size(st, &bytes);
    counts[kAlltoallv]++;
    for (int p = 0; p < size; ++p) {
      if (p == me || sc[p] == 0) continue;
      counts[kAlltoallvMessages] += 1;
      counts[kAlltoallvBytes] += (long long)sc[p] * bytes;
    }
  }
  return PMPI_Alltoallv(s, sc, sd, st, r, rc, rd, rt, c);
}
int MPI_Gather(const void* s, int sn, MPI_Datatype st, void* r, int rn, MPI_Datatype rt, int root, MPI_Comm c) {
  if (shared(c)) counts[kGather]++;
  return PMPI_Gather(s, sn, st, r, rn, rt, root, c);
}
int MPI_Gatherv(const void* s, int sn, MPI_Datatype st, void* r, const int* rc, const int* d, MPI_Datatype rt, int root,
                MPI_Comm c) {
  if (shared(c)) counts[kGatherv]++;
  return PMPI_Gatherv(s, sn, st, r, rc, d, rt, root, c);
}
int MPI_Scatterv(const void* s, const int* sc, const int* d, MPI_Datatype st, void* r, int rn, MPI_Datatype rt, int root,
                 MPI_Comm c) {
  if (shared(c)) counts[kScatterv]++;
  return PMPI_Scatterv(s, sc, d, st, r, rn, rt, root, c);
}
int MPI_Reduce(const void* s, void* r, int n, MPI_Datatype t, MPI_Op o, int root, MPI_Comm c) {
  if (shared(c)) counts[kReduce]++;
  return PMPI_Reduce(s, r, n, t, o, root, c);
}
int MPI_File_open(MPI_Comm c, const char* name, int amode, MPI_Info info, MPI_File* fh) {
  if (shared(c)) counts[kFileOpen]++;
  return PMPI_File_open(c, name, amode, info, fh);
}
int MPI_Send(const void* b, int n, MPI_Datatype t, int dest, int tag, MPI_Comm c) {
  count_send(n, t);
  return PMPI_Send(b, n, t, dest, tag, c);
}
int MPI_Isend(const void* b, int n, MPI_Datatype t, int dest, int tag, MPI_Comm c, MPI_Request* r) {
  count_send(n, t);
  return PMPI_Isend(b, n, t, dest, tag, c, r);
}

int MPI_Finalize(void) {
  const char* dir = getenv("NWPIO_MPI_COUNTS_DIR");
  if (dir != NULL) {
    int rank = 0;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    char path[4096];
    snprintf(path, sizeof path, "%s/rank-%d.json", dir, rank);
    FILE* out = fopen(path, "w");
    if (out != NULL) {
      fprintf(out, "{\"rank\": %d", rank);
      for (int i = 0; i < kCounters; ++i) fprintf(out, ", \"%s\": %lld", kNames[i], counts[i]);
      fprintf(out, "}\n");
      fclose(out);
    } else {
      perror(path);
    }
  }
  return PMPI_Finalize();
}
