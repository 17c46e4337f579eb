// L1: the Backend contract. A backend turns a resolved FileLayout and, per round, one rank's
// write requests and slab into a file. Arguments were checked at L3; backends trust them.
// Every collective method is called by every rank of the communicator, the same number of
// times, even by a rank with nothing to write (empty arguments), so that nobody hangs.
//
// Two ways data reaches a backend, both format-neutral:
//  - a Slab: a writer's stretch of the frame, whole rows of consecutive variables, staged in
//    the backend's byte order at the positions the backend's placement() gave (gaps between
//    variables zeroed). The rearranger produces these. The backend decides what a slab becomes
//    (file bytes at an offset, hyperslabs, chunks).
//  - WriteRequests: hyperslabs of one variable each (the direct plan).
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "backend/backend_traits.hpp"
#include "backend/deferred_write.hpp"
#include "layout/file_layout.hpp"
#include "nwpio/options.hpp"
#include "layout/layout_facts.hpp"
#include "util/fault_injection.hpp"

namespace nwpio::detail {

// One hyperslab of one variable, in file index space (record index included for record
// variables). `data` is contiguous in file order (C order over `count`), native byte order,
// element type of the variable. Valid until the write() call returns.
// Exception (parallel backends only): when mem_type is not MPI_DATATYPE_NULL, `data` is the
// origin of ONE instance of that MPI derived datatype, which walks the model's memory array in
// file order (PnetCDF's flexible API). The caller owns and frees mem_type.
struct WriteRequest {
  int var = 0;
  std::vector<std::int64_t> start;
  std::vector<std::int64_t> count;
  const void* data = nullptr;
  MPI_Datatype mem_type = MPI_DATATYPE_NULL;
};

// Where the rows of every variable lie in the coordinates writers stage their slabs in, as
// the backend wants them: by varid, the position of the variable's first byte in record 0, and
// the distance between records. A backend writing a classic file gives its file offsets (a
// slab is then the file's own bytes); the others give a compact order.
struct SlabPlacement {
  std::vector<std::int64_t> var_begin;
  std::int64_t record_stride = 0;
};

// Rows [row_begin, row_end) of one record of variable `var` (rows as in var_rows()), at
// `offset` bytes into the slab's data.
struct SlabPiece {
  int var = 0;
  std::int64_t row_begin = 0, row_end = 0;
  std::int64_t offset = 0;
};

// One writer's stretch of one record: `size` bytes at `data`, whose first byte sits at
// `position` (placement coordinates of record 0). Empty (size 0) for a rank with nothing.
struct Slab {
  int record = 0;
  std::int64_t position = 0;
  const std::byte* data = nullptr;
  std::int64_t size = 0;
  std::span<const SlabPiece> pieces;
};

// What the hint layer (hints/hint_session) settled for one file open, in the terms a backend
// needs: the MPI_Info to pass, and whether a writer's own slab may go out as an independent
// write (decided from the keys passed, on rank 0, the same on every rank). A bare MPI_Info
// (tests, tools) allows no independent write.
//
// `slabs_only_times_on_rank0` is the caller's promise about the data, not a hint: every write of
// the file carries a slab and no WriteRequest, and rank 0's slabs hold every row of the first
// record variable (Times). With independent writes, a backend may then keep the file's header
// (its create, definitions, record count and close) on rank 0 alone: the other ranks only write
// their slabs, and no collective open or close of the file runs on the model's path.
struct FileHints {
  FileHints(MPI_Info i = MPI_INFO_NULL, bool independent = false, bool slabs_only = false)  // NOLINT: implicit on purpose
      : info(i), independent_writes(independent), slabs_only_times_on_rank0(slabs_only) {}
  MPI_Info info = MPI_INFO_NULL;
  bool independent_writes = false;
  bool slabs_only_times_on_rank0 = false;
};

class Backend {
 public:
  virtual ~Backend() = default;

