// One frame: begin_frame (date checks, file open), put (local bookkeeping, no copy), end_frame
// (agreement on errors, then the rounds of the frame plan, one backend write per round).
#include <algorithm>
#include <cstdio>

#include "core/fault_injection.hpp"
#include "core/writer_impl.hpp"
#include "nwpio/wrf_date.hpp"
#include "stats/timing_line.hpp"
#include "util/agree.hpp"
#include "util/mpi_call.hpp"

namespace nwpio {

namespace {

using detail::agree;
using detail::run_and_agree;

// Seconds per phase, reduced with MAX over ranks in one allreduce.
enum Phase { kDefine, kCheck, kReorder, kExchange, kWait, kClose, kTotal, kPeak, kPhases };

}  // namespace

void Writer::Impl::begin_frame(std::string_view date_in) {
  const double t0 = MPI_Wtime();
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
  if (!file_open) {
    const double t1 = MPI_Wtime();
    open_file(date);
    frame.define_seconds = MPI_Wtime() - t1;
  }
  dirty = true;
  frame.open = true;
  frame.date = date;
  frame.opens_file = records == 0;
  std::fill(frame.data.begin(), frame.data.end(), nullptr);
  frame.seconds = seconds;
  frame.begin_seconds = MPI_Wtime() - t0;
}

void Writer::Impl::put(std::string_view name_in, const void* data, DataType type) {
  const std::string name(name_in);
  auto fail = [&](ErrorKind kind, const std::string& what) {
    Error e(kind, what);
    pending.push_back(e);
    throw e;
  };
  try {
    detail::check_fault(detail::FaultPhase::Put, rank);  // tests: a local failure in put()
  } catch (const Error& e) {
    fail(e.kind(), e.what());
  }
  if (removed.count(name)) return;
  if (!frame.open) fail(ErrorKind::State, "put(" + name + "): no frame is open; call begin_frame() first");
  const auto it = index_of.find(name);
  if (it == index_of.end()) fail(ErrorKind::Schema, "put(" + name + "): no such variable in the stream");
  const VarSpec& spec = schema.variables()[static_cast<std::size_t>(it->second)];
  if (spec.type != type) {
    fail(ErrorKind::InvalidArgument, "put(" + name + "): data is " + std::string(to_string(type)) +
                                         ", the variable is " + std::string(to_string(spec.type)));
  }
  if (data == nullptr) fail(ErrorKind::InvalidArgument, "put(" + name + "): data is a null pointer");
  const void*& slot = frame.data[static_cast<std::size_t>(it->second)];
  if (slot != nullptr) fail(ErrorKind::State, "put(" + name + "): already put in frame " + frame.date);
  slot = data;
}

void Writer::Impl::end_frame() {
  const double t0 = MPI_Wtime();
  // 1. Agree on everything that can be wrong before any I/O: then a failed frame writes nothing.
  try {
    run_and_agree(comm, [&] {
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
        if (frame.data[static_cast<std::size_t>(g.schema_index)] != nullptr) continue;
        if (!g.record && !frame.opens_file) continue;  // static: written with a file's first frame
        if (n_missing++ < 20) missing += (missing.empty() ? "" : ", ") + g.name;
      }
      if (n_missing > 20) missing += ", ... (" + std::to_string(n_missing) + " in all)";
      if (n_missing > 0) {
        throw Error(ErrorKind::State, "end_frame(" + frame.date + "): variables not put: " + missing);
      }
      // Room for this frame: a file-size limit or a full disk is an error with its reason now,
      // before any byte of the frame is written (MPI-IO may not report it; see disk_guard.hpp).
      if (extent.known && options.io_form != IoForm::Null) {
        const std::int64_t end = extent.end_after(records + 1);
        const std::int64_t begin = records == 0 ? 0 : extent.end_after(records);
        detail::check_file_size_limit(temp_path, end);
        if (backend->parallel()) {
          detail::reserve_slice(temp_path, begin, end, rank, size);
        } else if (rank == 0) {
          detail::reserve_space(temp_path, begin, end);
        }
      }
    });
  } catch (const Error&) {
    pending.clear();
    frame.open = false;
    throw;
  }

  const double check_seconds = MPI_Wtime() - t0;

