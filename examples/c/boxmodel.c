/* boxmodel (C): a small 3-D model on a box grid, not WRF, that writes its history through
 * nwpio's C API (nwpio/nwpio.h). Every value it writes follows a formula (see README.md), so the
 * files can be checked point by point.
 *
 *   mpiexec -n 3 ./boxmodel_c [output_dir]     reads namelist.input in the current directory
 *
 * The history settings (start date, interval, frames per file, file name, io_form) come from
 * namelist.input; the grid, the time step and the run length are the model's own.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "nwpio/nwpio.h"

/* NX x NY cells of NZ layers; U lives on the cells' west and east faces (NX + 1 along x). */
enum { NX = 23, NY = 17, NZ = 6, HALO = 2 };
enum { TIME_STEP = 1800, RUN_SECONDS = 12 * 3600 };
/* Halo points and points outside a field's grid: never written, so never seen in a file. */
#define NOT_WRITTEN (-999.0)

/* A range of points per axis (i, j, k), 0-based and half-open: [lo, hi). */
struct range3 {
  int lo[3], hi[3];
};

struct rank_grid {
  /* The points this rank owns. nwpio's domain is the staggered grid (NX + 1, NY + 1, NZ + 1
   * points), so the last rank along x also owns the column i = NX (U's east face), the last
   * along y the row j = NY, and every rank the level k = NZ. */
  struct range3 patch;
  struct range3 memory; /* the arrays: the patch with HALO points on each side in i and j */
};

/* Start of task t's share when n points are split over p tasks, the first n % p one larger. */
static int split_start(int n, int p, int t) { return t * (n / p) + (t < n % p ? t : n % p); }

/* 2 ranks split x (12 + 11 columns), 3 ranks split y (6 + 6 + 5 rows), 4 ranks both. */
static struct rank_grid decompose(int rank, int nranks) {
  const int px = nranks % 2 == 0 ? 2 : 1, py = nranks / px;
  const int task[2] = {rank % px, rank / px}, ntasks[2] = {px, py}, cells[3] = {NX, NY, NZ};
  struct rank_grid g;
  for (int a = 0; a < 2; ++a) {
    const int last = task[a] == ntasks[a] - 1;
    g.patch.lo[a] = split_start(cells[a], ntasks[a], task[a]);
    g.patch.hi[a] = split_start(cells[a], ntasks[a], task[a] + 1) + last; /* + the staggered end */
    g.memory.lo[a] = g.patch.lo[a] - HALO;
    g.memory.hi[a] = g.patch.hi[a] + HALO;
  }
  g.patch.lo[2] = g.memory.lo[2] = 0;
  g.patch.hi[2] = g.memory.hi[2] = cells[2] + 1;
  return g;
}

static int extent(const struct range3* r, int a) { return r->hi[a] - r->lo[a]; }
static size_t points(const struct range3* r) { return (size_t)extent(r, 0) * extent(r, 1) * extent(r, 2); }
/* Arrays are a[k][j][i] with i fastest: nwpio's memory order "XYZ" ("XY" for 2-D). */
static size_t at(const struct range3* m, int i, int j, int k) {
  return (size_t)(i - m->lo[0]) + (size_t)extent(m, 0) * ((size_t)(j - m->lo[1]) + (size_t)extent(m, 1) * (k - m->lo[2]));
}
static int owns(const struct rank_grid* g, int i, int j, int nx) {
  return i >= g->patch.lo[0] && i < g->patch.hi[0] && i < nx && j >= g->patch.lo[1] && j < g->patch.hi[1] && j < NY;
}

/* The fields, as functions of the point (i, j, k) and the hours t since the start. */
static float temperature(int i, int j, int k, double t) { return (float)(280.0 + i / 2.0 + j / 4.0 - k + t / 8.0); }
static float u_face(int i, int j, int k, double t) { return (float)(i / 4.0 - j / 8.0 + k / 2.0 + t / 16.0); }
static double sea_surface(int i, int j, double t) { return (i - j) / 64.0 + t / 32.0; }

struct state {
  float* t;   /* T(i, j, k), NX x NY x NZ */
  float* u;   /* U(i, j, k), (NX + 1) x NY x NZ */
  double* ssh; /* SSH(i, j), NX x NY */
};

static void compute(struct state* s, const struct rank_grid* g, double hours) {
  const struct range3* m = &g->memory;
  for (int k = m->lo[2]; k < m->hi[2]; ++k) {
    for (int j = m->lo[1]; j < m->hi[1]; ++j) {
      for (int i = m->lo[0]; i < m->hi[0]; ++i) {
        const int layer = k < NZ;
        s->t[at(m, i, j, k)] = layer && owns(g, i, j, NX) ? temperature(i, j, k, hours) : (float)NOT_WRITTEN;
        s->u[at(m, i, j, k)] = layer && owns(g, i, j, NX + 1) ? u_face(i, j, k, hours) : (float)NOT_WRITTEN;
        if (k == 0) s->ssh[at(m, i, j, 0)] = owns(g, i, j, NX) ? sea_surface(i, j, hours) : NOT_WRITTEN;
      }
    }
  }
}

/* A failed call: its status and nwpio's message, which names the call. A collective call fails
 * on every rank with the same message, so rank 0 alone prints those. */
static void report(int status, int rank, int collective) {
  if (!collective || rank == 0) fprintf(stderr, "boxmodel[%d]: %s: %s\n", rank, nwpio_status_name(status), nwpio_last_error());
}

