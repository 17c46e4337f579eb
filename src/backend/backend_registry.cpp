// The backend registry (backend_registry.hpp). Adding a backend: one row below and its class
// under src/backend/; nothing in the core.
#include "backend/backend_registry.hpp"

#include <iostream>
#include <ostream>
#include <span>

#include "backend/netcdf/netcdf_serial_backend.hpp"
#include "backend/null_backend.hpp"
#include "nwpio/error.hpp"
#ifdef NWPIO_HAVE_PNETCDF
#include "backend/pnetcdf/pnetcdf_backend.hpp"
#endif
#ifdef NWPIO_HAVE_NETCDF_PAR
#include "backend/netcdf_par/netcdf_parallel_backend.hpp"
#endif

namespace nwpio::detail {

namespace {

struct BackendEntry {
  IoForm io_form;
  const char* label;             // in the list of supported values
  bool BuiltBackends::*built;    // null: always built
  const char* needs;             // what a build without it lacked ("PnetCDF")
  const char* build_hint;        // which build option or packages
  void (*traits)(const OutputOptions&, BackendTraits&);
  std::unique_ptr<Backend> (*make)(MPI_Comm);  // null when not compiled in
};

std::unique_ptr<Backend> make_null(MPI_Comm) { return make_null_backend(); }

const BackendEntry kBackends[] = {
    {IoForm::Null, "null: no file, library overhead only", nullptr, "", "",
     // Runs the data path exactly as PnetCDF's (big-endian slabs at classic positions) and
     // writes nothing: what the library costs on its own.
     [](const OutputOptions& o, BackendTraits& t) {
       t.name = "null";
       t.writes_file = false;
       t.uses_mpiio = false;
       t.format = o.format == FileFormat::Netcdf4 ? FileFormat::Cdf2 : o.format;
       t.may_switch_to_cdf5 = true;
     },
     make_null},
    {IoForm::NetcdfSerial, "serial netCDF", nullptr, "", "",
     [](const OutputOptions& o, BackendTraits& t) {
       t.name = "netcdf-serial";
       t.parallel = false;
       t.uses_mpiio = false;
       t.byte_order = ByteOrder::Native;
       t.format = serial_file_format(o);
     },
     make_netcdf_serial_backend},
    {IoForm::Pnetcdf, "PnetCDF", &BuiltBackends::pnetcdf, "PnetCDF", "NWPIO_WITH_PNETCDF=OFF or libpnetcdf-dev not found",
     [](const OutputOptions& o, BackendTraits& t) {
       if (o.format == FileFormat::Netcdf4) {
         throw Error(ErrorKind::InvalidArgument, "io_form 11 (PnetCDF) writes CDF-2 or CDF-5, not netCDF-4");
       }
       t.name = "pnetcdf";
       t.format = o.format;
       t.may_switch_to_cdf5 = true;
       t.colon_free_names = true;  // WRF's io_form 11 rule: ':' becomes '_' in file names
       t.writes_behind = true;
     },
#ifdef NWPIO_HAVE_PNETCDF
     make_pnetcdf_backend},
#else
     nullptr},
#endif
    {IoForm::NetcdfParallel, "parallel netCDF-4", &BuiltBackends::netcdf_par, "parallel netCDF-4",
     "NWPIO_NETCDF=serial, or libnetcdf-mpi-dev and libhdf5-openmpi-dev not found, or an MPI other than Open MPI",
     // netCDF-4 written by every writer through parallel HDF5, compressed chunk by chunk by the
     // rank that owns it (docs/COMPRESSION.md). MPI-IO underneath: hints apply.
     [](const OutputOptions&, BackendTraits& t) {
       t.name = "netcdf4-parallel";
       t.byte_order = ByteOrder::Native;
       t.format = FileFormat::Netcdf4;
       t.shares_each_variable = true;
     },
#ifdef NWPIO_HAVE_NETCDF_PAR
     make_netcdf_parallel_backend},
#else
     nullptr},
#endif
};

const BackendEntry* find(IoForm io_form) {
  for (const BackendEntry& e : kBackends) {
    if (e.io_form == io_form) return &e;
  }
  return nullptr;
}

