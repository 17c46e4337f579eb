// The stream's frame cycle (stream.hpp). Every collective step ends in run_and_agree, so all
// ranks throw the same Error; the sink's collective steps agree themselves.
#include "core/stream.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <optional>

#include "core/filename.hpp"
#include "nwpio/wrf_date.hpp"
#include "stats/frame_reduce.hpp"
#include "stats/timing_line.hpp"
#include "util/agree.hpp"
#include "util/mpi_call.hpp"
#include "util/temp_files.hpp"

namespace nwpio::detail {

namespace {

void check_domain(const OutputOptions& o, const Decomposition& d) {
  const std::array<std::pair<const char*, std::int64_t>, 3> given = {
      {{"e_we", o.e_we}, {"e_sn", o.e_sn}, {"e_vert", o.e_vert}}};
  for (int a = 0; a < 3; ++a) {
    const auto& [name, value] = given[static_cast<std::size_t>(a)];
    if (value != 0 && value != d.domain().extent(a)) {
      throw Error(ErrorKind::Decomposition, std::string("options.") + name + " = " + std::to_string(value) +
                                                " does not match the decomposition's staggered count " +
                                                std::to_string(d.domain().extent(a)));
    }
  }
}

}  // namespace

Stream::Stream(OutputOptions options, const Decomposition& decomposition, Schema schema, std::set<std::string> removed,
               const BackendTraits& traits, const CompressionSettings* compression, std::shared_ptr<TestHooks> hooks,
               std::shared_ptr<Statistics> stats)
    : options_(std::move(options)),
      decomposition_(decomposition),
      schema_(std::move(schema)),
      removed_(std::move(removed)),
      clock_(options_),
      colon_free_names_(traits.colon_free_names),
      hooks_(std::move(hooks)),
      stats_(std::move(stats)) {
  const MPI_Comm comm = decomposition_.comm();
  run_and_agree(comm, [&] {
    check_domain(options_, decomposition_);
    layout_ = build_stream_layout(schema_, Grid::of(decomposition_), options_, traits, compression);
  });
  // The statistics are written at the close: a path they cannot go to is refused now, before
  // any file is written.
  if (!options_.stats_json.empty()) {
    run_and_agree(comm, [&] {
      if (rank() != 0) return;
      try {
        check_file_writable(options_.stats_json);
      } catch (const Error& e) {
        throw Error(e.kind(), std::string("stats_json: ") + e.what());
      }
    });
  }
  for (const VarSpec& v : schema_.variables()) index_of_.emplace(v.name, static_cast<int>(index_of_.size()));
  frame_.data.assign(schema_.variables().size(), {});
  if (rank() == 0 && !layout_.format_note.empty()) std::fprintf(stderr, "%s\n", layout_.format_note.c_str());
  // A warning, not an error: history_interval = 0 is how WRF turns a domain's history off, and a
  // valid namelist must keep working. Said when the stream opens, so that a run that will write
  // nothing does not find out at its end.
  if (rank() == 0 && !clock_.enabled()) {
    std::fprintf(stderr,
                 "nwpio: warning: history stream of domain %d is off (history_interval = 0): this run writes no "
                 "history file (WRF's own I/O would write the first frame only); set history_interval to the "
                 "minutes between frames to write history\n",
                 options_.domain_id);
  }
}

Stream::~Stream() = default;

void Stream::fault(FaultPhase phase) const {
  if (hooks_) hooks_->faults.check(phase, rank());
}

void Stream::begin_frame(std::string_view date_in) {
  const double t0 = MPI_Wtime();
  const MPI_Comm comm = decomposition_.comm();
  sink_->check_background();
  const std::string date(date_in);
  std::int64_t seconds = 0;
  std::optional<Error> local;
  try {
    if (sink_->failed()) throw Error(ErrorKind::State, "begin_frame(" + date + "): the stream failed earlier; close() it");
    if (frame_.open) {
      throw Error(ErrorKind::State, "begin_frame(" + date + "): frame " + frame_.date + " is still open; call end_frame() first");
    }
    try {
      seconds = wrf::date_to_seconds(date);
    } catch (const Error& e) {
      throw Error(ErrorKind::InvalidArgument, "begin_frame: " + std::string(e.what()));
    }
    if (previous_.known && seconds <= previous_.seconds) {
      throw Error(ErrorKind::State, "begin_frame(" + date + "): the date is not after the previous frame's date " +
                                        previous_.date);
    }
  } catch (const Error& e) {
    local = e;
  }
  // Every rank must start the same frame: the dates' range, and whether any rank failed above
  // (then its own error is the one every rank throws, not a difference of dates).
  std::int64_t range[3] = {seconds, -seconds, local ? 1 : 0};
  mpi_check(MPI_Allreduce(MPI_IN_PLACE, range, 3, MPI_INT64_T, MPI_MAX, comm), "MPI_Allreduce(begin_frame)");
  if (range[2] == 0 && range[0] != -range[1]) {
    local = Error(ErrorKind::InvalidArgument, "begin_frame: the ranks passed different dates");
  }
  agree(comm, local);
  const bool opens_file = !file_open_;
  if (opens_file) {
    file_.name = expand_file_name(options_.outname, options_.domain_id, date, colon_free_names_);
    file_.path = (std::filesystem::path(options_.output_dir) / file_.name).string();
    records_ = 0;
  }
  frame_.stats = FrameStats{};
  sink_->begin_frame(FrameBegin{date, file_, records_, opens_file}, frame_.stats);
  file_open_ = true;
  dirty_ = true;
  frame_.open = true;
  frame_.date = date;
  frame_.record = records_;
  std::fill(frame_.data.begin(), frame_.data.end(), FieldSource{});
  frame_.seconds = seconds;
  frame_.begin_seconds = MPI_Wtime() - t0;
}

void Stream::put(std::string_view name_in, const ArrayView& array) {
  const std::string name(name_in);
  try {
    fault(FaultPhase::Put);  // tests: a local failure in put()
    if (removed_.count(name)) return;
    const int index = checked_index(name, array);
    const FieldGeometry& g = layout_.fields[static_cast<std::size_t>(index)];
    FieldSource src{array.data, g.memory};
    if (array.memory) src.map = memory_map(g, *array.memory, decomposition_.domain());
    frame_.data[static_cast<std::size_t>(index)] = sink_->accept(index, src, array.copy);
  } catch (const Error& e) {
    // Raised here on this rank, and by end_frame on every rank.
    pending_.push_back(e);
    throw;
  }
}

void Stream::report_error(const Error& error) {
  if (frame_.open) pending_.push_back(error);
}

void Stream::check_frame() {
  if (!pending_.empty()) {
    std::string what = pending_.front().what();
    for (std::size_t e = 1; e < pending_.size() && e < 4; ++e) what += "; " + std::string(pending_[e].what());
    if (pending_.size() > 4) what += "; and " + std::to_string(pending_.size() - 4) + " more";
    const ErrorKind kind = pending_.front().kind();
    pending_.clear();
    throw Error(kind, what);
  }
  if (!frame_.open) throw Error(ErrorKind::State, "end_frame(): no frame is open; call begin_frame() first");
  std::string missing;
  int n_missing = 0;
  for (const FieldGeometry& g : layout_.fields) {
    if (frame_.data[static_cast<std::size_t>(g.schema_index)].data != nullptr) continue;
    if (!g.record && frame_.record != 0) continue;  // fixed-size: written with a file's first frame
    if (n_missing++ < 20) missing += (missing.empty() ? "" : ", ") + g.name;
  }
  if (n_missing > 20) missing += ", ... (" + std::to_string(n_missing) + " in all)";
  if (n_missing > 0) throw Error(ErrorKind::State, "end_frame(" + frame_.date + "): variables not put: " + missing);
}

void Stream::end_frame() {
  const double t0 = MPI_Wtime();
  const MPI_Comm comm = decomposition_.comm();
  // 1. Agree on everything that can be wrong before any I/O: then a failed frame writes nothing.
  try {
    sink_->check_background();
    run_and_agree(comm, [&] {
      check_frame();
      sink_->reserve(frame_.record);
    });
  } catch (const Error&) {
    pending_.clear();
    frame_.open = false;
    throw;
  }
  const double check_seconds = MPI_Wtime() - t0;

  // 2. The sink writes; a full file is complete.
  const bool completes = records_ + 1 >= options_.frames_per_file;
  frame_.open = false;
  sink_->end_frame(FrameEnd{frame_.date, frame_.record, completes, frame_.data}, frame_.stats);
  ++records_;
  if (completes) file_open_ = false;
  // Only a written frame orders the dates: a frame that failed its checks may be retried.
  previous_ = {true, frame_.seconds, frame_.date};
  record_statistics(t0, check_seconds);
}

// The frame's statistics (max over ranks, one allreduce) and WRF's timing line on rank 0.
void Stream::record_statistics(double t0, double check_seconds) {
  FrameStats& fs = frame_.stats;
  fs.check_seconds = check_seconds;
  fs.total_seconds = frame_.begin_seconds + (MPI_Wtime() - t0);
  reduce_max(fs, decomposition_.comm());
  fs.file = file_.name;
  fs.date = frame_.date;
  fs.record = frame_.record;
  fs.bytes = layout_.record_bytes + (frame_.record == 0 ? layout_.static_bytes : 0);
  if (rank() == 0 && options_.print_timing) {
    const std::string note = sink_->timing_note(fs);
    std::printf("%s\n", note.empty() ? wrf_timing_line(options_, fs.date, fs.total_seconds, fs.mb_per_s()).c_str()
                                     : wrf_timing_line(options_, fs.date, fs.total_seconds, note).c_str());
    std::fflush(stdout);
  }
  stats_->frames.push_back(std::move(fs));
}

void Stream::wait_for_files() {
  if (sink_) sink_->wait_for_files();
}

void Stream::close(bool commit) {
  if (frame_.open) {
    // A frame that was begun but never ended wrote nothing; it is dropped.
    if (rank() == 0) std::fprintf(stderr, "nwpio: close(): frame %s was never ended; it is dropped\n", frame_.date.c_str());
    frame_.open = false;
    pending_.clear();
  }
  file_open_ = false;
  if (sink_) sink_->close(*stats_, commit);
  if (!options_.stats_json.empty()) {
    run_and_agree(decomposition_.comm(), [&] {
      if (rank() == 0) stats_->write_json(options_.stats_json);
    });
  }
  dirty_ = false;
}

void Stream::abandon() noexcept {
  file_open_ = false;
  if (sink_) sink_->abandon();
}

}  // namespace nwpio::detail
