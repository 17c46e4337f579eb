// The sizes of one domain's history files, from nwpio's own code: the stream layout the Writer
// builds (src/core/stream_layout), and for classic files (io_form 11, and io_form 2 with
// use_netcdf_classic) the header laid out once by the stream's own backend in a scratch file
// with the stream's hints, so that the header's size and alignment are the file's own.
#pragma once

#include <cstdint>
#include <string>

#include "backend/backend.hpp"
#include "backend/backend_registry.hpp"
#include "backend/backend_traits.hpp"
#include "core/stream_layout.hpp"
#include "plan_inputs.hpp"

namespace nwpio::check {

struct StreamSizes {
  detail::BackendTraits traits;
  detail::StreamLayout layout;
  std::int64_t frame_bytes = 0;         // what every frame adds to a file (Times and the records, padded)
  std::int64_t first_frame_bytes = 0;   // a file's first frame: also the variables without Time
  std::int64_t file_bytes = 0;          // a file of frames_per_outfile frames
  bool file_exact = false;              // from the header itself (classic formats)
  std::string file_note;                // how file_bytes was found, or why it is a bound
  std::int64_t expected_file_bytes = 0; // what the Writer hands the hints (stripe count by size)
  detail::SlabPlacement placement;      // where the rows lie, as the writers stage them
  std::int64_t files_per_run = 0;       // output times between start and end / frames per file
  std::int64_t frames_per_run = 0;
};

// The layout and what follows from it alone (frame, the expected file size the hints see).
StreamSizes stream_sizes(const DomainInputs& d);

// Lays the header out once in `scratch_dir` with the stream's backend and `info` (the hints of
// a file of sizes.expected_file_bytes), and sets the exact frame and file size from it.
void measure_file(StreamSizes& sizes, const DomainInputs& d, MPI_Info info, const std::string& scratch_dir);

}  // namespace nwpio::check