  // Collective. Creates `path`, defines dims, vars, attributes, NOFILL, and leaves define mode.
  // Nothing is at `path` (the caller made way for it: util/temp_files.hpp), and the library's
  // create is the file's first: for the MPI-IO backends its MPI_File_open with MPI_MODE_CREATE
  // and `hints.info` (may be MPI_INFO_NULL), so that a layer that lays a file out only when its
  // open creates it (Lustre striping) does. Throws Error naming the call, the file and the
  // library's message.
  virtual void create(const std::string& path, const FileLayout& layout, const FileHints& hints) = 0;

  // Collective, after create(), by plans that hand over slabs: where rows go (see
  // SlabPlacement). From now on every write() of this file may carry a slab. Its outcome is
  // agreed: every rank returns the same placement, or every rank throws the same Error.
  virtual SlabPlacement placement() = 0;

  // Collective. Writes this rank's requests and slab as one collective step.
  // A rank with nothing to write passes empty arguments and still joins.
  virtual void write(std::span<const WriteRequest> requests, const Slab& slab) = 0;

  // Collective, as write(), except the slab when the backend can leave it to its caller: then it
  // returns the slab's write (deferred_write.hpp: plain POSIX, any thread, valid after close()),
  // which the caller runs while the model goes on, leaving the slab untouched until it has run.
  // A backend that cannot (its slabs are not the file's own bytes, or the hints keep writes
  // collective) writes at once and returns null; so does a rank with nothing in its slab.
  virtual std::unique_ptr<DeferredWrite> write_deferred(std::span<const WriteRequest> requests, const Slab& slab) {
    write(requests, slab);
    return nullptr;
  }

  // Whether write_deferred() leaves this file's slabs to the caller (after placement(); the same
  // on every rank).
  virtual bool defers_slabs() const noexcept { return false; }

  // Collective. Flushes and closes. Safe to call when create() failed half-way. `durable`:
  // every rank's bytes of the file are on stable storage when it returns (MPI_File_sync or
  // fsync by each rank that wrote, as the file system needs: on Lustre and GPFS a client's
  // cached bytes are flushed only by that client). Deferred writes the caller still runs are
  // the caller's to sync.
  virtual void close(bool durable) = 0;

  // Whether a write that does not fit on the disk (or over a quota) fails as an error of the
  // write itself. False where slabs go through an MPI-IO layer that may print the system's
  // error and report success (Open MPI 4.1's OMPIO): the caller then reserves the frame's
  // blocks first (core/disk_guard.hpp).
  virtual bool reports_full_disk() const noexcept { return false; }

  // Rank 0: the real layout of the open file (unknown = default).
  virtual LayoutFacts layout_facts() const { return {}; }

  // Local, never collective, never throws: forget the open file without closing it, because
  // other ranks may not join a collective any more (a Writer destroyed during stack unwinding
  // after an error). The partly written file stays under its temporary name. The destructor
  // of a backend must not be collective either (it runs after abandon()).
  virtual void abandon() noexcept {}

  // Tests (util/fault_injection.hpp): the stream's armed faults, checked at this backend's local
  // steps that can fail on one rank alone; `rank`: this rank in the backend's communicator.
  // `faults` outlives the backend. Without it nothing is checked.
  void use_faults(FaultInjector* faults, int rank) noexcept {
    faults_ = faults;
    fault_rank_ = rank;
  }

 protected:
  // Tests: throws the fault armed for `phase` on this rank; with `drop`, after drop() forgot what
  // the step gave (a handle the failed step would not have given).
  void fault(FaultPhase phase) const {
    fault(phase, [] {});
  }
  template <class Drop>
  void fault(FaultPhase phase, Drop drop) const {
    if (faults_ == nullptr) return;
    try {
      faults_->check(phase, fault_rank_);
    } catch (...) {
      drop();
      throw;
    }
  }

 private:
  FaultInjector* faults_ = nullptr;
  int fault_rank_ = 0;
};

// Compact placement of a layout: fixed-size variables first, then the record variables, back
// to back in varid order within each group, records `record_stride` apart.
SlabPlacement compact_placement(const FileLayout& layout);

}  // namespace nwpio::detail
