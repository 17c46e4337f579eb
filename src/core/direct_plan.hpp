// DirectPlan: every rank hands its own part of each variable straight to the backend (one
// hyperslab per variable and rank; PnetCDF's two-phase I/O does the gathering); rank 0 holds
// Times and the variables without i and j.
// The reorder from memory order to file order is either one pack into a reused buffer or an
// MPI derived datatype over the model's array (PnetCDF's flexible API), selectable to measure.
// A patch larger than max_round_bytes is split along k (then j) and the pieces are spread over
// rounds; every rank joins every round (the round count is agreed), with zero requests if idle.
#pragma once

#include <mpi.h>

#include <memory>
#include <vector>

#include "core/frame_plan.hpp"
#include "nwpio/options.hpp"

namespace nwpio::detail {

class DirectPlan final : public FramePlan {
 public:
  // Collective over comm (one allreduce: the round count). `reorder` is Pack or Datatype.
  DirectPlan(MPI_Comm comm, std::vector<const FieldGeometry*> fields, ReorderMode reorder,
             std::int64_t max_round_bytes);
  ~DirectPlan() override;
  DirectPlan(const DirectPlan&) = delete;
  DirectPlan& operator=(const DirectPlan&) = delete;

  int rounds() const noexcept override { return rounds_; }
  void run_round(int t, std::span<const FieldSource> sources, int record, RoundOutput& out, PhaseTimes& times) override;
  std::int64_t buffer_bytes() const noexcept override { return buffer_ ? capacity_ : 0; }

 private:
  struct Piece {
    std::size_t field;
    Box box;                  // file indices
    std::int64_t bytes;
    std::int64_t offset;      // Pack: offset in the round's buffer
    MPI_Datatype type = MPI_DATATYPE_NULL;  // Datatype: walks the stream's memory array
    std::int64_t origin = 0;  // Datatype: byte offset of the box's first element in memory
  };
  void pack_piece(const Piece& p, const FieldSource& src, int record, RoundOutput& out);
  std::vector<const FieldGeometry*> fields_;
  ReorderMode reorder_;
  std::vector<std::vector<Piece>> rounds_pieces_;  // this rank's pieces per round (may be fewer than rounds_)
  int rounds_ = 1;
  std::int64_t capacity_ = 0;
  std::unique_ptr<std::byte[]> buffer_;
};

}  // namespace nwpio::detail
