// Every method that writes a netCDF file has it read back after each repetition: a method that
// wrote wrong values must not get a time, or a fast wrong file wins. (Measured here: WRF's own
// pattern, one collective per variable, wrote wrong values at 3 ranks under Open MPI 4.1's OMPIO
// write data sieving, open-mpi/ompi#12718.)
#pragma once

#include <string>

#include "method.hpp"

namespace nwpio::bench {

// Collective. Rank 0 reads `path` with netCDF-C and checks every value against the fill rule
// (frame 0), or for the wrfreal workload against its source fields (verify_real_file); throws the same Error(Io) on every rank, naming the method and the first
// wrong values, when anything differs.
void verify_written(const CaseContext& ctx, const std::string& method, const std::string& path);

}  // namespace nwpio::bench
