// The backends nwpio knows, one row each (backend_registry.cpp): which io_form, whether this
// libnwpio was built with it (and if not, why), what the core may know about it (its traits)
// and how to make it. With the IoForm enum itself, the only place in the library that knows
// io_form numbers: front ends and configuration readers turn numbers into IoForm here, and the
// core asks the traits.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <iosfwd>
#include <memory>
#include <string>

#include "backend/backend.hpp"
#include "nwpio/options.hpp"

namespace nwpio::detail {

// What this libnwpio was built with (tests may pretend otherwise).
struct BuiltBackends {
  bool pnetcdf = false;     // io_form 11
  bool netcdf_par = false;  // io_form 13 (the MPI build of netCDF-C, parallel HDF5)
};
BuiltBackends built_backends() noexcept;
bool built_with_pnetcdf() noexcept;

// A WRF io_form number as nwpio's IoForm; Error(Unsupported) listing the known ones otherwise.
IoForm io_form_from_number(std::int64_t value);
// A namelist's io_form_history: one of WRF's io_forms nwpio writes (not its null backend);
// Error(Unsupported) "expected a supported io_form_history (2: serial netCDF, ...)" otherwise.
IoForm io_form_from_wrf(std::int64_t value);

// "0 (null: no file, library overhead only), 2 (serial netCDF), 11 (PnetCDF), 13 (parallel
// netCDF-4)": the list errors print; a backend not in `built` is marked so.
std::string supported_io_forms(const BuiltBackends& built);
std::string supported_io_forms(bool have_pnetcdf);

// Which backend options.io_form really gets: itself when built; a backend not built is
// Error(Unsupported) naming the build, unless options.fallback_to_serial, which gives io_form 2
// and writes ONE line to `log` on rank 0. Local: every rank gets the same answer.
IoForm resolve_io_form(const OutputOptions& options, const BuiltBackends& built, int rank, std::ostream& log);
IoForm resolve_io_form(const OutputOptions& options, bool have_pnetcdf, int rank, std::ostream& log);

// The traits of the backend `options` ask for: io_form resolved once (above), then what that
// backend is (BackendTraits). Throws Error(Unsupported / InvalidArgument) with the reason.
BackendTraits backend_traits(const OutputOptions& options, int rank);

// The backend of `traits` (collective over comm where the backend is).
std::unique_ptr<Backend> make_backend(const BackendTraits& traits, MPI_Comm comm);

}  // namespace nwpio::detail
