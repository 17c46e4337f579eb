// STUB until the io_form 2 work lands.
#include "backend/netcdf/netcdf_serial_backend.hpp"

#include "nwpio/error.hpp"

namespace nwpio::detail {

std::unique_ptr<Backend> make_netcdf_serial_backend(MPI_Comm, const OutputOptions&) {
  throw Error(ErrorKind::Unsupported, "io_form 2 (serial netCDF) is not implemented yet");
}

}  // namespace nwpio::detail
