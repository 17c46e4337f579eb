// PnetCDF 1.14 and later choose by themselves what nwpio's hint profiles set for the MPI-IO
// layers: their GIO driver (the default I/O driver of a PnetCDF built with it) sets cb_nodes
// from the nodes and the ranks per node, and stripes a new file on Lustre at create. With such a
// PnetCDF under io_form 11, a profile's (or the built-in level's) aggregators, stripe_count and
// stripe_size are not passed, so that PnetCDF's choice holds; what the user sets for the run
// (namelist `&nwpio` hints, the API, NWPIO_HINTS) is passed as before. A PnetCDF without GIO
// (1.12), or one told to use MPI-IO (nc_driver=mpiio in the hints or in PNETCDF_HINTS), changes
// nothing.
#pragma once

#include <string>

#include "hints/hints_merge.hpp"

namespace nwpio::detail::hints {

// The PnetCDF this libnwpio was built with (from its pnetcdf.h); empty version: none.
struct LinkedPnetcdf {
  std::string version;
  bool gio_default = false;  // its default I/O driver is GIO (PNETCDF_DRIVER_GIO)
};
LinkedPnetcdf linked_pnetcdf();

// After derive(): leaves the settings PnetCDF's GIO driver decides to it (value "default", the
// rule saying why) unless the user set them. Pure: tests drive it with any LinkedPnetcdf.
void leave_to_pnetcdf(Resolved& resolved, const LinkedPnetcdf& pnetcdf);

// The rule's words, which the translation repeats as the reason nothing is passed.
inline constexpr const char* kLeftToPnetcdf = "left to PnetCDF ";

}  // namespace nwpio::detail::hints
