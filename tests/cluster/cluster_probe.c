/* What an MPI job sees of the nodes it runs on, for tests/cluster/cluster_selftest.sh: every rank
 * reports its processor name, the lowest world rank of its MPI_COMM_TYPE_SHARED group, and the
 * TCP connections its process holds after an MPI_Alltoall (which makes every pair of ranks talk).
 * Rank 0 prints
 *     rank R name NAME group G
 *     tcp pairs A of B
 *     tcp nonloopback K
 * A of B: of the B pairs of ranks with different processor names, A are joined by a TCP
 * connection whose two ends the two ranks hold (local and remote ports swapped); K: connections
 * held by any rank with an end outside 127.0.0.0/8 (or ::1). Built with mpicc (Open MPI) and
 * mpicc.mpich; reads the connections from /proc (Linux only). */
#include <dirent.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { MAX_CONNS = 256, ALLTOALL_INTS = 1 << 12 };

typedef struct {
  int local_port;
  int remote_port;
  int loopback; /* both ends in 127.0.0.0/8 or ::1 */
} conn_t;

/* Socket inodes of this process's open descriptors. */
static int socket_inodes(unsigned long *inodes, int max) {
  int n = 0;
  DIR *dir = opendir("/proc/self/fd");
  if (!dir) return 0;
  struct dirent *e;
  while ((e = readdir(dir)) && n < max) {
    char path[300], target[64];
    snprintf(path, sizeof path, "/proc/self/fd/%s", e->d_name);
    ssize_t len = readlink(path, target, sizeof target - 1);
    if (len <= 0) continue;
    target[len] = '\0';
    if (sscanf(target, "socket:[%lu]", &inodes[n]) == 1) n++;
  }
  closedir(dir);
  return n;
}

/* "0100007F" (IPv4, little-endian) or 32 hex digits (IPv6) of /proc/net/tcp{,6}. */
static int is_loopback(const char *hex) {
  if (strlen(hex) == 8) return strtoul(hex + 6, NULL, 16) == 0x7f;
  if (strcmp(hex, "00000000000000000000000001000000") == 0) return 1;    /* ::1 */
  if (strncmp(hex, "0000000000000000FFFF0000", 24) == 0) return strtoul(hex + 30, NULL, 16) == 0x7f;
  return 0;
}

/* The established TCP connections of this process. */
static int tcp_connections(conn_t *conns, int max) {
  unsigned long inodes[1024];
  int ninodes = socket_inodes(inodes, 1024), n = 0;
  const char *tables[] = {"/proc/self/net/tcp", "/proc/self/net/tcp6"};
  for (int t = 0; t < 2; t++) {
    FILE *f = fopen(tables[t], "r");
    if (!f) continue;
    char line[512];
    if (!fgets(line, sizeof line, f)) { fclose(f); continue; } /* header */
    while (fgets(line, sizeof line, f) && n < max) {
      char local[64], remote[64];
      unsigned int lport, rport, state;
      unsigned long inode;
      if (sscanf(line, " %*d: %63[0-9A-Fa-f]:%X %63[0-9A-Fa-f]:%X %X %*s %*s %*s %*s %*s %lu", local, &lport, remote,
                 &rport, &state, &inode) != 6)
        continue;
      if (state != 0x01) continue; /* ESTABLISHED */
      for (int i = 0; i < ninodes; i++) {
        if (inodes[i] != inode) continue;
        conns[n].local_port = (int)lport;
        conns[n].remote_port = (int)rport;
        conns[n].loopback = is_loopback(local) && is_loopback(remote);
        n++;
        break;
      }
    }
    fclose(f);
  }
  return n;
}

static int joined(const conn_t *a, int na, const conn_t *b, int nb) {
  for (int i = 0; i < na; i++)
    for (int j = 0; j < nb; j++)
      if (a[i].local_port == b[j].remote_port && a[i].remote_port == b[j].local_port) return 1;
  return 0;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size, len;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  char name[MPI_MAX_PROCESSOR_NAME] = {0};
  MPI_Get_processor_name(name, &len);

  MPI_Comm node;
  int group;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
  MPI_Allreduce(&rank, &group, 1, MPI_INT, MPI_MIN, node);

  /* every pair of ranks exchanges data, so each transport between them is in use */
  int *out = malloc(sizeof(int) * ALLTOALL_INTS * size), *in = malloc(sizeof(int) * ALLTOALL_INTS * size);
  for (int i = 0; i < ALLTOALL_INTS * size; i++) out[i] = rank;
  MPI_Alltoall(out, ALLTOALL_INTS, MPI_INT, in, ALLTOALL_INTS, MPI_INT, MPI_COMM_WORLD);
  int bad = 0;
  for (int i = 0; i < ALLTOALL_INTS * size; i++) bad |= in[i] != i / ALLTOALL_INTS;

  conn_t conns[MAX_CONNS];
  memset(conns, 0, sizeof conns);
  int nconns = tcp_connections(conns, MAX_CONNS);

  char *names = NULL;
  int *groups = NULL, *counts = NULL, *bads = NULL;
  conn_t *all = NULL;
  if (rank == 0) {
    names = malloc((size_t)size * MPI_MAX_PROCESSOR_NAME);
    groups = malloc(sizeof(int) * size);
    counts = malloc(sizeof(int) * size);
    bads = malloc(sizeof(int) * size);
    all = malloc(sizeof(conn_t) * MAX_CONNS * size);
  }
  MPI_Gather(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, names, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 0, MPI_COMM_WORLD);
  MPI_Gather(&group, 1, MPI_INT, groups, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Gather(&nconns, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Gather(&bad, 1, MPI_INT, bads, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Gather(conns, (int)(sizeof conns), MPI_BYTE, all, (int)(sizeof conns), MPI_BYTE, 0, MPI_COMM_WORLD);

  int status = 0;
  if (rank == 0) {
    int pairs = 0, tcp_pairs = 0, nonloopback = 0;
    for (int r = 0; r < size; r++) {
      printf("rank %d name %s group %d\n", r, names + (size_t)r * MPI_MAX_PROCESSOR_NAME, groups[r]);
      if (bads[r]) {
        printf("rank %d received wrong data in MPI_Alltoall\n", r);
        status = 1;
      }
      for (int i = 0; i < counts[r]; i++) nonloopback += !all[r * MAX_CONNS + i].loopback;
    }
    for (int a = 0; a < size; a++)
      for (int b = a + 1; b < size; b++) {
        if (strcmp(names + (size_t)a * MPI_MAX_PROCESSOR_NAME, names + (size_t)b * MPI_MAX_PROCESSOR_NAME) == 0) continue;
        pairs++;
        tcp_pairs += joined(all + a * MAX_CONNS, counts[a], all + b * MAX_CONNS, counts[b]);
      }
    printf("tcp pairs %d of %d\n", tcp_pairs, pairs);
    printf("tcp nonloopback %d\n", nonloopback);
    fflush(stdout);
  }
  MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Comm_free(&node);
  free(out);
  free(in);
  MPI_Finalize();
  return status;
}
