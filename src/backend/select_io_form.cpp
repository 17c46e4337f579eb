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

std::string supported_io_forms(bool have_pnetcdf) {
  return std::string("0 (null: no file, library overhead only), 2 (serial netCDF), 11 (PnetCDF") +
         (have_pnetcdf ? ")" : "; not in this build)");
}

IoForm resolve_io_form(const OutputOptions& options, bool have_pnetcdf, int rank, std::ostream& log) {
  const int value = static_cast<int>(options.io_form);
  switch (options.io_form) {
    case IoForm::Null:
    case IoForm::NetcdfSerial: return options.io_form;
    case IoForm::Pnetcdf:
      if (have_pnetcdf) return IoForm::Pnetcdf;
      if (options.fallback_to_serial) {
        if (rank == 0) {
          log << "nwpio: io_form 11 (PnetCDF) asked for, but this nwpio was built without PnetCDF; "
                 "fallback_to_serial = .true.: writing with io_form 2 (serial netCDF) instead"
              << std::endl;
        }
        return IoForm::NetcdfSerial;
      }
      throw Error(ErrorKind::Unsupported,
                  "io_form 11 (PnetCDF): nwpio was built without PnetCDF (NWPIO_WITH_PNETCDF=OFF or libpnetcdf-dev not "
                  "found). Use io_form_history = 2 (serial netCDF), or set fallback_to_serial = .true. in &nwpio to switch "
                  "to it automatically");
  }
  throw Error(ErrorKind::Unsupported, "io_form " + std::to_string(value) + " is not supported; supported: " +
                                     supported_io_forms(have_pnetcdf));
}

IoForm resolve_io_form(const OutputOptions& options, bool have_pnetcdf, int rank) {
  return resolve_io_form(options, have_pnetcdf, rank, std::cerr);
}

}  // namespace nwpio::detail
