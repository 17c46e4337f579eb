// iofields: WRF's run-time I/O field list (iofields_filename). Owned by the namelist work
// (issue 3); the Writer calls apply_iofields() once in its constructor.
#pragma once

#include <mpi.h>

#include <set>
#include <string>

#include "nwpio/options.hpp"
#include "nwpio/schema.hpp"

namespace nwpio::detail {

// Reads options.iofields_file (if any) on rank 0, broadcasts, and adds/removes variables of
// the history stream (stream 0) in `schema`. Returns the names removed (put() on them is free).
// Collective. Unknown names: a warning, or Error(Config) when !options.ignore_iofields_warning.
std::set<std::string> apply_iofields(Schema& schema, const OutputOptions& options, MPI_Comm comm);

}  // namespace nwpio::detail
