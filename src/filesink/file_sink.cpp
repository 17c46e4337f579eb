// The file sink's frames: checks of the background work, the rounds of a frame, the close
// (file_sink.hpp).
#include <cstdio>

#include "core/disk_guard.hpp"
#include "filesink/file_sink_impl.hpp"
#include "util/temp_files.hpp"
#include "util/agree.hpp"

namespace nwpio::detail {

std::unique_ptr<FrameSink> make_file_sink(FileSinkSetup setup) {
  const bool own = setup.commits == nullptr;
  if (own) {
    setup.commits = std::make_shared<CommitService>(setup.comm);
    if (setup.hooks) setup.commits->use_test_hooks(setup.hooks);
  }
  return std::make_unique<FileSink>(std::move(setup), own);
}

FileSink::FileSink(FileSinkSetup setup, bool own_commits)
    : setup_(std::move(setup)),
      options_(*setup_.options),
      layout_(*setup_.layout),
      comm_(setup_.comm),
      own_commits_(own_commits),
      plans_(setup_.comm, *setup_.layout, *setup_.options, setup_.traits, [this] {
        NodeSlabs::Options o;
        o.shared = options_.shared_memory_exchange;
        o.shared_memory_dir = setup_.shared_memory_dir;
        if (setup_.hooks) o.ranks_per_node = setup_.hooks->ranks_per_node;
        return setup_.commits->slabs(o);
      }) {
  MPI_Comm_rank(comm_, &rank_);
  MPI_Comm_size(comm_, &size_);
  run_and_agree(comm_, [&] { backend_ = make_backend(setup_.traits, comm_); });
  if (setup_.hooks) backend_->use_faults(&setup_.hooks->faults, rank_);
}

FileSink::~FileSink() = default;

void FileSink::fault(FaultPhase phase) const {
  if (setup_.hooks) setup_.hooks->faults.check(phase, rank_);
}

// A background write or commit that failed on any rank is thrown here on every rank, once; the
// files every rank has finished leave the service (their statistics filled in).
void FileSink::check_background() {
  if (failed_) return;
  // This rank's last slab write has run (the next frame waits for it anyway): its outcome is
  // known to every rank now.
  if (plans_.slabs()) plans_.slabs()->own_slab_in_use().wait();
  try {
    run_and_agree(comm_, [&] { setup_.commits->throw_failure(); });
    setup_.commits->settle(false);
  } catch (const Error&) {
    failed_ = true;  // the failed file keeps its temporary name; the stream stops
    throw;
  }
}

void FileSink::begin_frame(const FrameBegin& frame, FrameStats& stats) {
  if (frame.opens_file) {
    const double t0 = MPI_Wtime();
    open_file(frame.file);
    stats.define_seconds = MPI_Wtime() - t0;
  }
  plans_.begin_frame(frame.record);
}

// Room for this frame: a file-size limit or a full disk is an error with its reason now, before
// any byte of the frame is written, where the write itself would not say so (see disk_guard.hpp).
void FileSink::reserve(int record) {
  if (!file_.extent.known || !setup_.traits.writes_file) return;
  const std::int64_t end = file_.extent.end_after(record + 1);
  const std::int64_t begin = record == 0 ? 0 : file_.extent.end_after(record);
  try {
    // Past the file-size limit a write kills the process (SIGXFSZ): always checked first.
    check_file_size_limit(file_.commit.temp, end);
    if (backend_->reports_full_disk()) return;
    if (setup_.traits.parallel) {
      reserve_slice(file_.commit.temp, begin, end, rank_, size_);
    } else if (rank_ == 0) {
      reserve_space(file_.commit.temp, begin, end);
    }
  } catch (const Error& e) {
    throw Error(e.kind(), file_.commit.readable(e.what()));  // the paths as users know them
  }
}

// The rounds of the frame's plan, each ending in ONE backend write. A local failure is
// remembered and this rank still joins every remaining collective with nothing to write; the
// agreement afterwards marks the stream failed. The last round's slab goes behind when the file
// is written behind.
void FileSink::run_rounds(const FrameEnd& frame, FrameStats& stats) {
  FramePlan& plan = plans_.plan(frame.record);
  const std::span<const FieldSource> sources = plans_.sources(frame.record, frame.fields, frame.date);
  PhaseTimes times;
  double wait = 0;
  std::optional<Error> local;
  for (int t = 0; t < plan.rounds(); ++t) {
    round_.clear();
    try {
      plan.run_round(t, sources, frame.record, round_, times);
      fault(FaultPhase::EndFrame);  // tests: fails here, joins the write empty
    } catch (const Error& e) {
      if (!local) local = e;
    } catch (const std::exception& e) {  // e.g. std::bad_alloc: this rank still joins the write
      if (!local) local = Error(ErrorKind::Internal, std::string("end_frame: ") + e.what());
    }
    if (local) round_.clear();
    const double tw = MPI_Wtime();
    try {
      if (t + 1 == plan.rounds() && file_.behind) {
        std::unique_ptr<DeferredWrite> deferred = backend_->write_deferred(round_.requests(), round_.slab);
        if (deferred) {
          stats.written_behind = true;
          std::optional<Error> injected;  // tests: this background write fails on this rank
          try {
            fault(FaultPhase::WriteBehind);
          } catch (const Error& e) {
            injected = e;
          }
          setup_.commits->write(file_.in_flight, std::move(deferred),
                                plans_.slabs() ? &plans_.slabs()->own_slab_in_use() : nullptr, std::move(injected));
        }
      } else {
        backend_->write(round_.requests(), round_.slab);
      }
    } catch (const Error& e) {
      if (!local) local = Error(e.kind(), file_.commit.readable(e.what()), e.agreed());
    }
    wait += MPI_Wtime() - tw;
  }
  stats.reorder_seconds = times.reorder;
  stats.exchange_seconds = times.exchange;
  stats.wait_seconds = wait;
  stats.rounds = plan.rounds();
  stats.peak_buffer_bytes = plan.buffer_bytes();
  try {
    agree(comm_, local);
  } catch (const Error&) {
    failed_ = true;  // the file holds part of a frame: it never gets its final name
    throw;
  }
}

void FileSink::end_frame(const FrameEnd& frame, FrameStats& stats) {
  run_rounds(frame, stats);
  ++file_.records;
  // The frame's statistics are recorded after this returns, at this index.
  if (frame.completes_file) complete_file(setup_.stats->frames.size(), stats);
}

void FileSink::wait_for_files() {
  if (failed_) return;
  setup_.commits->wait_idle();
  try {
    run_and_agree(comm_, [&] { setup_.commits->throw_failure(); });
  } catch (const Error&) {
    failed_ = true;
    setup_.commits->settle(true);
    throw;
  }
  setup_.commits->settle(true);
}

void FileSink::close(Statistics& stats, bool commit) {
  if (file_.open && (failed_ || !commit)) {
    close_broken_file();
  } else if (file_.open) {
    // The frames written so far are the file (a file with none is removed: no output).
    FrameStats none;
    complete_file(stats.frames.empty() ? 0 : stats.frames.size() - 1, stats.frames.empty() ? none : stats.frames.back());
  }
  if (!own_commits_) return;  // the service's owner waits for the files in flight
  // Every file of the stream is committed, or failed, now; a failure not thrown yet is thrown
  // here, on every rank (the file keeps its temporary name).
  if (failed_) {
    setup_.commits->wait_idle();
    setup_.commits->settle(true);
  } else {
    wait_for_files();
  }
  if (rank_ == 0) remove_private_dir_if_empty(options_.output_dir);
}

void FileSink::abandon() noexcept {
  plans_.abandon();
  if (own_commits_) setup_.commits->abandon();
  if (!file_.open) return;
  backend_->abandon();
  file_.open = false;
  if (rank_ == 0) {
    std::fprintf(stderr, "nwpio: stream abandoned after an error; the partial file stays at %s\n",
                 file_.commit.readable(file_.commit.temp).c_str());
  }
}

std::string FileSink::timing_note(const FrameStats& stats) const {
  return stats.written_behind ? "written behind" : std::string();
}

}  // namespace nwpio::detail
