#include "wrfio/wrf_status.hpp"

namespace nwpio::wrfio {

int wrf_status_of(const Error& error) noexcept {
  if (const auto* wrf = dynamic_cast<const WrfError*>(&error)) return wrf->wrf_status();
  switch (error.kind()) {
    case ErrorKind::InvalidArgument:
    case ErrorKind::Decomposition:
    case ErrorKind::Schema:
      return wrf_status::kDimensionError;
    case ErrorKind::State:
      return wrf_status::kBadFileStatus;
    case ErrorKind::Unsupported:
      return wrf_status::kNotSupported;
    case ErrorKind::Config:
    case ErrorKind::Io:
    case ErrorKind::Mpi:
    case ErrorKind::Pnetcdf:
    case ErrorKind::Netcdf:
    case ErrorKind::Internal:
      return wrf_status::kNetcdf;
  }
  return wrf_status::kNetcdf;
}

WrfError as_wrf_error(const Error& error) {
  if (const auto* wrf = dynamic_cast<const WrfError*>(&error)) return *wrf;
  return WrfError(wrf_status_of(error), error.kind(), error.what());
}

}  // namespace nwpio::wrfio
