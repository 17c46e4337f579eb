// The last steps of a complete file, on the one process that commits it: its size checked
// against what its header promises, then its final name (atomically), then its folder synced.
// Used by the synchronous close (rank 0) and by the background commit (the writer that
// completes the file's ledger); never collective, never an MPI call.
#pragma once

#include <cstdint>
#include <string>

namespace nwpio::detail {

struct CommitPlan {
  std::string temp;              // where the file was written (temp_files.hpp)
  std::string final_path;        // its final name
  std::string output_dir;        // the folder of the final name (synced after the rename)
  bool noclobber = false;        // an existing file at the final name is never replaced
  bool sync = false;             // fsync_before_rename: the folder is synced after the rename
  std::int64_t expected_size = -1;  // what the header promises; -1: unknown, not checked
};

// Throws Error(Io) naming the step, the paths and the system's reason; the file then keeps its
// temporary name (with noclobber and a file already at the final name: the message says so).
void commit_file(const CommitPlan& plan);

}  // namespace nwpio::detail
