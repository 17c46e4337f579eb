#include "core/direct_plan.hpp"

#include <algorithm>
#include <climits>

#include "core/memory_check.hpp"
#include "core/pack.hpp"
#include "util/mpi_call.hpp"

namespace nwpio::detail {

namespace {

// Splits `box` into pieces of at most `limit` bytes: whole k-planes, else whole j-rows.
void split_box(const FieldGeometry& g, const Box& box, std::int64_t limit, std::vector<Box>& out) {
  const std::int64_t row = box.extent(kAxisI) * static_cast<std::int64_t>(g.elem);
  const std::int64_t plane = row * box.extent(kAxisJ);
  if (plane * box.extent(kAxisK) <= limit) {
    out.push_back(box);
    return;
  }
  if (plane <= limit) {
    const std::int64_t step = std::max<std::int64_t>(1, limit / plane);
    for (std::int64_t k = box.lo[kAxisK]; k < box.hi[kAxisK]; k += step) {
      Box b = box;
      b.lo[kAxisK] = k;
      b.hi[kAxisK] = std::min(box.hi[kAxisK], k + step);
      out.push_back(b);
    }
    return;
  }
  const std::int64_t step = std::max<std::int64_t>(1, limit / std::max<std::int64_t>(1, row));
  for (std::int64_t k = box.lo[kAxisK]; k < box.hi[kAxisK]; ++k) {
    for (std::int64_t j = box.lo[kAxisJ]; j < box.hi[kAxisJ]; j += step) {
      Box b = box;
      b.lo[kAxisK] = k;
      b.hi[kAxisK] = k + 1;
      b.lo[kAxisJ] = j;
      b.hi[kAxisJ] = std::min(box.hi[kAxisJ], j + step);
      out.push_back(b);
    }
  }
}

}  // namespace

DirectPlan::DirectPlan(MPI_Comm comm, std::vector<const FieldGeometry*> fields, ReorderMode reorder,
                       std::int64_t max_round_bytes)
    : fields_(std::move(fields)), reorder_(reorder) {
  int rank = 0;
  mpi_check(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  const std::int64_t limit = std::max<std::int64_t>(1, std::min<std::int64_t>(max_round_bytes, INT_MAX));
  std::vector<Box> boxes;
  std::int64_t used = 0;
  rounds_pieces_.emplace_back();
  for (std::size_t f = 0; f < fields_.size(); ++f) {
    const FieldGeometry& g = *fields_[f];
    const Box& mine = g.file_boxes[static_cast<std::size_t>(rank)];
    if (mine.empty()) continue;
    boxes.clear();
    split_box(g, mine, limit, boxes);
    for (const Box& b : boxes) {
      const std::int64_t bytes = b.volume() * static_cast<std::int64_t>(g.elem);
      if (used > 0 && used + bytes > limit) {  // greedy: next round
        rounds_pieces_.emplace_back();
        used = 0;
      }
      Piece p{f, b, bytes, used};
      if (reorder_ == ReorderMode::Datatype) {
        p.type = make_box_datatype(g, g.memory, b);
        p.origin = datatype_origin_bytes(g, g.memory, b);
      }
      rounds_pieces_.back().push_back(p);
      used += bytes;
      capacity_ = std::max(capacity_, used);
    }
  }
  const int mine = static_cast<int>(rounds_pieces_.size());
  mpi_check(MPI_Allreduce(&mine, &rounds_, 1, MPI_INT, MPI_MAX, comm), "MPI_Allreduce(direct rounds)");
}

DirectPlan::~DirectPlan() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized) return;
  for (auto& round : rounds_pieces_) {
    for (Piece& p : round) {
      if (p.type != MPI_DATATYPE_NULL) MPI_Type_free(&p.type);
    }
  }
}

void DirectPlan::pack_piece(const Piece& p, const FieldSource& src, int record, RoundOutput& out) {
  const FieldGeometry& g = *fields_[p.field];
  if (!buffer_ && capacity_ > 0) buffer_ = allocate_bytes(capacity_, "the direct plan's packing buffer");
  std::byte* dst = buffer_.get() + p.offset;
  pack_rows(g, src, p.box, 0, g.rows(), dst);
  add_box_request(out, g, record, p.box, dst);
}

void DirectPlan::run_round(int t, std::span<const FieldSource> sources, int record, RoundOutput& out,
                           PhaseTimes& times) {
  if (t >= static_cast<int>(rounds_pieces_.size())) return;  // idle round: zero requests
  const double t0 = MPI_Wtime();
  for (const Piece& p : rounds_pieces_[static_cast<std::size_t>(t)]) {
    const FieldGeometry& g = *fields_[p.field];
    const FieldSource& src = sources[p.field];
    // The datatype walks the stream's memory array; an array copied on put (or with bounds of
    // its own) lies differently and is packed.
    if (reorder_ == ReorderMode::Datatype && src.map == g.memory) {
      WriteRequest& r = add_box_request(out, g, record, p.box, static_cast<const std::byte*>(src.data) + p.origin);
      r.mem_type = p.type;
    } else {
      pack_piece(p, src, record, out);
    }
  }
  times.reorder += MPI_Wtime() - t0;
}

}  // namespace nwpio::detail
