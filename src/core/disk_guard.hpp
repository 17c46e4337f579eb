// Disk space and file-size limits, checked BEFORE a frame is written, so that a full file system
// or a file-size limit (ulimit -f) is an error naming the file and the system's reason on every
// rank, and never a silently short file: Open MPI 4.1's default MPI-IO (OMPIO) prints "error in
// writev: File too large" and reports success to PnetCDF; ROMIO reports a bare MPI_ERR_IO. And
// checked AFTER the close (the file is as long as its header promises) before it may take its
// final name. Only where the backend knows where its file ends (FileExtent: classic formats
// through PnetCDF); otherwise nothing is known and nothing is checked.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <string>

#include "layout/layout_facts.hpp"

namespace nwpio::detail {

// Rank 0's extent (from its backend's layout facts), shared with every rank. Collective.
FileExtent share_file_extent(const FileExtent& extent, MPI_Comm comm);

// Local, every rank (any rank may write any part of the file in a collective write): the file
// will reach `end` bytes; throws Error(Io) "<path>: File too large: ..." when that is over this
// process's file-size limit (RLIMIT_FSIZE).
void check_file_size_limit(const std::string& path, std::int64_t end);

// Reserves disk blocks for bytes [begin, end) of the file (fallocate, FALLOC_FL_KEEP_SIZE: the
// size does not change). Throws Error(Io) "<path>: No space left on device ..." (or the quota's
// reason). A file system that cannot reserve (EOPNOTSUPP) is left alone: the check after the
// close still guards it. Ranks of a parallel write each reserve a slice (reserve_slice): the
// blocks are then allocated in parallel, as the write itself would, not by one rank alone.
void reserve_space(const std::string& path, std::int64_t begin, std::int64_t end);
// Slice `rank` of `ranks` of [begin, end): reserve_space of that slice (nothing when empty).
void reserve_slice(const std::string& path, std::int64_t begin, std::int64_t end, int rank, int ranks);

// Rank 0, after the close: throws Error(Io) when the file is shorter than `end`.
void check_complete_size(const std::string& path, std::int64_t end);

}  // namespace nwpio::detail
