// The last steps of a complete file, on the one process that commits it: its size checked
// against what its header promises, then its final name (atomically), then its folder synced.
// Used by the synchronous close (rank 0) and by the background commit (the writer that
// completes the file's ledger); never collective, never an MPI call.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "util/temp_files.hpp"

namespace nwpio::detail {

struct CommitPlan {
  std::string temp;              // where the file was written: a path through `folder`'s descriptor
  std::string final_path;        // its final name
  std::string output_dir;        // the folder of the final name (synced after the rename)
  bool noclobber = false;        // an existing file at the final name is never replaced
  bool sync = false;             // fsync_before_rename: the folder is synced after the rename
  std::int64_t expected_size = -1;  // what the header promises; -1: unknown, not checked
  std::shared_ptr<const PrivateDir> folder;  // held until the file is committed (temp_files.hpp)

  // `text` with the paths through the folder's descriptor as users know them.
  std::string readable(std::string text) const { return folder ? folder->readable(std::move(text)) : text; }
};

// Throws Error(Io) naming the step, the paths and the system's reason; the file then keeps its
// temporary name (with noclobber and a file already at the final name: the message says so).
void commit_file(const CommitPlan& plan);

}  // namespace nwpio::detail
