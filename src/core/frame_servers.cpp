// The Writer's frame path for a stream written by I/O servers (IoServers): the checks and the
// bookkeeping of begin_frame / end_frame stay as they are (frame.cpp); where the synchronous
// path opens, writes and commits files, this one names the file and hands the frame over
// (src/servers/frame_handoff.hpp). The statistics say what the model waited for.
#include <cstdio>
#include <filesystem>

#include "core/filename.hpp"
#include "core/writer_impl.hpp"
#include "servers/frame_handoff.hpp"
#include "stats/timing_line.hpp"
#include "util/mpi_call.hpp"

namespace nwpio {

namespace {

// Seconds per phase, reduced with MAX over ranks in one allreduce.
enum Phase { kCheck, kPack, kBackpressure, kHandoff, kTotal, kBuffers, kPhases };

}  // namespace

void Writer::Impl::name_file(const std::string& date) {
  file_name = detail::expand_file_name(options.outname, options.domain_id, date, traits.colon_free_names);
  final_path = (std::filesystem::path(options.output_dir) / file_name).string();
  temp_path = final_path + std::string(detail::kTemporarySuffix);
  records = 0;
  file_open = true;
}

void Writer::Impl::end_frame_on_servers(double t0, double check_seconds) {
  const int record = records;
  const bool opens = frame.opens_file;
  const std::size_t index = stats.frames.size();
  const detail::FrameHandoff::Sent sent = handoff->send(frame.date, opens, frame.data, index);
  frame.open = false;
  ++records;
  have_previous = true;
  previous_seconds = frame.seconds;
  previous_date = frame.date;
  const std::string file = file_name;
  if (records >= options.frames_per_file) file_open = false;  // the servers close it

  double phase[kPhases] = {};
  phase[kCheck] = check_seconds;
  phase[kPack] = sent.pack_seconds;
  phase[kBackpressure] = sent.backpressure_seconds;
  phase[kHandoff] = sent.handoff_seconds;
  phase[kTotal] = frame.begin_seconds + (MPI_Wtime() - t0);
  phase[kBuffers] = static_cast<double>(sent.buffer_bytes);
  detail::mpi_check(MPI_Allreduce(MPI_IN_PLACE, phase, kPhases, MPI_DOUBLE, MPI_MAX, comm), "MPI_Allreduce(stats)");
  FrameStats fs;
  fs.file = file;
  fs.date = frame.date;
  fs.record = record;
  fs.bytes = layout.record_bytes + (opens ? layout.static_bytes : 0);
  fs.rounds = 1;
  fs.check_seconds = phase[kCheck];
  fs.reorder_seconds = phase[kPack];
  fs.total_seconds = phase[kTotal];
  fs.peak_buffer_bytes = static_cast<std::int64_t>(phase[kBuffers]);
  fs.server_group = sent.group;
  fs.backpressure_seconds = phase[kBackpressure];
  fs.handoff_seconds = phase[kHandoff];
  if (rank == 0 && options.print_timing) {
    // WRF's line (src/stats/timing_line.*) with the time the model was blocked.
    std::string note = "model blocked; written by I/O server group " + std::to_string(fs.server_group);
    if (fs.backpressure_seconds > 0.0005) {
      char waited[64];
      std::snprintf(waited, sizeof waited, "; %.5f s of it waiting for the servers", fs.backpressure_seconds);
      note += waited;
    }
    std::printf("%s\n", detail::wrf_timing_line(options, fs.date, fs.total_seconds, note).c_str());
    std::fflush(stdout);
  }
  stats.frames.push_back(std::move(fs));
}

}  // namespace nwpio
