// Hooks that nwpio's own tests hand to a stream through its private context
// (src/api/stream_context.hpp; never through the public API). A stream without hooks runs exactly
// as in production. No global state: each stream holds its hooks.
#pragma once

#include <atomic>
#include <functional>
#include <string>

#include "util/fault_injection.hpp"

namespace nwpio::detail {

struct TestHooks {
  FaultInjector faults;  // one rank fails in a chosen phase (collective agreement tests)
  // Group ranks into "nodes" of k consecutive ranks for the writers' slabs (0: ask MPI), so
  // one machine runs the multi-node mix of shared memory and messages.
  int ranks_per_node = 0;
  // While true, the file sink's background thread holds each file's commit (its fsync, ledger mark
  // and rename) before running it, so a test can act while a complete file waits to be committed.
  // Abandoning the stream ends the hold; a test clears it before anything waits for the files.
  std::atomic<bool> hold_commits{false};
  // Run by rank 0 after it made the private folder ready for a new file and before the other
  // ranks join it, so a test can act on the folder then (another stream's close removing it).
  std::function<void()> folder_ready;
  // Run by rank 0 after it made the private folder ready for a new file and before the library
  // creates it, so a test can change the file system in between (turn it read-only: the
  // library's create then fails, and its error must still carry the system's reason).
  std::function<void()> before_create;
  // Run (on the watchdog's thread) instead of ending the process when a file's create or close
  // passes options.file_timeout_seconds, with the message it would have printed.
  std::function<void(const std::string&)> file_timeout;
};

}  // namespace nwpio::detail
