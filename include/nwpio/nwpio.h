/* nwpio C API (layer L4): the C face of the library and the layer the Fortran module `nwpio`
 * binds to with ISO_C_BINDING. Usable from C and C++.
 *
 * Every function returns an int status: NWPIO_OK (0) or one of the NWPIO_ERR_* codes (one per
 * nwpio::ErrorKind). The full message of the last failing call on the calling thread is
 * nwpio_last_error(); it stays until the next failing call. This message store is the only
 * global state of the library.
 *
 * Call sequence of one history stream (the calls marked "collective" must be made by every rank
 * of the communicator given to open, in the same order):
 *
 *   nwpio_open_f / nwpio_open     collective  namelist.input -> options of one domain's history
 *   nwpio_set_hint_report         local       hint report per file: "summary", "full" or "off"
 *   nwpio_set_domain              collective  WRF bounds (1-based, inclusive), converted once
 *   nwpio_def_dim, nwpio_def_var, nwpio_put_global_att_*   local, same on every rank
 *   loop over model time:
 *     nwpio_output_due            local       is this model date an output time?
 *     nwpio_begin_frame           collective  (the first one creates the writer: definitions end)
 *     nwpio_write ...             local       records the array; NO copy, NO I/O yet
 *     nwpio_end_frame             collective  writes the frame; arrays may change again after it
 *   nwpio_close                   collective  closes the file and frees the stream
 *
 * Arrays handed to nwpio_write must stay alive and unchanged until nwpio_end_frame returns.
 * Names (variables, dimensions, attributes) are NUL-terminated, non-blank and at most
 * NWPIO_MAX_NAME (NC_MAX_NAME = 256) characters.
 */
#ifndef NWPIO_NWPIO_H
#define NWPIO_NWPIO_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#include "nwpio/version.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Status codes: 0 is success, the others follow nwpio::ErrorKind. */
enum {
  NWPIO_OK = 0,
  NWPIO_ERR_INVALID_ARGUMENT = 1, /* malformed name, date, size, kind, bounds */
  NWPIO_ERR_DECOMPOSITION = 2,    /* patches do not tile the domain, memory misses its patch */
  NWPIO_ERR_SCHEMA = 3,           /* undefined / duplicate variable, bad dimension */
  NWPIO_ERR_STATE = 4,            /* call out of order */
  NWPIO_ERR_CONFIG = 5,           /* namelist, iofields or hints input */
  NWPIO_ERR_IO = 6,               /* file system */
  NWPIO_ERR_MPI = 7,
  NWPIO_ERR_PNETCDF = 8,
  NWPIO_ERR_NETCDF = 9,
  NWPIO_ERR_UNSUPPORTED = 10,
  NWPIO_ERR_INTERNAL = 11
};

/* Element kinds of variables and arrays. */
enum { NWPIO_REAL4 = 1, NWPIO_REAL8 = 2, NWPIO_INT4 = 3 };

#define NWPIO_MAX_NAME 256
#define NWPIO_DATE_LEN 19

typedef struct nwpio_stream nwpio_stream; /* opaque */

/* Message of the last failing call on this thread ("" if none); valid until the next failure. */
const char* nwpio_last_error(void);
/* Copies the last error into buf (size bytes, NUL-terminated, truncated if needed); returns its
 * full length. For callers that cannot hold a pointer (Fortran). */
size_t nwpio_last_error_copy(char* buf, size_t size);
/* "NWPIO_OK", "NWPIO_ERR_STATE", ...; "unknown status" otherwise. */
const char* nwpio_status_name(int status);
/* The version of the library the program runs with, "MAJOR.MINOR.PATCH" (static storage).
 * NWPIO_VERSION_STRING (nwpio/version.h) is the version the program was compiled against. */
const char* nwpio_version(void);

/* ---- stream --------------------------------------------------------------------------- */

/* Collective. Reads namelist `namelist_file` on rank 0 of comm and takes the history stream of
 * domain `domain_id` (1-based). output_dir: NULL or "" keeps the namelist's (default "."). On
 * failure *stream is NULL. nwpio_open_f takes a Fortran communicator (MPI_Comm_f2c). */
int nwpio_open(nwpio_stream** stream, MPI_Comm comm, const char* namelist_file, int domain_id,
               const char* output_dir);
int nwpio_open_f(nwpio_stream** stream, MPI_Fint comm, const char* namelist_file, int domain_id,
                 const char* output_dir);

/* How much of the hint report rank 0 prints at each file open (stderr): "summary" (one line per
 * file, the default), "full" (the table of every setting) or "off" (case-insensitive). Before the
 * first nwpio_begin_frame; the same on every rank. Beats the namelist's &nwpio hint_report;
 * NWPIO_HINT_REPORT beats it. The statistics JSON always holds the full report. */
int nwpio_set_hint_report(nwpio_stream* stream, const char* level);

/* Collective. WRF's bounds exactly as the model has them (1-based, inclusive, ide = e_we). */
int nwpio_set_domain(nwpio_stream* stream, int ids, int ide, int jds, int jde, int kds, int kde,
                     int ims, int ime, int jms, int jme, int kms, int kme, int ips, int ipe,
                     int jps, int jpe, int kps, int kpe);

