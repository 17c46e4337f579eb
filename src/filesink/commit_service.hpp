// CommitService: the work a stream's files need behind the model, on one background thread per
// service, and the agreement on how that work ended.
//
// The thread runs jobs in the order they were handed over:
//   write   one slab's bytes into the file (Backend::write_deferred); the slab is released after;
//   finish  this rank's part of a complete file: fsync of what it wrote (fsync_before_rename),
//           its mark in the file's completion ledger, and, when that mark completes the ledger,
//           the commit (size check, final name, folder sync: file_commit.hpp).
// The thread makes no MPI call: a model may run MPI at MPI_THREAD_SINGLE or _FUNNELED (WRF
// does), so the writers of a file meet through the ledger (completion_ledger.hpp), and a file gets
// its final name as soon as its last writer's bytes are in, while the model computes.
//
// What the thread cannot do is tell the other ranks that something failed. Every rank keeps the
// files it has in flight in the same order; the stream's collective calls ask the service:
//   throw_failure()  inside their agreement: a write or commit that failed on any rank is
//                    thrown on every rank (the file keeps its temporary name);
//   settle(wait)     the files every rank has finished leave the service: their statistics
//                    (seconds from the frame's end to the final name) are filled in, and a file no
//                    writer could commit (a stale ledger on NFS) is committed by rank 0 now. A
//                    file whose failure came after the last throw_failure stays (with the files
//                    after it) until the next throw_failure has raised it: a failure that
//                    arrives between the two calls is never dropped.
//
// Bounds: a slab is reused only after its write ran (NodeSlabs waits), so a stream has at most
// one frame's bytes in flight and no copy of them; with one file per frame that is at most two
// files uncommitted at a time (one being synced and committed, the next one's write queued
// behind it); the next frame that would pack into the slab waits.
//
// One service per stream (a Writer's own), or shared by the streams of a front end that closes
// its streams before their files are committed (WRF's package: ioclose returns at once, ioexit
// waits): then the service also keeps the writers' slabs for the next stream (slabs()).
#pragma once

#include <mpi.h>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "backend/deferred_write.hpp"
#include "core/buffer_in_use.hpp"
#include "core/node_slabs.hpp"
#include "core/test_hooks.hpp"
#include "filesink/file_commit.hpp"
#include "nwpio/error.hpp"
#include "nwpio/statistics.hpp"

namespace nwpio::detail {

// One file as this rank sees it while it is written and committed behind the model. Every rank
// of the stream has one per file (a rank without slab bytes too), in the same order.
struct InFlightFile {
  // Set when the file opens.
  CommitPlan commit;            // what the commit does
  std::string ledger;           // its completion ledger
  int slot = -1;                // this rank's slot in the ledger; -1: this rank writes no slab
  int slots = 0;                // the writers
  bool sync = false;            // fsync what this rank wrote before marking (fsync_before_rename)
  std::shared_ptr<Statistics> stats;  // where the frame that completes the file is recorded
  std::size_t stats_index = 0;        // ... at this index of stats->frames
  // Set when the file is complete (the finish job is handed over).
  std::chrono::steady_clock::time_point completed;
  // The outcome, written by the service's thread (read under the service's lock).
  bool finished = false;        // this rank's part is done, whatever the outcome
  bool committed_here = false;  // this rank gave the file its final name
  bool given_up = false;        // not to be committed (finish with give_up)
  double done_after = 0;        // seconds from `completed` until this rank's part was done
  std::optional<Error> error;   // the first failure of this rank's part
  bool raised = false;          // error was thrown by throw_failure (read and set under the lock)
};

class CommitService {
 public:
  // Collective over comm (duplicated: the service's agreements never meet other messages).
  explicit CommitService(MPI_Comm comm);
  // The thread finishes what it was given, then stops; then the pooled slabs are freed
  // (collective over each node, as NodeSlabs' destructor) unless abandoned.
  ~CommitService();
  CommitService(const CommitService&) = delete;
  CommitService& operator=(const CommitService&) = delete;

  MPI_Comm comm() const noexcept { return comm_; }

  // Local, every rank, in the same order: the file is in flight from now on.
  void track(const std::shared_ptr<InFlightFile>& file);
  // Local: `write` runs in the background; `slab` (may be null) is released after it ran (its
  // outcome is set before). `injected` (tests): the write fails with it instead of running.
  void write(const std::shared_ptr<InFlightFile>& file, std::unique_ptr<DeferredWrite> write, BufferInUse* slab,
             std::optional<Error> injected = std::nullopt);
  // Local: every byte of this rank for `file` was handed over; its finish runs in the background.
  // `give_up`: the file is not to be committed (its stream failed, or it holds no frame); it
  // leaves the service without an error of its own.
  void finish(const std::shared_ptr<InFlightFile>& file, bool give_up = false);

  // Local: throws the first failure of a file in flight (inside the caller's agreement); every
  // failure known now counts as raised (a stream fails once).
  void throw_failure() const;
  // Local: until this rank's queue ran empty (every write and finish handed over so far ran).
  void wait_idle();
  // Collective over comm(): see the class comment. `wait`: first this rank's queue runs empty.
  // Throws (agreed) when rank 0's commit of a file failed.
  void settle(bool wait);
  // Whether files are in flight (local; the same on every rank after settle(true)).
  bool empty() const noexcept { return files_.empty(); }

  // Collective over comm(): writers' slabs for a stream of this communicator, kept here for the
  // next stream (an idle set with the same options, or a new one).
  std::shared_ptr<NodeSlabs> slabs(const NodeSlabs::Options& options);

  // Tests: while hooks->hold_commits is set, each file's commit stays queued (until abandon or
  // the destructor). Set before the first job.
  void use_test_hooks(std::shared_ptr<const TestHooks> hooks) noexcept { hooks_ = std::move(hooks); }

  // Local, never throws: complete files already handed over (their finish queued) are still
  // written and committed; the rest is dropped (the partial file keeps its temporary name) and
  // the thread stops. For a stream given up during an error.
  void abandon() noexcept;

 private:
  struct Job {
    std::shared_ptr<InFlightFile> file;
    std::unique_ptr<DeferredWrite> write;  // null: the finish job
    BufferInUse* slab = nullptr;
    bool give_up = false;
    std::optional<Error> injected;
  };
  void enqueue(Job job);
  void run();
  void run_write(Job& job);
  void run_finish(InFlightFile& file, bool give_up);
  bool held_for_test(const Job& job) const;  // under the lock

  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0;
  mutable std::mutex mutex_;
  std::condition_variable work_, idle_;
  std::deque<Job> jobs_;
  bool busy_ = false;
  bool stop_ = false;
  std::shared_ptr<const TestHooks> hooks_;
  std::thread thread_;  // started at the first job
  std::deque<std::shared_ptr<InFlightFile>> files_;  // main thread only
  struct PooledSlabs {
    NodeSlabs::Options options;
    std::shared_ptr<NodeSlabs> slabs;
  };
  std::vector<PooledSlabs> pool_;
};

}  // namespace nwpio::detail
