// The one checked wrapper for PnetCDF calls: names the call and the file, and gives PnetCDF's
// own message (ncmpi_strerror).
#pragma once

#include <string>
#include <string_view>

namespace nwpio::detail {

// Throws Error(Pnetcdf) "<call> failed for <path>: <ncmpi_strerror(rc)>" unless rc == NC_NOERR.
// Usage: pnetcdf_check(ncmpi_create(...), "ncmpi_create", path);
void pnetcdf_check(int rc, std::string_view call, std::string_view path);

}  // namespace nwpio::detail
