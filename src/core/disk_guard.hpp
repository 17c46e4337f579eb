// Disk space and file-size limits, checked BEFORE a frame is written, so that a full file system
// or a file-size limit (ulimit -f) is an error naming the file and the system's reason on every
// rank, and never a silently short file: Open MPI 4.1's default MPI-IO (OMPIO) prints "error in
// writev: File too large" and reports success to PnetCDF; ROMIO reports a bare MPI_ERR_IO. And
// checked AFTER the close (the file is as long as its header promises) before it may take its
// final name. Classic formats only (io_form 11 CDF-2/CDF-5); otherwise nothing is known and
// nothing is checked.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <string>

#include "backend/backend.hpp"

namespace nwpio::detail {

// Where a classic-format file ends, from its layout and the offsets of the open file.
struct FileExtent {
  bool known = false;
  std::int64_t fixed_end = 0;               // end of the header and the fixed-size variables
  std::int64_t last_record_var = -1;        // offset of the last record variable in record 0
  std::int64_t record_size = 0;             // bytes per record (padded, netCDF rules)
  std::int64_t last_record_var_bytes = 0;   // its own bytes per record (unpadded)
  // Bytes a complete file with `records` records has (the last record ends with its last
  // variable's own bytes; writers need not write its padding).
  std::int64_t end_after(std::int64_t records) const noexcept;
};

// Rank 0 computes it from `facts` (the open file's offsets); every rank gets it. Collective.
FileExtent share_file_extent(const FileLayout& layout, const LayoutFacts& facts, MPI_Comm comm);

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
