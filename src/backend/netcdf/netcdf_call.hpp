// The one checked wrapper for netCDF-C calls: names the call and the file and gives
// netCDF-C's own message (nc_strerror), with the system's reason when a write to the disk failed.
#pragma once

#include <netcdf.h>

#include <cerrno>
#include <string>
#include <string_view>

#include "nwpio/error.hpp"

namespace nwpio::detail {

// The system's reason behind a failed netCDF-C call, from the errno it left: netCDF-4 reports a
// failed write as "NetCDF: HDF error" (HDF5's own stack, which names the errno, is not printed),
// so a full disk would otherwise go unnamed. The caller sets errno to 0 before the call; only the
// errnos of a refused write count. Returns "; <reason>" or "" when there is none.
std::string storage_cause(int err);

// Usage: netcdf_check(nc_def_dim(ncid, ...), "nc_def_dim(west_east)", path);
// A disk that refused the write (full, over quota, read-only, I/O error) gives Error(Io), naming
// the cause; anything else Error(Netcdf).
inline void netcdf_check(int rc, std::string_view call, std::string_view path, int err = 0) {
  if (rc != NC_NOERR) {
    const std::string cause = storage_cause(err);
    throw Error(cause.empty() ? ErrorKind::Netcdf : ErrorKind::Io,
                std::string(call) + " failed for '" + std::string(path) + "': " + nc_strerror(rc) + cause);
  }
}

}  // namespace nwpio::detail
