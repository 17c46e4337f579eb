// Rearranger: moves every patch's pieces to the writer ranks so that each writer holds whole
// contiguous slabs of the file (whole rows of i, grouped into k-planes), as PIO's box
// rearranger does. The collective write then sees a few large contiguous pieces per writer
// instead of thousands of short rows per rank.
//
// The row space of a record: every decomposed variable's (k, j) rows, concatenated in file
// order (varid order). It is split into contiguous chunks of whole rows, balanced by bytes over
// writers x rounds: round t, writer w owns chunk t * nwriters + w. Every rank computes every
// other rank's pieces from the decomposition, so a round moves only data: ONE MPI_Alltoallv.
// The number of rounds is the smallest for which no rank sends or receives more than
// max_round_bytes (and no MPI count exceeds INT_MAX).
#pragma once

#include <mpi.h>

#include <memory>
#include <vector>

#include "core/frame_plan.hpp"

namespace nwpio::detail {

class Rearranger final : public FramePlan {
 public:
  // Collective over comm (one small allreduce per candidate round count).
  // `fields`: decomposed fields in file order; `writers`: ascending ranks that write.
  Rearranger(MPI_Comm comm, std::vector<const FieldGeometry*> fields, std::vector<int> writers,
             std::int64_t max_round_bytes);

  int rounds() const noexcept override { return rounds_; }
  void run_round(int t, std::span<const void* const> data, int record, RequestList& out, PhaseTimes& times) override;
  std::int64_t buffer_bytes() const noexcept override { return send_capacity_ + 2 * recv_capacity_; }
  std::int64_t max_round_write_bytes() const noexcept override { return recv_capacity_; }

 private:
  struct Field {
    const FieldGeometry* g;
    std::int64_t row0;   // first global row
    std::int64_t byte0;  // first byte in the record's row space
  };
  // Calls fn(field index, ra, rb) for each field overlapping global rows [a, b), ra/rb local rows.
  template <class F> void for_each_overlap(std::int64_t a, std::int64_t b, F&& fn) const;
  std::int64_t chunk_begin(int t, int w) const noexcept { return bounds_[static_cast<std::size_t>(t * nw_ + w)]; }
  std::int64_t chunk_end(int t, int w) const noexcept { return bounds_[static_cast<std::size_t>(t * nw_ + w + 1)]; }
  // Plans `rounds` rounds; returns this rank's largest per-round send or receive bytes.
  std::int64_t plan(int rounds);

  MPI_Comm comm_;
  int rank_ = 0, size_ = 1;
  std::vector<Field> fields_;
  std::vector<int> writers_;
  int nw_ = 1;
  int my_writer_ = -1;  // index into writers_, -1 if this rank does not write
  int rounds_ = 1;
  std::int64_t total_rows_ = 0, total_bytes_ = 0;
  std::vector<std::int64_t> bounds_;                  // nw * rounds + 1 global row bounds
  std::vector<int> send_counts_, send_displs_;        // rounds x size
  std::vector<int> recv_counts_, recv_displs_;        // rounds x size
  std::int64_t send_capacity_ = 0, recv_capacity_ = 0;
  std::unique_ptr<std::byte[]> send_, recv_, slab_;   // allocated at the first frame, reused
};

}  // namespace nwpio::detail
