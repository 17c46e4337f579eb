// L1: the backend factory. backend_traits() settles io_form once (a backend not compiled in is
// a clear error, or the fallback to io_form 2 when asked for) and says what the core may know
// about the backend; make_backend() builds it. Adding a backend: its traits here, its class
// under src/backend/, nothing in the core.
#include <iostream>
#include <string>

#include "backend/backend.hpp"
#include "backend/netcdf/netcdf_serial_backend.hpp"
#include "backend/null_backend.hpp"
#include "backend/select_io_form.hpp"
#include "nwpio/error.hpp"
#ifdef NWPIO_HAVE_PNETCDF
#include "backend/pnetcdf/pnetcdf_backend.hpp"
#endif
#ifdef NWPIO_HAVE_NETCDF_PAR
#include "backend/netcdf_par/netcdf_parallel_backend.hpp"
#endif

namespace nwpio::detail {

SlabPlacement compact_placement(const FileLayout& layout) {
  SlabPlacement p;
  p.var_begin.assign(layout.vars.size(), 0);
  std::int64_t at = 0;
  for (int pass = 0; pass < 2; ++pass) {  // fixed-size variables first, then the records
    for (std::size_t v = 0; v < layout.vars.size(); ++v) {
      if (layout.vars[v].record != (pass == 1)) continue;
      p.var_begin[v] = at;
      at += record_bytes(layout, layout.vars[v]);
      if (pass == 1) p.record_stride += record_bytes(layout, layout.vars[v]);
    }
  }
  return p;
}

BackendTraits backend_traits(const OutputOptions& options, int rank) {
  BackendTraits t;
  t.io_form = resolve_io_form(options, built_backends(), rank, std::cerr);
  switch (t.io_form) {
    case IoForm::Pnetcdf:
      if (options.format == FileFormat::Netcdf4) {
        throw Error(ErrorKind::InvalidArgument, "io_form 11 (PnetCDF) writes CDF-2 or CDF-5, not netCDF-4");
      }
      t.name = "pnetcdf";
      t.format = options.format;
      t.may_switch_to_cdf5 = true;
      t.colon_free_names = true;
      t.writes_behind = true;
      break;
    case IoForm::NetcdfSerial:
      t.name = "netcdf-serial";
      t.parallel = false;
      t.uses_mpiio = false;
      t.byte_order = ByteOrder::Native;
      t.format = serial_file_format(options);
      break;
    case IoForm::NetcdfParallel:
      // netCDF-4 written by every writer through parallel HDF5, compressed chunk by chunk by the
      // rank that owns it (docs/COMPRESSION.md). MPI-IO underneath: hints apply.
      t.name = "netcdf4-parallel";
      t.byte_order = ByteOrder::Native;
      t.format = FileFormat::Netcdf4;
      t.shares_each_variable = true;
      break;
    case IoForm::Null:
      // Runs the data path exactly as PnetCDF's (big-endian slabs at classic positions) and
      // writes nothing: what the library costs on its own.
      t.name = "null";
      t.writes_file = false;
      t.uses_mpiio = false;
      t.format = options.format == FileFormat::Netcdf4 ? FileFormat::Cdf2 : options.format;
      t.may_switch_to_cdf5 = true;
      break;
  }
  t.colon_free_names = t.colon_free_names || options.nocolons;
  return t;
}

std::unique_ptr<Backend> make_backend(const BackendTraits& traits, const OutputOptions& /*options*/, MPI_Comm comm) {
  switch (traits.io_form) {
    case IoForm::Pnetcdf:
#ifdef NWPIO_HAVE_PNETCDF
      return make_pnetcdf_backend(comm);
#else
      break;  // backend_traits() already refused it
#endif
    case IoForm::NetcdfSerial: return make_netcdf_serial_backend(comm);
    case IoForm::NetcdfParallel:
#ifdef NWPIO_HAVE_NETCDF_PAR
      return make_netcdf_parallel_backend(comm);
#else
      break;  // backend_traits() already refused it
#endif
    case IoForm::Null: return make_null_backend();
  }
  throw Error(ErrorKind::Unsupported, "io_form " + std::to_string(static_cast<int>(traits.io_form)) +
                                          " is not supported; supported: " + supported_io_forms(built_backends()));
}

}  // namespace nwpio::detail
