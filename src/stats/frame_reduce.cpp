// One allreduce of every measured field of a frame: a phase took as long as its slowest rank.
#include "stats/frame_reduce.hpp"

#include <array>

#include "util/mpi_call.hpp"

namespace nwpio::detail {

void reduce_max(FrameStats& s, MPI_Comm comm) {
  const auto as_double = [](bool b) { return b ? 1.0 : 0.0; };
  std::array<double, 15> v = {s.define_seconds,
                              s.check_seconds,
                              s.reorder_seconds,
                              s.exchange_seconds,
                              s.wait_seconds,
                              s.close_seconds,
                              s.total_seconds,
                              static_cast<double>(s.peak_buffer_bytes),
                              as_double(s.written_behind),
                              static_cast<double>(s.rounds),
                              s.backpressure_seconds,
                              s.handoff_seconds,
                              static_cast<double>(s.server_group),
                              as_double(s.committed_behind),
                              s.committed_after_seconds};
  mpi_check(MPI_Allreduce(MPI_IN_PLACE, v.data(), static_cast<int>(v.size()), MPI_DOUBLE, MPI_MAX, comm),
            "MPI_Allreduce(frame statistics)");
  s.define_seconds = v[0];
  s.check_seconds = v[1];
  s.reorder_seconds = v[2];
  s.exchange_seconds = v[3];
  s.wait_seconds = v[4];
  s.close_seconds = v[5];
  s.total_seconds = v[6];
  s.peak_buffer_bytes = static_cast<std::int64_t>(v[7]);
  s.written_behind = v[8] > 0;
  s.rounds = static_cast<int>(v[9]);
  s.backpressure_seconds = v[10];
  s.handoff_seconds = v[11];
  s.server_group = static_cast<int>(v[12]);
  s.committed_behind = v[13] > 0;
  s.committed_after_seconds = v[14];
}

}  // namespace nwpio::detail
