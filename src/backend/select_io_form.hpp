// The io_form switch: which backend a stream really gets. One place decides, so that the
// factory, the Writer and the tests agree on the rule.
#pragma once

#include <iosfwd>
#include <string>

#include "nwpio/options.hpp"

namespace nwpio::detail {

// True when this libnwpio was built with the PnetCDF backend (io_form 11).
bool built_with_pnetcdf() noexcept;

// "0 (null: no file, library overhead only), 2 (serial netCDF), 11 (PnetCDF)" -- the list the
// errors print; in a build without PnetCDF 11 is marked as not built.
std::string supported_io_forms(bool have_pnetcdf);

// Resolves options.io_form:
//   0, 2           -> themselves;
//   11             -> 11 when have_pnetcdf; otherwise Error(Unsupported) naming the build, unless
//                     options.fallback_to_serial, which gives 2 and writes ONE line to `log` on
//                     rank 0 (other ranks stay silent);
//   anything else  -> Error(Unsupported) listing the supported values.
// Local (no communication): every rank gets the same answer from the same options.
IoForm resolve_io_form(const OutputOptions& options, bool have_pnetcdf, int rank, std::ostream& log);
IoForm resolve_io_form(const OutputOptions& options, bool have_pnetcdf, int rank);  // log = std::cerr

}  // namespace nwpio::detail
