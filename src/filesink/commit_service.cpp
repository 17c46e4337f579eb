// The background thread of a stream's files and the agreement on their outcome
// (commit_service.hpp).
#include "filesink/commit_service.hpp"

#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdio>

#include "filesink/completion_ledger.hpp"
#include "util/agree.hpp"
#include "util/file_sync.hpp"
#include "util/mpi_call.hpp"

namespace nwpio::detail {

namespace {

// A failure in the background names the file as users know it, then what failed.
Error about(const InFlightFile& f, const Error& e) {
  return Error(e.kind(), f.commit.final_path + " (written behind the model): " + f.commit.readable(e.what()));
}

bool exists(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0;
}

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

}  // namespace

// MPI_Finalize frees the shared windows the writers' slabs live in: a service still writing
// from one at that moment (a stream never closed, a front end that never drained) must have
// stopped reading it first. MPI calls the delete callback of an attribute on MPI_COMM_SELF at the
// start of MPI_Finalize; it waits for every live service's queue (local, no MPI call). The set of
// live services is process-wide state, guarded by its own lock.
namespace {

std::mutex& live_mutex() {
  static std::mutex m;
  return m;
}
std::vector<CommitService*>& live() {
  static std::vector<CommitService*> services;
  return services;
}

int wait_at_finalize(MPI_Comm, int, void*, void*) {
  std::lock_guard<std::mutex> lock(live_mutex());
  for (CommitService* s : live()) s->wait_idle();
  return MPI_SUCCESS;
}

void register_finalize_wait() {
  static const bool registered = [] {
    int keyval = MPI_KEYVAL_INVALID;
    if (MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, wait_at_finalize, &keyval, nullptr) != MPI_SUCCESS) return false;
    return MPI_Comm_set_attr(MPI_COMM_SELF, keyval, nullptr) == MPI_SUCCESS;
  }();
  (void)registered;
}

}  // namespace

CommitService::CommitService(MPI_Comm comm) {
  mpi_check(MPI_Comm_dup(comm, &comm_), "MPI_Comm_dup(commit service)");
  mpi_check(MPI_Comm_rank(comm_, &rank_), "MPI_Comm_rank");
  register_finalize_wait();
  std::lock_guard<std::mutex> lock(live_mutex());
  live().push_back(this);
}

CommitService::~CommitService() {
  {
    std::lock_guard<std::mutex> lock(live_mutex());
    std::erase(live(), this);
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  work_.notify_all();
  if (thread_.joinable()) thread_.join();  // the queue runs empty first: no slab is read after this
  pool_.clear();  // the windows are freed (collective over each node) unless abandoned
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized && comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
}

void CommitService::track(const std::shared_ptr<InFlightFile>& file) { files_.push_back(file); }

void CommitService::write(const std::shared_ptr<InFlightFile>& file, std::unique_ptr<DeferredWrite> write,
                          BufferInUse* slab, std::optional<Error> injected) {
  if (slab) slab->acquire();
  enqueue(Job{file, std::move(write), slab, false, std::move(injected)});
}

void CommitService::finish(const std::shared_ptr<InFlightFile>& file, bool give_up) {
  file->completed = std::chrono::steady_clock::now();
  enqueue(Job{file, nullptr, nullptr, give_up, std::nullopt});
}

void CommitService::enqueue(Job job) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (stop_) {  // abandoned: nothing more runs (the slab is not read)
      if (job.slab) job.slab->release();
      return;
    }
    jobs_.push_back(std::move(job));
    if (!thread_.joinable()) thread_ = std::thread([this] { run(); });
  }
  work_.notify_one();
}

void CommitService::run() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    work_.wait(lock, [&] { return stop_ || !jobs_.empty(); });
    if (jobs_.empty()) return;  // stopped, nothing left
    if (held_for_test(jobs_.front())) {  // the job stays queued, as a slow commit's would
      lock.unlock();
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
      lock.lock();
      continue;
    }
    Job job = std::move(jobs_.front());
    jobs_.pop_front();
    busy_ = true;
    lock.unlock();
    if (job.write) {
      run_write(job);
    } else {
      run_finish(*job.file, job.give_up);
    }
    lock.lock();
    busy_ = false;
    if (jobs_.empty()) idle_.notify_all();
  }
}

void CommitService::run_write(Job& job) {
  bool failed_before = false;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    failed_before = job.file->error.has_value();
  }
  std::optional<Error> error = job.injected;
  if (!failed_before && !error) {
    try {
      job.write->run();
    } catch (const Error& e) {
      error = e;
    } catch (const std::exception& e) {
      error = Error(ErrorKind::Internal, std::string("background write: ") + e.what());
    }
  }
  job.write.reset();  // closes its descriptor
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (error && !job.file->error) job.file->error = about(*job.file, *error);
  }
  if (job.slab) job.slab->release();  // after the outcome: whoever waited for the slab sees it
}

bool CommitService::held_for_test(const Job& job) const {
  return !job.write && hooks_ && hooks_->hold_commits.load() && !stop_;
}

