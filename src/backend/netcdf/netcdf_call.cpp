// The system's reason behind a failed netCDF-C call (netcdf_call.hpp).
#include "backend/netcdf/netcdf_call.hpp"

#include <cstring>

namespace nwpio::detail {

std::string storage_cause(int err) {
  switch (err) {
    case ENOSPC: case EDQUOT: case EFBIG: case EROFS: case EIO:
      return std::string("; the write was refused: ") + std::strerror(err);
    default:
      return {};
  }
}

}  // namespace nwpio::detail
