// FramePlan: how the decomposed variables of one frame reach the backend, round by round.
// Two implementations: DirectPlan (each rank hands its own patch to the backend) and
// Rearranger (one exchange per round moves patch pieces to writer ranks holding contiguous
// slabs). Both are built once per stream layout (collective) and reuse their buffers.
#pragma once

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "backend/backend.hpp"
#include "core/file_layout.hpp"

namespace nwpio::detail {

// Seconds spent in each phase of a round, added up over the frame.
struct PhaseTimes {
  double reorder = 0;
  double exchange = 0;
};

// What one rank hands to the backend in one round: write requests (slots reused from frame to
// frame, with their start/count vectors) and, for plans that write file bytes, one contiguous
// piece of the file.
class RequestList {
 public:
  void clear() noexcept {
    size_ = 0;
    file_bytes = {};
  }
  WriteRequest& add(int var, const void* data);
  std::span<const WriteRequest> view() const noexcept { return {slots_.data(), size_}; }
  std::size_t size() const noexcept { return size_; }

  FileBytes file_bytes;

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
  // True when the plan carries every variable of the frame (Times and the variables without i
  // and j too); false when the Writer adds those as rank 0's requests.
  virtual bool carries_all_variables() const noexcept { return false; }
  // True when the plan hands the backend file bytes (FileBytes) rather than requests.
  virtual bool writes_file_bytes() const noexcept { return false; }
  // Which round and rank write Times' bytes (rank 0 in round 0 unless the plan carries Times).
  virtual std::pair<int, int> times_writer() const noexcept { return {0, 0}; }
  // Collective, at every file open of a plan that writes file bytes: the file's real layout.
  virtual void place(const FileOffsets& /*offsets*/) {}
  // Local, never collective: forget shared resources without freeing them (see Backend::abandon).
  virtual void abandon() noexcept {}
  // Bytes of staging buffers this rank holds.
  virtual std::int64_t buffer_bytes() const noexcept = 0;
  // Bytes this rank hands to the backend per frame (for the report), summed over rounds.
  virtual std::int64_t max_round_write_bytes() const noexcept = 0;
};

}  // namespace nwpio::detail