void CommitService::run_finish(InFlightFile& f, bool give_up) {
  bool failed_before = give_up;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    failed_before = failed_before || f.error.has_value();
  }
  std::optional<Error> error;
  bool committed = false;
  if (!failed_before && f.slot >= 0) {
    try {
      // This rank's bytes on stable storage (on Lustre and GPFS only the client that cached
      // them can flush them), then its mark; the mark that completes the ledger commits.
      if (f.sync) sync_path(f.commit.temp, O_RDONLY | O_NOFOLLOW);
      if (mark_ledger(f.ledger, f.slot, f.slots)) {
        try {
          commit_file(f.commit);
          committed = true;
        } catch (const Error&) {
          // Two writers can see the ledger complete at once: the first rename wins, and the
          // temporary name is gone for the second. Anything else is a real failure.
          if (exists(f.commit.temp) || !exists(f.commit.final_path)) throw;
        }
        remove_ledger(f.ledger);
      }
    } catch (const Error& e) {
      error = e;
    } catch (const std::exception& e) {
      error = Error(ErrorKind::Internal, std::string("background commit: ") + e.what());
    }
  }
  std::lock_guard<std::mutex> lock(mutex_);
  if (error && !f.error) f.error = about(f, *error);
  f.given_up = f.given_up || give_up;
  f.committed_here = committed;
  f.done_after = seconds_since(f.completed);
  f.finished = true;
}

void CommitService::wait_idle() {
  std::unique_lock<std::mutex> lock(mutex_);
  idle_.wait(lock, [&] { return jobs_.empty() && !busy_; });
}

void CommitService::throw_failure() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::optional<Error> first;
  for (const auto& f : files_) {
    if (!f->error) continue;
    if (!first) first = f->error;
    f->raised = true;
  }
  if (first) throw *first;
}

void CommitService::settle(bool wait) {
  if (wait) wait_idle();
  // The files every rank has finished, oldest first.
  int finished = 0;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const auto& f : files_) {
      if (!f->finished) break;
      ++finished;
    }
  }
  mpi_check(MPI_Allreduce(MPI_IN_PLACE, &finished, 1, MPI_INT, MPI_MIN, comm_), "MPI_Allreduce(files finished)");
  if (finished == 0) return;
  const auto n = static_cast<std::size_t>(finished);
  // Per file: failed anywhere (max of the flag), committed by a writer, when it was done, and
  // whether a rank has a failure of it that throw_failure has not raised yet.
  constexpr std::size_t kFacts = 4;
  std::vector<double> facts(kFacts * n, 0.0);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (std::size_t i = 0; i < n; ++i) {
      const InFlightFile& f = *files_[i];
      facts[kFacts * i] = f.error || f.given_up ? 1.0 : 0.0;
      facts[kFacts * i + 1] = f.committed_here ? 1.0 : 0.0;
      facts[kFacts * i + 2] = f.done_after;
      facts[kFacts * i + 3] = f.error && !f.raised ? 1.0 : 0.0;
    }
  }
  mpi_check(MPI_Allreduce(MPI_IN_PLACE, facts.data(), static_cast<int>(facts.size()), MPI_DOUBLE, MPI_MAX, comm_),
            "MPI_Allreduce(files settled)");
  // A failure that came after the caller's throw_failure (the background finished in between):
  // that file and the ones after it stay, for the next throw_failure to raise.
  std::size_t settled = n;
  for (std::size_t i = 0; i < n && settled == n; ++i) {
    if (facts[kFacts * i + 3] > 0) settled = i;
  }
  // A file every writer finished without error but none committed (its ledger was read stale)
  // is committed by rank 0 now; a failed one keeps its temporary name.
  run_and_agree(comm_, [&] {
    if (rank_ != 0) return;
    for (std::size_t i = 0; i < settled; ++i) {
      const InFlightFile& f = *files_[i];
      const bool failed = facts[kFacts * i] > 0, committed = facts[kFacts * i + 1] > 0;
      if (!failed && !committed && exists(f.commit.temp)) {
        const auto t0 = std::chrono::steady_clock::now();
        commit_file(f.commit);
        facts[kFacts * i + 2] += seconds_since(t0);
      }
      remove_ledger(f.ledger);
    }
  });
  for (std::size_t i = 0; i < settled; ++i) {
    const InFlightFile& f = *files_[i];
    if (f.stats && f.stats_index < f.stats->frames.size() && facts[kFacts * i] == 0) {
      FrameStats& fs = f.stats->frames[f.stats_index];
      fs.committed_behind = facts[kFacts * i + 1] > 0;  // else rank 0 committed it here
      fs.committed_after_seconds = facts[kFacts * i + 2];
    }
  }
  files_.erase(files_.begin(), files_.begin() + static_cast<std::ptrdiff_t>(settled));
}

std::shared_ptr<NodeSlabs> CommitService::slabs(const NodeSlabs::Options& options) {
  for (PooledSlabs& p : pool_) {
    const bool same = p.options.shared == options.shared && p.options.ranks_per_node == options.ranks_per_node;
    if (same && p.slabs.use_count() == 1) return p.slabs;  // idle: no stream holds it
  }
  pool_.push_back({options, std::make_shared<NodeSlabs>(comm_, options)});
  return pool_.back().slabs;
}

void CommitService::abandon() noexcept {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
    // A file whose finish is queued is complete: the model saw every frame of it succeed, so its
    // bytes and its commit still run (the slabs stay mapped: abandoned windows are never freed).
    // What comes after the last such finish belongs to the file the error interrupted: dropped.
    auto drop = jobs_.begin();
    for (auto j = jobs_.begin(); j != jobs_.end(); ++j) {
      if (!j->write && !j->give_up) drop = std::next(j);
    }
    for (auto j = drop; j != jobs_.end(); ++j) {
      if (j->slab) j->slab->release();
    }
    jobs_.erase(drop, jobs_.end());
  }
  work_.notify_all();
  if (thread_.joinable()) thread_.join();
  for (PooledSlabs& p : pool_) p.slabs->abandon();
}

}  // namespace nwpio::detail
