// The io_form switch: which backend a stream really gets. One place decides, so that the
// factory, the Writer and the tests agree on the rule.
#pragma once

#include <iosfwd>
#include <string>

#include "nwpio/options.hpp"

namespace nwpio::detail {

// What this libnwpio was built with.
struct BuiltBackends {
  bool pnetcdf = false;       // io_form 11
  bool netcdf_par = false;    // io_form 13 (the MPI build of netCDF-C, parallel HDF5)
};

// True when this libnwpio was built with the PnetCDF backend (io_form 11).
bool built_with_pnetcdf() noexcept;
// True when it was built with the MPI netCDF-C (io_form 13).
bool built_with_netcdf_par() noexcept;
BuiltBackends built_backends() noexcept;

// "0 (null: no file, library overhead only), 2 (serial netCDF), 11 (PnetCDF), 13 (parallel
// netCDF-4)" -- the list the errors print; a backend not in this build is marked as such.
std::string supported_io_forms(bool have_pnetcdf);
std::string supported_io_forms(const BuiltBackends& built);

// Resolves options.io_form:
//   0, 2           -> themselves;
//   11, 13         -> themselves when built; otherwise Error(Unsupported) naming the build,
//                     unless options.fallback_to_serial, which gives 2 and writes ONE line to
//                     `log` on rank 0 (other ranks stay silent);
//   anything else  -> Error(Unsupported) listing the supported values.
// Local (no communication): every rank gets the same answer from the same options.
IoForm resolve_io_form(const OutputOptions& options, const BuiltBackends& built, int rank, std::ostream& log);
IoForm resolve_io_form(const OutputOptions& options, bool have_pnetcdf, int rank, std::ostream& log);
IoForm resolve_io_form(const OutputOptions& options, bool have_pnetcdf, int rank);  // log = std::cerr

}  // namespace nwpio::detail
