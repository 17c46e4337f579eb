/* The C boundary between the package's Fortran entry points (wrfio/, the ext_pnc_* symbols
 * WRF calls) and its C++ front end (src/wrfio/). Not a public API: the Fortran side declares
 * these with BIND(C) interfaces in wrfio/nwpio_wrfio_c.f90.
 *
 * Every function returns a WRF status (0 = WRF_NO_ERR; WRF's negative warning/error codes).
 * Strings travel as (pointer, length) pairs of blank-padded Fortran CHARACTER data, never
 * NUL-terminated. Communicators are Fortran handles. Bounds are WRF's: 1-based, inclusive,
 * three per argument, in the field's memory order. */
#ifndef NWPIO_WRFIO_CAPI_H
#define NWPIO_WRFIO_CAPI_H

#include <mpi.h>

#ifdef __cplusplus
extern "C" {
#endif

int nwpio_wrfio_ioinit(void);
int nwpio_wrfio_ioexit(void);

int nwpio_wrfio_open_for_write_begin(const char* name, int name_len, MPI_Fint comm, const char* sysdep,
                                     int sysdep_len, int* handle);
int nwpio_wrfio_open_for_write_commit(int handle);
int nwpio_wrfio_open_for_read_begin(const char* name, int name_len, MPI_Fint comm, const char* sysdep,
                                    int sysdep_len, int* handle);
int nwpio_wrfio_open_for_read_commit(int handle);
/* file_status: 100 not opened, 101 training, 102 open for write, 103 open for read. */
int nwpio_wrfio_inquire_opened(int handle, const char* name, int name_len, int* file_status);
int nwpio_wrfio_inquire_filename(int handle, char* name, int name_len, int* file_status);
int nwpio_wrfio_ioclose(int handle);
int nwpio_wrfio_iosync(int handle);

int nwpio_wrfio_write_field(int handle, const char* date, int date_len, const char* var, int var_len,
                            const void* field, int field_type, int domain_desc, const char* memory_order,
                            int memory_order_len, const char* stagger, int stagger_len, const char* dim_names,
                            int dim_name_len, const int* domain_start, const int* domain_end,
                            const int* memory_start, const int* memory_end, const int* patch_start,
                            const int* patch_end);
int nwpio_wrfio_read_field(int handle, const char* date, int date_len, const char* var, int var_len, void* field,
                           int field_type, const char* memory_order, int memory_order_len, const char* stagger,
                           int stagger_len, const char* dim_names, int dim_name_len, const int* domain_start,
                           const int* domain_end, const int* memory_start, const int* memory_end,
                           const int* patch_start, const int* patch_end);

/* Attribute kinds: 0 text (data = characters, count = their number), 1 integer (also WRF's
 * logicals, as 0/1), 2 real, 3 double. var_len 0 = a global attribute. */
int nwpio_wrfio_put_attribute(int handle, const char* var, int var_len, const char* name, int name_len, int kind,
                              const void* data, int count);
int nwpio_wrfio_get_attribute(int handle, const char* var, int var_len, const char* name, int name_len, int kind,
                              void* data, int count, int* out_count);

int nwpio_wrfio_get_next_time(int handle, char* date, int date_len);
int nwpio_wrfio_get_previous_time(int handle, char* date, int date_len);
int nwpio_wrfio_set_time(int handle, const char* date, int date_len);
int nwpio_wrfio_get_var_info(int handle, const char* var, int var_len, int* ndim, char* memory_order,
                             int memory_order_len, int* domain_start, int* domain_end, int* field_type);

/* The last error text of this process, blank-padded into text(1:len). */
void nwpio_wrfio_last_error(char* text, int len);

#ifdef __cplusplus
}
#endif

#endif
