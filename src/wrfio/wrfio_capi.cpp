// The package's C boundary: translates arguments once (Fortran strings, communicators, WRF's
// bounds) and runs each call in the guard that turns errors into WRF statuses.
#include "wrfio/wrfio_capi.h"

#include <algorithm>
#include <cstring>
#include <optional>

#include "mpiio/ompio_guard.hpp"
#include "wrfio/field_call.hpp"
#include "wrfio/fortran_args.hpp"
#include "wrfio/open_files.hpp"
#include "wrfio/package_commits.hpp"
#include "wrfio/wrf_status.hpp"

using namespace nwpio;
using namespace nwpio::wrfio;

namespace {

std::string text(const char* s, int len) { return fortran_string(s, len); }

void fill(char* out, int len, const std::string& value) {
  if (len <= 0) return;
  const auto n = static_cast<std::size_t>(len);
  std::memset(out, ' ', n);
  std::memcpy(out, value.data(), std::min(n, value.size()));
}

void require_initialized() {
  if (!package_initialized()) {
    throw WrfError(wrf_status::kIoNotInitialized, ErrorKind::State, "ext_pnc_ioinit was not called");
  }
}

}  // namespace

extern "C" {

int nwpio_wrfio_ioinit(void) {
  return guarded("ext_pnc_ioinit", 0, [] {
    // Before any file is opened: switch off OMPIO's write data sieving where it corrupts
    // collective writes (Open MPI 4.1.x, open-mpi/ompi#12718).
    detail::guard_ompio_write_data_sieving();
    set_package_initialized(true);
    return wrf_status::kNoErr;
  });
}

int nwpio_wrfio_ioexit(void) {
  return guarded("ext_pnc_ioexit", 0, [] {
    remove_all_open_files();
    set_package_initialized(false);
    finish_package_files();  // every file written behind the model: committed, or its failure raised
    return wrf_status::kNoErr;
  });
}

int nwpio_wrfio_open_for_write_begin(const char* name, int name_len, MPI_Fint comm, const char* sysdep,
                                     int sysdep_len, int* handle) {
  *handle = 0;
  return guarded("ext_pnc_open_for_write_begin", 0, [&] {
    require_initialized();
    OpenFile f;
    f.write = std::make_unique<WriteStream>(MPI_Comm_f2c(comm), text(name, name_len), text(sysdep, sysdep_len));
    *handle = add_open_file(std::move(f));
    return wrf_status::kNoErr;
  });
}

int nwpio_wrfio_open_for_write_commit(int handle) {
  return guarded("ext_pnc_open_for_write_commit", handle, [&] {
    OpenFile& f = open_file(handle);
    if (!f.write) throw WrfError(wrf_status::kWriteReadOnlyFile, ErrorKind::State, "file is open for reading");
    f.write->commit();
    return wrf_status::kNoErr;
  });
}

int nwpio_wrfio_open_for_read_begin(const char* name, int name_len, MPI_Fint comm, const char* sysdep,
                                    int sysdep_len, int* handle) {
  *handle = 0;
  return guarded("ext_pnc_open_for_read_begin", 0, [&] {
    require_initialized();
    settle_package_files(MPI_Comm_f2c(comm));  // the file may be one written behind the model
    OpenFile f;
    f.read = std::make_unique<ReadFile>(MPI_Comm_f2c(comm), text(name, name_len), text(sysdep, sysdep_len));
    *handle = add_open_file(std::move(f));
    return wrf_status::kNoErr;
  });
}

int nwpio_wrfio_open_for_read_commit(int handle) {
  return guarded("ext_pnc_open_for_read_commit", handle, [&] {
    OpenFile& f = open_file(handle);
    if (!f.read) throw WrfError(wrf_status::kReadWriteOnlyFile, ErrorKind::State, "file is open for writing");
    f.read->commit();
    return wrf_status::kNoErr;
  });
}

int nwpio_wrfio_inquire_opened(int handle, const char* name, int name_len, int* file_status) {
  *file_status = file_state::kNotOpened;
  return guarded("ext_pnc_inquire_opened", handle, [&] {
    const OpenFile* f = find_open_file(handle);
    if (f && f->wrf_file_name() == text(name, name_len)) *file_status = f->file_state();
    return wrf_status::kNoErr;
  });
}

int nwpio_wrfio_inquire_filename(int handle, char* name, int name_len, int* file_status) {
  *file_status = file_state::kNotOpened;
  return guarded("ext_pnc_inquire_filename", handle, [&] {
    const OpenFile& f = open_file(handle);
    fill(name, name_len, f.wrf_file_name());
    *file_status = f.file_state();
    return wrf_status::kNoErr;
  });
}

int nwpio_wrfio_ioclose(int handle) {
  const int status = guarded("ext_pnc_ioclose", handle, [&] {
    OpenFile& f = open_file(handle);
    if (f.write) f.write->close();
    return wrf_status::kNoErr;
  });
  remove_open_file(handle);  // a failed stream is abandoned: its partial file keeps the temporary name
  return status;
}

int nwpio_wrfio_iosync(int handle) {
  return guarded("ext_pnc_iosync", handle, [&] {
    OpenFile& f = open_file(handle);
    if (f.write) f.write->sync();
    return wrf_status::kNoErr;
  });
}

int nwpio_wrfio_write_field(int handle, const char* date, int date_len, const char* var_name, int var_len,
                            const void* field, int field_type, int domain_desc, const char* memory_order,
                            int memory_order_len, const char* stagger, int stagger_len, const char* dim_names,
                            int dim_name_len, const int* ds, const int* de, const int* ms, const int* me,
                            const int* ps, const int* pe) {
  return guarded("ext_pnc_write_field", handle, [&] {
    OpenFile& f = open_file(handle);
    if (!f.write) throw WrfError(wrf_status::kWriteReadOnlyFile, ErrorKind::State, "file is open for reading");
    f.write->write_field(field_args({date, date_len}, {var_name, var_len}, field_type, domain_desc,
                                    {memory_order, memory_order_len}, {stagger, stagger_len}, dim_names, dim_name_len,
                                    {ds, de, ms, me, ps, pe}),
                         field);
    return wrf_status::kNoErr;
  });
}

int nwpio_wrfio_read_field(int handle, const char* date, int date_len, const char* var, int var_len, void* field,
                           int field_type, const char* memory_order, int memory_order_len, const char* stagger,
                           int stagger_len, const char* dim_names, int dim_name_len, const int* ds, const int* de,
                           const int* ms, const int* me, const int* ps, const int* pe) {
  return guarded("ext_pnc_read_field", handle, [&] {
    OpenFile& f = open_file(handle);
    if (!f.read) throw WrfError(wrf_status::kReadWriteOnlyFile, ErrorKind::State, "file is open for writing");
    RawFieldArgs args = field_args({date, date_len}, {var, var_len}, field_type, 0, {memory_order, memory_order_len},
                                   {stagger, stagger_len}, dim_names, dim_name_len, {ds, de, ms, me, ps, pe});
    args.reading = true;
    std::optional<FieldCall> call;
    try {
      call = parse_field_call(args);
    } catch (const WrfError& e) {
      // Not written either (see write_field): said when it was written, not again when read.
      if (e.wrf_status() == wrf_status::kBadMemoryOrder) throw WrfError(e.wrf_status(), e.kind(), e.what(), true);
      throw;
    }
    f.read->read_field(*call, field);
    return wrf_status::kNoErr;
  });
}

int nwpio_wrfio_put_attribute(int handle, const char* var, int var_len, const char* name, int name_len, int kind,
                              const void* data, int count) {
  const bool global = fortran_string(var, var_len).empty();
  return guarded(global ? "ext_pnc_put_dom_ti" : "ext_pnc_put_var_ti", handle, [&] {
    OpenFile& f = open_file(handle);
    if (!f.write) throw WrfError(wrf_status::kWriteReadOnlyFile, ErrorKind::State, "file is open for reading");
    const std::string owner = text(var, var_len);
    Attribute a = attribute_args(owner, text(name, name_len), kind, data, count);
    if (owner.empty()) {
      f.write->put_global_attribute(std::move(a));
    } else {
      f.write->put_variable_attribute(owner, std::move(a));
    }
    return wrf_status::kNoErr;
  });
}

int nwpio_wrfio_get_attribute(int handle, const char* var, int var_len, const char* name, int name_len, int kind,
                              void* data, int count, int* out_count) {
  if (out_count) *out_count = 0;
  const bool global = fortran_string(var, var_len).empty();
  return guarded(global ? "ext_pnc_get_dom_ti" : "ext_pnc_get_var_ti", handle, [&] {
    OpenFile& f = open_file(handle);
    if (!f.read) throw WrfError(wrf_status::kReadWriteOnlyFile, ErrorKind::State, "file is open for writing");
    return f.read->get_attribute(text(var, var_len), text(name, name_len), static_cast<AttributeKind>(kind), data,
                                 count, out_count);
  });
}

int nwpio_wrfio_get_next_time(int handle, char* date, int date_len) {
  return guarded("ext_pnc_get_next_time", handle, [&] {
    OpenFile& f = open_file(handle);
    if (!f.read) throw WrfError(wrf_status::kReadWriteOnlyFile, ErrorKind::State, "file is open for writing");
    if (f.read->file_state() != file_state::kOpenedForRead) {
      throw WrfError(wrf_status::kDryRunRead, ErrorKind::State, "get_next_time before open_for_read_commit");
    }
    fill(date, date_len, f.read->next_time());
    return wrf_status::kNoErr;
  });
}

int nwpio_wrfio_get_previous_time(int handle, char* date, int date_len) {
  return guarded("ext_pnc_get_previous_time", handle, [&] {
    OpenFile& f = open_file(handle);
    if (!f.read) throw WrfError(wrf_status::kReadWriteOnlyFile, ErrorKind::State, "file is open for writing");
    fill(date, date_len, f.read->previous_time());
    return wrf_status::kNoErr;
  });
}

int nwpio_wrfio_set_time(int handle, const char* date, int date_len) {
  return guarded("ext_pnc_set_time", handle, [&] {
    OpenFile& f = open_file(handle);
    if (!f.read) throw WrfError(wrf_status::kReadWriteOnlyFile, ErrorKind::State, "file is open for writing");
    f.read->set_time(text(date, date_len));
    return wrf_status::kNoErr;
  });
}

int nwpio_wrfio_get_var_info(int handle, const char* var, int var_len, int* ndim, char* memory_order,
                             int memory_order_len, int* domain_start, int* domain_end, int* field_type) {
  return guarded("ext_pnc_get_var_info", handle, [&] {
    OpenFile& f = open_file(handle);
    if (!f.read) throw WrfError(wrf_status::kReadWriteOnlyFile, ErrorKind::State, "file is open for writing");
    const ReadFile::VarInfo info = f.read->var_info(text(var, var_len));
    *ndim = info.ndim;
    fill(memory_order, memory_order_len, info.memory_order);
    for (int d = 0; d < info.ndim; ++d) {
      domain_start[d] = info.domain_start[static_cast<std::size_t>(d)];
      domain_end[d] = info.domain_end[static_cast<std::size_t>(d)];
    }
    *field_type = info.field_type;
    return wrf_status::kNoErr;
  });
}

void nwpio_wrfio_last_error(char* text_out, int len) { fill(text_out, len, last_error()); }

}  // extern "C"
