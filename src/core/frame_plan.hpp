// FramePlan: how the decomposed variables of one frame reach the backend, round by round.
// Two implementations: DirectPlan (each rank hands its own patch to the backend) and
// Rearranger (one exchange per round moves patch pieces to writer ranks holding contiguous
// slabs). Both are built once per stream layout (collective) and reuse their buffers.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "backend/backend.hpp"
#include "core/file_layout.hpp"

namespace nwpio::detail {

// Seconds spent in each phase of a round, added up over the frame.
struct PhaseTimes {
  double reorder = 0;
  double exchange = 0;
};

// Reuses WriteRequest slots (and their start/count vectors) from frame to frame.
class RequestList {
 public:
  void clear() noexcept { size_ = 0; }
  WriteRequest& add(int var, const void* data);
  std::span<const WriteRequest> view() const noexcept { return {slots_.data(), size_}; }
  std::size_t size() const noexcept { return size_; }

 private:
  std::vector<WriteRequest> slots_;
  std::size_t size_ = 0;
};

// Adds a request for rows [ra, rb) of variable `g` (record `record` if it is a record
// variable), data contiguous in file order at `data`: up to three hyperslabs (partial first
// k-plane, whole planes, partial last plane).
void add_row_requests(RequestList& out, const FieldGeometry& g, int record, std::int64_t ra, std::int64_t rb,
                      const std::byte* data);
// Adds a request for a box of variable `g` (k, j, i ranges), data at `data`.
WriteRequest& add_box_request(RequestList& out, const FieldGeometry& g, int record, const Box& box, const void* data);

class FramePlan {
 public:
  virtual ~FramePlan() = default;
  // The same on every rank.
  virtual int rounds() const noexcept = 0;
  // Runs round t on this rank: reorders/exchanges the data of `fields` and appends this rank's
  // write requests (pointing into the plan's buffers or the model's memory) to `out`.
  // Collective when the plan exchanges data. `data[f]` is the model's array of fields()[f].
  virtual void run_round(int t, std::span<const void* const> data, int record, RequestList& out,
                         PhaseTimes& times) = 0;
  // Bytes of staging buffers this rank holds.
  virtual std::int64_t buffer_bytes() const noexcept = 0;
  // Bytes this rank hands to the backend per frame (for the report), summed over rounds.
  virtual std::int64_t max_round_write_bytes() const noexcept = 0;
};

}  // namespace nwpio::detail
