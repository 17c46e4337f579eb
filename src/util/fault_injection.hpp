// Test-only fault injection for the Writer (the collective agreement tests). A test arms a
// fault for one phase and one rank; when that rank of the Writer's communicator reaches the
// phase, the Writer throws Error(kind, "injected fault at <phase> on rank <r>") exactly where a
// real local failure of that phase would surface, and the fault disarms itself. The other ranks
// go on as in a real failure, so the test sees what a real one-rank failure does.
//
// Not a public header, never read from the environment: a test hands a FaultInjector to its
// stream through the stream's private context (src/core/test_hooks.hpp); the Writer checks it,
// and a backend checks it at its own local steps that can fail on one rank alone (the phases
// from CreateOpen on; the file sink hands the backend its stream's injector). A test arms the
// same fault on every rank and only the named rank fails. A stream without hooks checks nothing.
// Here in util/ (which depends on nothing of nwpio) so that the core and the backends share it.
#pragma once

#include <array>
#include <atomic>
#include <string_view>

#include "nwpio/error.hpp"

namespace nwpio::detail {

enum class FaultPhase {
  Open,      // begin_frame, opening a new file: the local checks before the create
  Define,    // begin_frame: the collective create/define returned, then this rank fails
  Put,       // put(): a local failure, raised by end_frame on every rank
  EndFrame,  // end_frame: after packing/exchange, before the collective write (the rank then
             // joins the write with zero requests)
  Close,     // closing a file (end_frame of a full file, or close()): the collective close
             // returned, then this rank fails -- the file must not take its final name
  WriteBehind,  // a frame's slab write behind the model fails on this rank (injected when the
                // write is handed over, raised where the background failure is found) -- that
                // frame is not whole in the file, which must not take its final name
  // Checked by the backends:
  CreateOpen,  // the library's create of a new file (ncmpi_create, nc_create_par: its
               // MPI_File_open) returned on every rank, then this rank fails, still holding the
               // file (as when a library's own step after its open fails on one rank)
  SlabOpen,    // placement(): this rank's own handle for its slabs (its descriptor, or the second
               // MPI-IO handle) fails to open: the rank drops what it got unclosed, as a rank
               // whose open failed has no handle
  SlabClose,   // closing a file: close(2) of this rank's slab descriptor fails (a network file
               // system reports a write error at close, e.g. EROFS); the descriptor is released
};
inline constexpr int kFaultPhaseCount = 9;

std::string_view to_string(FaultPhase phase) noexcept;

// One stream's armed faults: per phase the rank armed (-1: none) and the kind to throw.
// Atomics because a Writer may run on another thread than the test's main thread.
class FaultInjector {
 public:
  // Arms a fault: the next time rank `rank` reaches `phase`, the Writer throws there (once).
  // `pass`: the rank passes the phase that many times first (the I/O server tests fail a
  // later file while the servers run, out of the test's reach).
  void arm(FaultPhase phase, int rank, ErrorKind kind = ErrorKind::Io, int pass = 0) noexcept;
  // Disarms every fault.
  void clear() noexcept;
  // The Writer's hook: throws the armed fault if `rank` is the one armed for `phase`.
  void check(FaultPhase phase, int rank);

 private:
  struct Armed {
    std::atomic<int> rank{-1};
    std::atomic<int> kind{static_cast<int>(ErrorKind::Io)};
    std::atomic<int> pass{0};
  };
  std::array<Armed, kFaultPhaseCount> armed_;
};

}  // namespace nwpio::detail
