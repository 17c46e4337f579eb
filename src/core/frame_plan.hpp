// FramePlan: how the fields of one frame reach the backend, round by round. Two
// implementations: DirectPlan (each rank hands its own pieces to the backend as requests) and
// Rearranger (one exchange per round moves patch pieces to writer ranks, each staging one
// contiguous slab). Both are built once per stream layout (collective), carry every field of
// the frame (Times and the variables without i and j included), and reuse their buffers.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "backend/backend.hpp"
#include "core/stream_layout.hpp"

namespace nwpio::detail {

// Seconds spent in each phase of a round, added up over the frame.
struct PhaseTimes {
  double reorder = 0;
  double exchange = 0;
};

// What one rank hands to the backend in one round: write requests (slots reused from frame to
// frame, with their start/count vectors) and at most one slab with its pieces.
class RoundOutput {
 public:
  void clear() noexcept {
    size_ = 0;
    pieces.clear();
    slab = {};
  }
  WriteRequest& add(int var, const void* data);
  std::span<const WriteRequest> requests() const noexcept { return {slots_.data(), size_}; }
  std::size_t size() const noexcept { return size_; }

  Slab slab;                       // pieces point into `pieces` below
  std::vector<SlabPiece> pieces;

 private:
  std::vector<WriteRequest> slots_;
  std::size_t size_ = 0;
};

// Adds a request for a box of variable `g` (k, j, i ranges), data at `data`.
WriteRequest& add_box_request(RoundOutput& out, const FieldGeometry& g, int record, const Box& box, const void* data);

class FramePlan {
 public:
  virtual ~FramePlan() = default;
  // The same on every rank.
  virtual int rounds() const noexcept = 0;
  // Runs round t on this rank: reorders/exchanges the data of the plan's fields and fills `out`
  // (pointing into the plan's buffers or the sources). Collective when the plan exchanges data.
  // `sources[f]` is the data of the plan's field f.
  virtual void run_round(int t, std::span<const FieldSource> sources, int record, RoundOutput& out,
                         PhaseTimes& times) = 0;
  // Pack on put: a plan of ONE round can take each field into its staging (the writers' slabs,
  // the send buffer) when the field is put, instead of from a copy at end_frame: one pass over
  // the model's memory, no frame-sized copy held per rank (on a VM, fresh memory is what the
  // first frame pays most for). begin_pack() is collective over the node (the staging is free:
  // every writer's previous write has settled) and comes once per frame before any
  // pack_field(); pack_field() is local, `f` in the plan's field order.
  virtual bool packs_on_put() const noexcept { return false; }
  virtual void begin_pack() {}
  virtual void pack_field(std::size_t /*f*/, const FieldSource& /*source*/) {}
  // True when the plan stages slabs and so needs the backend's placement at every file open.
  virtual bool stages_slabs() const noexcept { return false; }
  // Collective, at every file open of a plan that stages slabs.
  virtual void place(const SlabPlacement& /*placement*/) {}
  // Local, the same on every rank: whether every row of the plan's field `f` is staged in rank
  // 0's slabs, in every round.
  virtual bool rank0_stages(std::size_t /*f*/) const noexcept { return false; }
  // Local, never collective: forget shared resources without freeing them (see Backend::abandon).
  virtual void abandon() noexcept {}
  // Bytes of staging buffers this rank holds.
  virtual std::int64_t buffer_bytes() const noexcept = 0;
};

}  // namespace nwpio::detail
