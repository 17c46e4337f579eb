#include "backend/select_io_form.hpp"

#include <iostream>
#include <ostream>

#include "nwpio/error.hpp"

namespace nwpio::detail {

bool built_with_pnetcdf() noexcept {
#ifdef NWPIO_HAVE_PNETCDF
  return true;
#else
  return false;
#endif
}

bool built_with_netcdf_par() noexcept {
#ifdef NWPIO_HAVE_NETCDF_PAR
  return true;
#else
  return false;
#endif
}

BuiltBackends built_backends() noexcept { return {built_with_pnetcdf(), built_with_netcdf_par()}; }

std::string supported_io_forms(const BuiltBackends& built) {
  return std::string("0 (null: no file, library overhead only), 2 (serial netCDF), 11 (PnetCDF") +
         (built.pnetcdf ? ")" : "; not in this build)") + ", 13 (parallel netCDF-4" +
         (built.netcdf_par ? ")" : "; not in this build)");
}

std::string supported_io_forms(bool have_pnetcdf) {
  return supported_io_forms(BuiltBackends{have_pnetcdf, built_with_netcdf_par()});
}

namespace {

// io_form 11 or 13 in a build without it: the fallback line, or the error naming the build.
IoForm missing_backend(const OutputOptions& options, int rank, std::ostream& log, const char* what,
                       const char* build_hint) {
  const std::string asked = "io_form " + std::to_string(static_cast<int>(options.io_form)) + " (" + what + ")";
  if (options.fallback_to_serial) {
    if (rank == 0) {
      log << "nwpio: " << asked << " asked for, but this nwpio was built without " << what << "; "
          << "fallback_to_serial = .true.: writing with io_form 2 (serial netCDF) instead" << std::endl;
    }
    return IoForm::NetcdfSerial;
  }
  throw Error(ErrorKind::Unsupported, asked + ": nwpio was built without " + what + " (" + build_hint +
                                          "). Use io_form_history = 2 (serial netCDF), or set fallback_to_serial = "
                                          ".true. in &nwpio to switch to it automatically");
}

}  // namespace

IoForm resolve_io_form(const OutputOptions& options, const BuiltBackends& built, int rank, std::ostream& log) {
  const int value = static_cast<int>(options.io_form);
  switch (options.io_form) {
    case IoForm::Null:
    case IoForm::NetcdfSerial: return options.io_form;
    case IoForm::Pnetcdf:
      if (built.pnetcdf) return IoForm::Pnetcdf;
      return missing_backend(options, rank, log, "PnetCDF", "NWPIO_WITH_PNETCDF=OFF or libpnetcdf-dev not found");
    case IoForm::NetcdfParallel:
      if (built.netcdf_par) return IoForm::NetcdfParallel;
      return missing_backend(options, rank, log, "parallel netCDF-4",
                             "NWPIO_NETCDF=serial, or libnetcdf-mpi-dev and libhdf5-openmpi-dev not found, or an "
                             "MPI other than Open MPI");
  }
  throw Error(ErrorKind::Unsupported, "io_form " + std::to_string(value) + " is not supported; supported: " +
                                     supported_io_forms(built));
}

IoForm resolve_io_form(const OutputOptions& options, bool have_pnetcdf, int rank, std::ostream& log) {
  return resolve_io_form(options, BuiltBackends{have_pnetcdf, built_with_netcdf_par()}, rank, log);
}

IoForm resolve_io_form(const OutputOptions& options, bool have_pnetcdf, int rank) {
  return resolve_io_form(options, have_pnetcdf, rank, std::cerr);
}

}  // namespace nwpio::detail