  // 2. The rounds: round 0 also carries Times and the non-decomposed variables (rank 0).
  const int record = records;
  const std::size_t kind = frame.opens_file ? 1 : 0;
  detail::FramePlan& plan = *plans[kind];
  const std::vector<int>& fields = plan_fields[kind];
  plan_data.resize(fields.size());
  for (std::size_t f = 0; f < fields.size(); ++f) {
    plan_data[f] = fields[f] == kTimesField ? frame.date.data() : frame.data[static_cast<std::size_t>(fields[f])];
  }
  detail::PhaseTimes times;
  double wait = 0;
  std::optional<Error> local;
  for (int t = 0; t < plan.rounds(); ++t) {
    requests.clear();
    try {
      // Rank 0 adds Times and the variables without i and j unless the plan carries them. A
      // plan writing file bytes carries Times too, but PnetCDF counts records only through its
      // own writes: Times also goes through it, from the rank that writes Times' bytes in that
      // round (the same bytes, one process, one after the other).
      const auto [times_round, times_rank] = plan.times_writer();
      if (t == times_round && rank == times_rank && (!plan.carries_all_variables() || plan.writes_file_bytes())) {
        detail::WriteRequest& r = requests.add(0, frame.date.data());
        r.start = {record, 0};
        r.count = {1, static_cast<std::int64_t>(frame.date.size())};
      }
      if (t == 0 && rank == 0 && !plan.carries_all_variables()) {
        for (const detail::FieldGeometry& g : layout.fields) {
          if (g.decomposed || (!g.record && !frame.opens_file)) continue;
          const auto* base = static_cast<const std::byte*>(frame.data[static_cast<std::size_t>(g.schema_index)]);
          Box all;
          all.hi = {1, 1, g.nk};
          detail::add_box_request(requests, g, record, all, base + g.mem_origin * static_cast<std::int64_t>(g.elem));
        }
      }
      plan.run_round(t, plan_data, record, requests, times);
      detail::check_fault(detail::FaultPhase::EndFrame, rank);  // tests: fails here, joins the write empty
    } catch (const Error& e) {
      if (!local) local = e;
      requests.clear();
    } catch (const std::exception& e) {  // e.g. std::bad_alloc: this rank still joins the write
      if (!local) local = Error(ErrorKind::Internal, std::string("end_frame: ") + e.what());
      requests.clear();
    }
    const double tw = MPI_Wtime();
    try {
      if (local) requests.clear();
      backend->write(requests.view(), requests.file_bytes);
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
  frame.open = false;
  ++records;
  // Only a written frame orders the dates: a frame that failed its checks may be retried.
  have_previous = true;
  previous_seconds = frame.seconds;
  previous_date = frame.date;

  FrameStats fs;
  fs.file = file_name;
  fs.date = frame.date;
  fs.record = record;
  fs.bytes = layout.record_bytes + (frame.opens_file ? layout.static_bytes : 0);
  fs.rounds = plan.rounds();
  double close_seconds = 0;
  if (records >= options.frames_per_file) close_seconds = close_file();  // complete: commit it now
  double phase[kPhases] = {};
  phase[kDefine] = frame.define_seconds;
  phase[kCheck] = check_seconds;
  phase[kReorder] = times.reorder;
  phase[kExchange] = times.exchange;
  phase[kWait] = wait;
  phase[kClose] = close_seconds;
  phase[kTotal] = frame.begin_seconds + (MPI_Wtime() - t0);
  phase[kPeak] = static_cast<double>(plan.buffer_bytes());
  detail::mpi_check(MPI_Allreduce(MPI_IN_PLACE, phase, kPhases, MPI_DOUBLE, MPI_MAX, comm), "MPI_Allreduce(stats)");
  fs.define_seconds = phase[kDefine];
  fs.check_seconds = phase[kCheck];
  fs.reorder_seconds = phase[kReorder];
  fs.exchange_seconds = phase[kExchange];
  fs.wait_seconds = phase[kWait];
  fs.close_seconds = phase[kClose];
  fs.total_seconds = phase[kTotal];
  fs.peak_buffer_bytes = static_cast<std::int64_t>(phase[kPeak]);
  if (rank == 0 && options.print_timing) {
    std::printf("%s\n", detail::wrf_timing_line(options, fs.date, fs.total_seconds, fs.mb_per_s()).c_str());
    std::fflush(stdout);
  }
  stats.frames.push_back(std::move(fs));
}

}  // namespace nwpio
