// Hints turned into the MPI_Info object every rank passes to MPI-IO and PnetCDF: one rank decides
// the keys, every rank gets exactly its values (ROMIO requires identical hints on every rank).
#pragma once

#include <mpi.h>

#include <string>
#include <utility>
#include <vector>

namespace nwpio::detail {

using InfoKeys = std::vector<std::pair<std::string, std::string>>;

// Collective over comm: rank 0's `keys` (the others' are not read) as an MPI_Info on every rank,
// in order (a later value of a key wins, as MPI_Info_set does). MPI_INFO_NULL when there are none;
// the caller frees it. Throws Error naming the MPI call that failed.
MPI_Info broadcast_info(const InfoKeys& keys, MPI_Comm comm);

// Local: every key of `info` with its value, in the object's order (none for MPI_INFO_NULL).
// Throws Error naming the MPI call that failed.
InfoKeys info_keys(MPI_Info info);

}  // namespace nwpio::detail