/* An extra non-decomposed dimension (soil_layers_stag, ...) for nwpio_def_var_dim. */
int nwpio_def_dim(nwpio_stream* stream, const char* name, int64_t length);

/* A variable with WRF's attributes. kind: NWPIO_REAL4/REAL8/INT4; memory_order: "XZY", "XYZ",
 * "XY", "Z", "C" (WRF's name for a 1-D array; as "Z"), "0"; stagger: "", "X", "Y", "Z", "XY" (case
 * and surrounding blanks do not matter: the spellings of WRF's I/O API). description and units may
 * be NULL (""). */
int nwpio_def_var(nwpio_stream* stream, const char* name, int kind, const char* memory_order,
                  const char* stagger, const char* description, const char* units);
/* Same, with the vertical axis over a dimension from nwpio_def_dim (memory extent 1..length in
 * Fortran terms) instead of the model's kms:kme. NULL or "" = the model's vertical grid. */
int nwpio_def_var_dim(nwpio_stream* stream, const char* name, int kind, const char* memory_order,
                      const char* stagger, const char* description, const char* units,
                      const char* vertical_dim);

/* Global attributes (before the first nwpio_begin_frame). Replaces one of the same name. */
int nwpio_put_global_att_int(nwpio_stream* stream, const char* name, const int32_t* values, int count);
int nwpio_put_global_att_float(nwpio_stream* stream, const char* name, const float* values, int count);
int nwpio_put_global_att_double(nwpio_stream* stream, const char* name, const double* values, int count);
int nwpio_put_global_att_text(nwpio_stream* stream, const char* name, const char* text);

/* Local. *due = 1 when `date` (YYYY-MM-DD_HH:MM:SS) is an output time of the stream, else 0. */
int nwpio_output_due(const nwpio_stream* stream, const char* date, int* due);

/* Collective. Starts the frame of `date`; the first call ends the definitions. */
int nwpio_begin_frame(nwpio_stream* stream, const char* date);

/* Local. Records `data`, the whole memory array of variable `name` as the model holds it, for the
 * current frame. kind: the element kind of `data`; ndims: the array's rank (0 for a scalar);
 * lbound/ubound: its bounds per dimension, Fortran order (first fastest). The extents must agree
 * with the declared memory bounds: (ims:ime, kms:kme, jms:jme) for XZY, (ims:ime, jms:jme, kms:kme)
 * for XYZ, (ims:ime, jms:jme) for XY, (kms:kme) or (1:length) for Z. Lower bounds are not compared
 * (an assumed-shape Fortran dummy always starts at 1). No copy: `data` must stay valid and
 * unchanged until nwpio_end_frame returns. Scalars (ndims 0) are the exception: they are copied. */
int nwpio_write(nwpio_stream* stream, const char* name, const void* data, int kind, int ndims,
                const int* lbound, const int* ubound);

/* Collective. Writes the frame. An error recorded by nwpio_write on any rank fails it on all. */
int nwpio_end_frame(nwpio_stream* stream);

/* Collective. Closes the open file and frees the stream, also on failure; sets *stream = NULL. */
int nwpio_close(nwpio_stream** stream);

/* For binding layers: records `message` as the last error (and, inside a frame, as the frame's
 * pending error, so that nwpio_end_frame fails on every rank) and returns `status`. The Fortran
 * module reports a non-contiguous array this way. */
int nwpio_report_error(nwpio_stream* stream, int status, const char* message);

/* Prints "nwpio: <last error>" on stderr and calls MPI_Abort with `code` on the stream's
 * communicator (MPI_COMM_WORLD when stream is NULL): WRF's wrf_error_fatal. Does not return. */
void nwpio_abort(const nwpio_stream* stream, int code);

/* ---- I/O servers (docs/IO_SERVERS.md) ---------------------------------------------------
 * Collective over world. Reads &namelist_quilt (nio_tasks_per_group, nio_groups) from
 * namelist_file; with nio_tasks_per_group > 0 the LAST nio_groups x nio_tasks_per_group ranks
 * become I/O servers (as WRF's quilting). On a server rank the call runs the service loop and
 * returns only after the compute ranks called nwpio_servers_stop, with *is_server = 1 and
 * *compute_comm = MPI_COMM_NULL: the program then finalizes. On the other ranks it returns at
 * once with *is_server = 0 and *compute_comm the compute ranks' communicator (valid until
 * MPI_Finalize): use it as the model's world. Every stream nwpio_open'ed on that communicator
 * (or a duplicate) is written by the servers. Without servers *compute_comm = world.
 * Nonsense sizes (more servers than ranks, nio_groups > 1 without tasks) fail on every rank. */
int nwpio_servers_start(MPI_Comm world, const char* namelist_file, int* is_server, MPI_Comm* compute_comm);
int nwpio_servers_start_f(MPI_Fint world, const char* namelist_file, int* is_server, MPI_Fint* compute_comm);
/* Collective over the compute ranks, after every stream on the servers was closed: the servers
 * leave their loop. Does nothing without servers. */
int nwpio_servers_stop(void);

#ifdef __cplusplus
}
#endif

#endif /* NWPIO_NWPIO_H */
