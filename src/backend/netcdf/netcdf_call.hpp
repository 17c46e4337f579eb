// The one checked wrapper for netCDF-C calls: names the call and the file and gives
// netCDF-C's own message (nc_strerror).
#pragma once

#include <netcdf.h>

#include <string>
#include <string_view>

#include "nwpio/error.hpp"

namespace nwpio::detail {

// Usage: netcdf_check(nc_def_dim(ncid, ...), "nc_def_dim(west_east)", path);
inline void netcdf_check(int rc, std::string_view call, std::string_view path) {
  if (rc != NC_NOERR) {
    throw Error(ErrorKind::Netcdf, std::string(call) + " failed for '" + std::string(path) + "': " + nc_strerror(rc));
  }
}

}  // namespace nwpio::detail
