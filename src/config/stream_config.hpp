// A stream's configuration, resolved once when the stream is opened (the Writer's or the
// StreamBuilder's construction; nwpio_open in C and Fortran), on every rank, before any file
// exists: option values, the output directory, the iofields file, the hints (profile, namelist,
// API and environment). So a configuration error is found at open, not at the first frame hours
// into a run, and leaves nothing on disk. Per file only what depends on the file's size is
// derived (HintSession::for_file).
#pragma once

#include <mpi.h>

#include <optional>
#include <string>

#include "hints/hint_session.hpp"
#include "layout/compression_settings.hpp"
#include "config/iofields.hpp"
#include "nwpio/options.hpp"

namespace nwpio::detail {

struct StreamConfig {
  OutputOptions options;
  std::optional<CompressionSettings> compression;  // chunked formats: the storage, parsed once
  IofieldsFile iofields;          // read and parsed (applied to the schema when the Writer is built)
  HintPlan hints;                 // rank 0: the merged levels and the detected MPI-IO
  std::string shared_memory_dir;  // where the MPI backs shared windows (the room check of the slabs)
};

// Collective and agreed: every rank returns the same configuration or throws the same Error
// (InvalidArgument for option values, Io for the output directory, Config for iofields and
// hints with file:line). `check_output_dir`: false for a stream that writes no file.
// `chunked_storage`: the stream's files are chunked and filtered (its compression settings are
// parsed now, so that a bad one fails here, naming where it was written).
StreamConfig resolve_stream_config(const OutputOptions& options, MPI_Comm comm, bool check_output_dir,
                                   bool chunked_storage = false);

}  // namespace nwpio::detail
