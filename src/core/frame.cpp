// One frame: begin_frame (date checks, file open), put (local bookkeeping), end_frame in steps
// (check and reserve, agreed, before any I/O; the rounds of the frame plan, one backend write
// each; statistics).
#include <algorithm>
#include <cstdio>

#include "core/disk_guard.hpp"
#include "core/fault_injection.hpp"
#include "core/writer_impl.hpp"
#include "servers/frame_handoff.hpp"
#include "nwpio/wrf_date.hpp"
#include "stats/timing_line.hpp"
#include "util/agree.hpp"
#include "util/mpi_call.hpp"

namespace nwpio {

namespace {

using detail::agree;
using detail::run_and_agree;

// Seconds per phase, reduced with MAX over ranks in one allreduce.
enum Phase { kDefine, kCheck, kReorder, kExchange, kWait, kClose, kTotal, kPeak, kBehind, kPhases };

}  // namespace

void Writer::Impl::begin_frame(std::string_view date_in) {
  const double t0 = MPI_Wtime();
  if (handoff) handoff->check_servers();  // a failure the servers reported: here, on every rank
  const std::string date(date_in);
  std::int64_t seconds = 0;
  run_and_agree(comm, [&] {
    if (broken) throw Error(ErrorKind::State, "begin_frame(" + date + "): the stream failed earlier; close() it");
    if (frame.open) {
      throw Error(ErrorKind::State, "begin_frame(" + date + "): frame " + frame.date + " is still open; call end_frame() first");
    }
    try {
      seconds = wrf::date_to_seconds(date);
    } catch (const Error& e) {
      throw Error(ErrorKind::InvalidArgument, "begin_frame: " + std::string(e.what()));
    }
    if (have_previous && seconds <= previous_seconds) {
      throw Error(ErrorKind::State, "begin_frame(" + date + "): the date is not after the previous frame's date " +
                                        previous_date);
    }
  });
  // Every rank must start the same frame.
  run_and_agree(comm, [&] {
    std::int64_t range[2] = {seconds, -seconds};
    detail::mpi_check(MPI_Allreduce(MPI_IN_PLACE, range, 2, MPI_INT64_T, MPI_MAX, comm), "MPI_Allreduce(begin_frame)");
    if (range[0] != -range[1]) throw Error(ErrorKind::InvalidArgument, "begin_frame: the ranks passed different dates");
  });
  frame.define_seconds = 0;
  if (!file_open && handoff) {
    name_file(date);  // the servers create it
  } else if (!file_open) {
    const double t1 = MPI_Wtime();
    open_file(date);
    frame.define_seconds = MPI_Wtime() - t1;
  } else {
    // The previous frame's write-behind: in the file on every rank before any rank packs into
    // the slabs again (the model computed in between; by now the write has long finished).
    settle_write_behind();
  }
  dirty = true;
  frame.open = true;
  frame.date = date;
  frame.opens_file = records == 0;
  frame.written_behind = false;
  // A one-round plan takes every field as it is put (the slabs are free: settled above, and
  // begin_pack orders this node's ranks after their writers' last hand-over).
  detail::FramePlan* plan = handoff ? nullptr : plans[frame.opens_file ? 1 : 0].get();
  frame.packing = plan && plan->packs_on_put() ? plan : nullptr;
  if (frame.packing) frame.packing->begin_pack();
  std::fill(frame.data.begin(), frame.data.end(), detail::FieldSource{});
  frame.seconds = seconds;
  frame.begin_seconds = MPI_Wtime() - t0;
}

void Writer::Impl::put(std::string_view name_in, const ArrayView& array) {
  const std::string name(name_in);
  try {
    check_fault(detail::FaultPhase::Put);  // tests: a local failure in put()
    if (removed.count(name)) return;
    const int index = checked_index(name, array);
    const detail::FieldGeometry& g = layout.fields[static_cast<std::size_t>(index)];
    detail::FieldSource src{array.data, g.memory};
    if (array.memory) src.map = detail::memory_map(g, *array.memory, decomposition.domain());
    frame.data[static_cast<std::size_t>(index)] = array.copy ? pack_on_put(index, src) : src;
  } catch (const Error& e) {
    // Raised here on this rank, and by end_frame on every rank.
    pending.push_back(e);
    throw;
  }
}

void Writer::Impl::check_frame() {
  if (!pending.empty()) {
    std::string what = pending.front().what();
    for (std::size_t e = 1; e < pending.size() && e < 4; ++e) what += "; " + std::string(pending[e].what());
    if (pending.size() > 4) what += "; and " + std::to_string(pending.size() - 4) + " more";
    const ErrorKind kind = pending.front().kind();
    pending.clear();
    throw Error(kind, what);
  }
  if (!frame.open) throw Error(ErrorKind::State, "end_frame(): no frame is open; call begin_frame() first");
  std::string missing;
  int n_missing = 0;
  for (const detail::FieldGeometry& g : layout.fields) {
    if (frame.data[static_cast<std::size_t>(g.schema_index)].data != nullptr) continue;
    if (!g.record && !frame.opens_file) continue;  // static: written with a file's first frame
    if (n_missing++ < 20) missing += (missing.empty() ? "" : ", ") + g.name;
  }
  if (n_missing > 20) missing += ", ... (" + std::to_string(n_missing) + " in all)";
  if (n_missing > 0) throw Error(ErrorKind::State, "end_frame(" + frame.date + "): variables not put: " + missing);
}

// Room for this frame: a file-size limit or a full disk is an error with its reason now, before
// any byte of the frame is written (MPI-IO may not report it; see disk_guard.hpp).
void Writer::Impl::reserve_frame() {
  if (!extent.known || !traits.writes_file) return;
  const std::int64_t end = extent.end_after(records + 1);
  const std::int64_t begin = records == 0 ? 0 : extent.end_after(records);
  detail::check_file_size_limit(temp_path, end);
  if (traits.parallel) {
    detail::reserve_slice(temp_path, begin, end, rank, size);
  } else if (rank == 0) {
    detail::reserve_space(temp_path, begin, end);
  }
}

// The rounds of the frame's plan, each ending in ONE backend write. A local failure is
// remembered and this rank still joins every remaining collective with nothing to write; the
// agreement afterwards marks the stream failed.
double Writer::Impl::run_rounds(int record, detail::PhaseTimes& times) {
  const std::size_t kind = frame.opens_file ? 1 : 0;
  detail::FramePlan& plan = *plans[kind];
  const std::vector<int>& fields = plan_fields[kind];
  plan_sources.resize(fields.size());
  for (std::size_t f = 0; f < fields.size(); ++f) {
    plan_sources[f] = fields[f] == kTimesField ? detail::FieldSource{frame.date.data(), layout.times.memory}
                                               : frame.data[static_cast<std::size_t>(fields[f])];
  }
  double wait = 0;
  std::optional<Error> local;
  for (int t = 0; t < plan.rounds(); ++t) {
    round.clear();
    try {
      plan.run_round(t, plan_sources, record, round, times);
      check_fault(detail::FaultPhase::EndFrame);  // tests: fails here, joins the write empty
    } catch (const Error& e) {
      if (!local) local = e;
    } catch (const std::exception& e) {  // e.g. std::bad_alloc: this rank still joins the write
      if (!local) local = Error(ErrorKind::Internal, std::string("end_frame: ") + e.what());
    }
    if (local) round.clear();
    const double tw = MPI_Wtime();
    try {
      // The last round may leave its slab on the way to the file (write-behind); earlier
      // rounds reuse the slabs at once.
      if (t + 1 == plan.rounds() && options.write_behind) {
        frame.written_behind = backend->write_behind(round.requests(), round.slab);
      } else {
        backend->write(round.requests(), round.slab);
      }
    } catch (const Error& e) {
      if (!local) local = e;
    }
    wait += MPI_Wtime() - tw;
  }
  try {
    agree(comm, local);
  } catch (const Error&) {
    broken = true;  // the file holds part of a frame: it never gets its final name
    frame.open = false;
    throw;
  }
  return wait;
}

void Writer::Impl::settle_write_behind() {
  if (!backend || !file_open || records == 0) return;  // only a frame of the open file can be in flight
  try {
    run_and_agree(comm, [&] {
      backend->settle();
      check_fault(detail::FaultPhase::Settle);  // tests: the write-behind failed on this rank
    });
  } catch (const Error&) {
    broken = true;  // the previous frame is not whole in the file: it never gets its final name
    pending.clear();
    frame.open = false;
    throw;
  }
}

void Writer::Impl::end_frame() {
  const double t0 = MPI_Wtime();
  // 1. Agree on everything that can be wrong before any I/O: then a failed frame writes nothing.
  try {
    if (handoff) handoff->check_servers();
    run_and_agree(comm, [&] {
      check_frame();
      reserve_frame();
    });
  } catch (const Error&) {
    pending.clear();
    frame.open = false;
    throw;
  }
  const double check_seconds = MPI_Wtime() - t0;
  if (handoff) {
    end_frame_on_servers(t0, check_seconds);
    return;
  }

  // 2. The rounds.
  const int record = records;
  detail::PhaseTimes times;
  const double wait = run_rounds(record, times);
  frame.open = false;
  ++records;
  // Only a written frame orders the dates: a frame that failed its checks may be retried.
  have_previous = true;
  previous_seconds = frame.seconds;
  previous_date = frame.date;

  // 3. A full file is committed at once; then the statistics.
  double close_seconds = 0;
  if (records >= options.frames_per_file) close_seconds = close_file();
  record_statistics(record, t0, check_seconds, wait, close_seconds, times);
}

// The frame's statistics (max over ranks, one allreduce) and WRF's timing line on rank 0.
void Writer::Impl::record_statistics(int record, double t0, double check_seconds, double wait_seconds,
                                     double close_seconds, const detail::PhaseTimes& times) {
  const detail::FramePlan& plan = *plans[frame.opens_file ? 1 : 0];
  double phase[kPhases] = {};
  phase[kDefine] = frame.define_seconds;
  phase[kCheck] = check_seconds;
  phase[kReorder] = times.reorder;
  phase[kExchange] = times.exchange;
  phase[kWait] = wait_seconds;
  phase[kClose] = close_seconds;
  phase[kTotal] = frame.begin_seconds + (MPI_Wtime() - t0);
  phase[kPeak] = static_cast<double>(plan.buffer_bytes());
  phase[kBehind] = frame.written_behind && close_seconds == 0 ? 1 : 0;  // a close waited for it
  detail::mpi_check(MPI_Allreduce(MPI_IN_PLACE, phase, kPhases, MPI_DOUBLE, MPI_MAX, comm), "MPI_Allreduce(stats)");
  FrameStats fs;
  fs.file = file_name;
  fs.date = frame.date;
  fs.record = record;
  fs.bytes = layout.record_bytes + (frame.opens_file ? layout.static_bytes : 0);
  fs.rounds = plan.rounds();
  fs.define_seconds = phase[kDefine];
  fs.check_seconds = phase[kCheck];
  fs.reorder_seconds = phase[kReorder];
  fs.exchange_seconds = phase[kExchange];
  fs.wait_seconds = phase[kWait];
  fs.close_seconds = phase[kClose];
  fs.total_seconds = phase[kTotal];
  fs.peak_buffer_bytes = static_cast<std::int64_t>(phase[kPeak]);
  fs.written_behind = phase[kBehind] > 0;
  if (rank == 0 && options.print_timing) {
    std::printf("%s\n", fs.written_behind
                            ? detail::wrf_timing_line(options, fs.date, fs.total_seconds, "written behind").c_str()
                            : detail::wrf_timing_line(options, fs.date, fs.total_seconds, fs.mb_per_s()).c_str());
    std::fflush(stdout);
  }
  stats.frames.push_back(std::move(fs));
}

}  // namespace nwpio
