// L1: the backend factory, by io_form. A backend not compiled in is a clear error, never a
// silent substitute; the fallback to io_form 2, when asked for, was already decided by
// resolve_io_form (the Writer resolves io_form once, so the fallback line is printed once).
#include <string>

#include "backend/backend.hpp"
#include "backend/netcdf/netcdf_serial_backend.hpp"
#include "backend/null_backend.hpp"
#include "backend/select_io_form.hpp"
#include "nwpio/error.hpp"
#ifdef NWPIO_HAVE_PNETCDF
#include "backend/pnetcdf/pnetcdf_backend.hpp"
#endif

namespace nwpio::detail {

FileOffsets Backend::open_file_bytes() {
  throw Error(ErrorKind::Internal, "this backend does not write file bytes");
}

std::unique_ptr<Backend> make_backend(const OutputOptions& options, MPI_Comm comm) {
  switch (options.io_form) {
    case IoForm::Pnetcdf:
#ifdef NWPIO_HAVE_PNETCDF
      return make_pnetcdf_backend(comm);
#else
      throw Error(ErrorKind::Unsupported,
                  "nwpio was built without PnetCDF (io_form 11); use io_form 2 or rebuild with -DNWPIO_WITH_PNETCDF=ON");
#endif
    case IoForm::NetcdfSerial: return make_netcdf_serial_backend(comm, options);
    case IoForm::Null: return make_null_backend();
  }
  throw Error(ErrorKind::Unsupported, "io_form " + std::to_string(static_cast<int>(options.io_form)) +
                                          " is not supported; supported: " + supported_io_forms(built_with_pnetcdf()));
}

}  // namespace nwpio::detail
