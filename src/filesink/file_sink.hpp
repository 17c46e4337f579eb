// The file sink: the stream's own ranks write its files (core/frame_sink.hpp). Per file: a
// temporary file in the user's private folder (temp_files.hpp), the hints of that file, the
// backend's create and the plans' placement; per frame: the plan's rounds, each ending in ONE
// backend write; per complete file: the commit, under its final name only when every byte is in.
//
// Write-behind (OutputOptions::write_behind, io_form 11 with writers' slabs written
// independently): the last round's slab of every frame is written by the stream's commit
// service in the background (commit_service.hpp), and a complete file is committed there too:
// end_frame returns once the frame is packed, the small collective parts are done (PnetCDF's
// record count and header, the close) and the slab is handed over. Otherwise (write_behind off,
// or a backend that writes itself: io_form 2, 13; collective buffering asked for) the frame is in
// the file, and a complete file committed, when end_frame returns.
#pragma once

#include <mpi.h>

#include <memory>

#include "backend/backend_traits.hpp"
#include "hints/hint_session.hpp"
#include "core/frame_sink.hpp"
#include "core/test_hooks.hpp"
#include "filesink/commit_service.hpp"
#include "nwpio/options.hpp"

namespace nwpio::detail {

struct FileSinkSetup {
  MPI_Comm comm = MPI_COMM_NULL;       // the stream's communicator
  const OutputOptions* options = nullptr;  // the stream's (outlives the sink)
  const StreamLayout* layout = nullptr;    // the stream's (outlives the sink)
  BackendTraits traits;
  HintPlan hints;
  std::string shared_memory_dir;       // where the MPI backs shared windows (the slabs' room check)
  std::shared_ptr<TestHooks> hooks;
  std::shared_ptr<Statistics> stats;   // the stream's statistics (late commit times land there)
  // Shared with other streams (their owner settles it); null: the sink makes its own and its
  // close waits for everything.
  std::shared_ptr<CommitService> commits;
};

// Collective over setup.comm: the backend and the frame plans.
std::unique_ptr<FrameSink> make_file_sink(FileSinkSetup setup);

}  // namespace nwpio::detail