static int open_history(nwpio_stream** hist, const struct rank_grid* g, const char* output_dir, int rank) {
  const struct range3 *m = &g->memory, *p = &g->patch;
  /* Collective: namelist.input's history settings of domain 1; a bad namelist fails here. */
  int status = nwpio_open(hist, MPI_COMM_WORLD, "namelist.input", 1, output_dir);
  /* Collective: WRF's bounds, 1-based and inclusive ([lo, hi) is lo + 1 : hi) of the domain, the
   * memory and the patch; patches that do not tile the domain fail here, on every rank. */
  if (status == NWPIO_OK) {
    status = nwpio_set_domain(*hist, 1, NX + 1, 1, NY + 1, 1, NZ + 1,
                              m->lo[0] + 1, m->hi[0], m->lo[1] + 1, m->hi[1], m->lo[2] + 1, m->hi[2],
                              p->lo[0] + 1, p->hi[0], p->lo[1] + 1, p->hi[1], p->lo[2] + 1, p->hi[2]);
  }
  /* Local calls, made alike on every rank, so they fail alike on every rank. */
  const float dx = 5000.0f;
  if (status == NWPIO_OK) status = nwpio_def_var(*hist, "T", NWPIO_REAL4, "XYZ", "", "temperature", "K");
  if (status == NWPIO_OK) {
    status = nwpio_def_var(*hist, "U", NWPIO_REAL4, "XYZ", "X", "x-velocity on the cell faces", "m s-1");
  }
  if (status == NWPIO_OK) status = nwpio_def_var(*hist, "SSH", NWPIO_REAL8, "XY", "", "sea surface height", "m");
  if (status == NWPIO_OK) status = nwpio_put_global_att_text(*hist, "TITLE", "boxmodel, the C example of nwpio");
  if (status == NWPIO_OK) status = nwpio_put_global_att_float(*hist, "DX", &dx, 1);
  if (status != NWPIO_OK) report(status, rank, 1);
  return status;
}

/* Local: a failure is this rank's alone; nwpio_end_frame raises it again on every rank. */
static void write_array(nwpio_stream* hist, const char* name, const void* data, int kind, int ndims,
                        const int* lbound, const int* ubound, int rank) {
  const int status = nwpio_write(hist, name, data, kind, ndims, lbound, ubound);
  if (status != NWPIO_OK) report(status, rank, 0);
}

/* One history frame. nwpio_write is local and keeps only the array's address: the arrays must
 * stay as they are until nwpio_end_frame returns. A failed nwpio_write fails nwpio_end_frame on
 * every rank with this rank's message, so the frame is ended all the same (a rank that left
 * here would leave the others waiting in nwpio_end_frame). */
static int write_frame(nwpio_stream* hist, const char* date, const struct state* s, const struct rank_grid* g,
                       int rank) {
  int status = nwpio_begin_frame(hist, date); /* collective; the first one ends the definitions */
  if (status != NWPIO_OK) {
    report(status, rank, 1);
    return status;
  }
  int lbound[3], ubound[3]; /* the arrays' bounds, first dimension fastest */
  for (int a = 0; a < 3; ++a) {
    lbound[a] = g->memory.lo[a] + 1;
    ubound[a] = g->memory.hi[a];
  }
  write_array(hist, "T", s->t, NWPIO_REAL4, 3, lbound, ubound, rank);
  write_array(hist, "U", s->u, NWPIO_REAL4, 3, lbound, ubound, rank);
  write_array(hist, "SSH", s->ssh, NWPIO_REAL8, 2, lbound, ubound, rank);
  status = nwpio_end_frame(hist); /* collective: writes the frame; the arrays may change again */
  if (status != NWPIO_OK) report(status, rank, 1);
  return status;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, nranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  const char* output_dir = argc > 1 ? argv[1] : NULL; /* NULL: the namelist's (default ".") */

  const struct rank_grid g = decompose(rank, nranks);
  struct state s = {malloc(points(&g.memory) * sizeof(float)), malloc(points(&g.memory) * sizeof(float)),
                    malloc((size_t)extent(&g.memory, 0) * extent(&g.memory, 1) * sizeof(double))};
  if (!s.t || !s.u || !s.ssh) {
    fprintf(stderr, "boxmodel[%d]: out of memory\n", rank);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }

  /* Every call that can fail differently on different ranks was followed by a collective one
   * that fails on every rank, so all ranks take the same branches below. */
  nwpio_stream* hist = NULL;
  int status = open_history(&hist, &g, output_dir, rank);
  for (int step = 0; status == NWPIO_OK && step * TIME_STEP <= RUN_SECONDS; ++step) {
    const int seconds = step * TIME_STEP; /* the run stays within its first day */
    char date[NWPIO_DATE_LEN + 1];
    snprintf(date, sizeof date, "2024-03-01_%02d:%02d:%02d", seconds / 3600, seconds / 60 % 60, seconds % 60);
    int due = 0;
    if ((status = nwpio_output_due(hist, date, &due)) != NWPIO_OK) report(status, rank, 1);
    if (status == NWPIO_OK && due) {
      compute(&s, &g, seconds / 3600.0);
      status = write_frame(hist, date, &s, &g, rank);
    }
  }
  /* Collective; also after a failure: the files written so far keep their final names, a
   * file that failed keeps its temporary name. */
  if (hist != NULL) {
    const int closed = nwpio_close(&hist);
    if (closed != NWPIO_OK) report(closed, rank, 1);
    if (status == NWPIO_OK) status = closed;
  }
  if (rank == 0 && status == NWPIO_OK) printf("boxmodel: history written on %d ranks\n", nranks);
  free(s.t);
  free(s.u);
  free(s.ssh);
  MPI_Finalize();
  return status == NWPIO_OK ? 0 : 1;
}