const BackendEntry& serial() { return *find(IoForm::NetcdfSerial); }

}  // namespace

BuiltBackends built_backends() noexcept {
  BuiltBackends b;
#ifdef NWPIO_HAVE_PNETCDF
  b.pnetcdf = true;
#endif
#ifdef NWPIO_HAVE_NETCDF_PAR
  b.netcdf_par = true;
#endif
  return b;
}

bool built_with_pnetcdf() noexcept { return built_backends().pnetcdf; }

std::string supported_io_forms(const BuiltBackends& built) {
  std::string out;
  for (const BackendEntry& e : kBackends) {
    if (!out.empty()) out += ", ";
    out += std::to_string(static_cast<int>(e.io_form)) + " (" + e.label;
    if (e.built && !(built.*e.built)) out += "; not in this build";
    out += ")";
  }
  return out;
}

std::string supported_io_forms(bool have_pnetcdf) {
  BuiltBackends b = built_backends();
  b.pnetcdf = have_pnetcdf;
  return supported_io_forms(b);
}

IoForm io_form_from_number(std::int64_t value) {
  for (const BackendEntry& e : kBackends) {
    if (static_cast<std::int64_t>(e.io_form) == value) return e.io_form;
  }
  throw Error(ErrorKind::Unsupported,
              "io_form " + std::to_string(value) + " is not supported; supported: " + supported_io_forms(built_backends()));
}

IoForm io_form_from_wrf(std::int64_t value) {
  std::string list;
  for (const BackendEntry& e : kBackends) {
    if (e.io_form == IoForm::Null) continue;  // nwpio's own, for programs and benchmarks
    if (static_cast<std::int64_t>(e.io_form) == value) return e.io_form;
    list += (list.empty() ? "" : ", ") + std::to_string(static_cast<int>(e.io_form)) + ": " + e.label;
  }
  throw Error(ErrorKind::Unsupported, "expected a supported io_form_history (" + list + "), found " + std::to_string(value));
}

IoForm resolve_io_form(const OutputOptions& options, const BuiltBackends& built, int rank, std::ostream& log) {
  const BackendEntry* e = find(options.io_form);
  if (!e) {
    throw Error(ErrorKind::Unsupported, "io_form " + std::to_string(static_cast<int>(options.io_form)) +
                                            " is not supported; supported: " + supported_io_forms(built));
  }
  if (!e->built || built.*e->built) return e->io_form;
  const std::string asked = "io_form " + std::to_string(static_cast<int>(e->io_form)) + " (" + e->needs + ")";
  if (options.fallback_to_serial) {
    if (rank == 0) {
      log << "nwpio: " << asked << " asked for, but this nwpio was built without " << e->needs << "; "
          << "fallback_to_serial = .true.: writing with io_form 2 (serial netCDF) instead" << std::endl;
    }
    return serial().io_form;
  }
  throw Error(ErrorKind::Unsupported, asked + ": nwpio was built without " + e->needs + " (" + e->build_hint +
                                          "). Use io_form_history = 2 (serial netCDF), or set fallback_to_serial = "
                                          ".true. in &nwpio to switch to it automatically");
}

IoForm resolve_io_form(const OutputOptions& options, bool have_pnetcdf, int rank, std::ostream& log) {
  BuiltBackends b = built_backends();
  b.pnetcdf = have_pnetcdf;
  return resolve_io_form(options, b, rank, log);
}

BackendTraits backend_traits(const OutputOptions& options, int rank) {
  BackendTraits t;
  t.io_form = resolve_io_form(options, built_backends(), rank, std::cerr);
  find(t.io_form)->traits(options, t);
  t.colon_free_names = t.colon_free_names || options.nocolons;
  return t;
}

std::unique_ptr<Backend> make_backend(const BackendTraits& traits, MPI_Comm comm) {
  const BackendEntry* e = find(traits.io_form);
  if (e && e->make) return e->make(comm);
  throw Error(ErrorKind::Unsupported, "io_form " + std::to_string(static_cast<int>(traits.io_form)) +
                                          " is not supported; supported: " + supported_io_forms(built_backends()));
}

}  // namespace nwpio::detail
