/* libnwpio_model's C API: helpers for WRF-like demo models written in C or Fortran (mini_wrf):
 * the model's own namelist settings, WRF's decomposition and WRF date arithmetic, so that such
 * a model needs no second namelist reader, decomposition or calendar of its own. Errors as in
 * nwpio.h: a status (NWPIO_OK = 0), the message from nwpio_last_error().
 * Link: pkg-config nwpio-model (-lnwpio_model -lnwpio), CMake nwpio::model. */
#ifndef NWPIO_MODEL_NWPIO_MODEL_H
#define NWPIO_MODEL_NWPIO_MODEL_H

#include <stdint.h>

#include "nwpio/nwpio.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct nwpio_model_settings {
  int max_dom;
  int e_we, e_sn, e_vert;  /* staggered counts of the domain */
  int nproc_x, nproc_y;    /* -1: choose as WRF does */
  double dx, dy;           /* metres */
  double time_step;        /* seconds */
  char start_date[NWPIO_DATE_LEN + 1]; /* YYYY-MM-DD_HH:MM:SS, NUL-terminated */
  char end_date[NWPIO_DATE_LEN + 1];
} nwpio_model_settings;

/* Collective. &domains and &time_control settings of one domain from namelist.input. */
int nwpio_read_model_settings(MPI_Fint comm, const char* namelist_file, int domain_id,
                              nwpio_model_settings* settings);

/* WRF's bounds as 18 ints in the order of nwpio_set_domain (ids, ide, ..., kps, kpe) of `rank`
 * for a domain of e_we x e_sn x e_vert over nproc_x x nproc_y tasks (both <= 0: chosen as WRF
 * does for nranks; one <= 0: nranks divided by the other), with `halo` points of halo. */
int nwpio_wrf_decompose(int e_we, int e_sn, int e_vert, int nranks, int rank, int halo,
                        int* nproc_x, int* nproc_y, int bounds[18]);

/* date + seconds, written to out (NWPIO_DATE_LEN + 1 bytes). */
int nwpio_date_add_seconds(const char* date, int64_t seconds, char* out);

#ifdef __cplusplus
}
#endif

#endif /* NWPIO_MODEL_NWPIO_MODEL_H */
