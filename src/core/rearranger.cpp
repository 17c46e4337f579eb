#include "core/rearranger.hpp"

#include <algorithm>
#include <cstring>

#include "core/memory_check.hpp"
#include "core/pack.hpp"
#include "nwpio/error.hpp"
#include "util/mpi_call.hpp"

namespace nwpio::detail {

Rearranger::Rearranger(MPI_Comm comm, std::vector<const FieldGeometry*> fields, RearrangeSetup setup)
    : comm_(comm),
      setup_(std::move(setup)),
      space_(std::move(fields)),
      slabs_(setup_.slabs ? setup_.slabs : std::make_shared<NodeSlabs>(comm, setup_.node_options)) {
  mpi_check(MPI_Comm_rank(comm, &rank_), "MPI_Comm_rank");
  mpi_check(MPI_Comm_size(comm, &size_), "MPI_Comm_size");
  nw_ = static_cast<int>(setup_.writers.size());
  for (int w = 0; w < nw_; ++w) {
    if (setup_.writers[static_cast<std::size_t>(w)] == rank_) my_writer_ = w;
  }
  exchange_ = slabs_->nodes() > 1;
  std::vector<int> node_of(static_cast<std::size_t>(size_));
  for (int r = 0; r < size_; ++r) node_of[static_cast<std::size_t>(r)] = slabs_->node_of(r);
  pos_ = RowPositions::compact(space_);
  const auto worst_staging = [&](int rounds) {
    plan_ = plan_rank(space_, pos_, setup_.writers, node_of, rank_, rounds);
    std::int64_t worst = 0;
    const std::int64_t mine = plan_.staging();
    mpi_check(MPI_Allreduce(&mine, &worst, 1, MPI_INT64_T, MPI_MAX, comm_), "MPI_Allreduce(rearranger rounds)");
    return worst;
  };
  RoundChoice choice;
  if (setup_.share_each_variable) {
    choice.rounds = space_.split_shared(nw_, setup_.round_limit);
    choice.worst_staging = worst_staging(choice.rounds);
  } else {
    choice = choose_rounds(space_, nw_, setup_.round_limit, [&](int rounds) {
      space_.split(static_cast<std::int64_t>(nw_) * rounds);
      return worst_staging(rounds);
    });
  }
  check_int_count(choice.worst_staging, "stage");  // the same on every rank: all throw or none
  // What this plan adds: its exchange buffers and the growth of the node's slabs.
  const std::int64_t slab_growth = std::max<std::int64_t>(0, own_slab_bytes() - slabs_->capacity());
  check_memory_fits(comm_, plan_.send_capacity + plan_.recv_capacity + slab_growth,
                    "the history stream's staging of a frame (exchange buffers and writer slabs)",
                    "Give the job more memory per node or fewer ranks per node, or lower max_round_bytes (smaller "
                    "write rounds); nwpio-check --plan shows the memory per rank and node");
  set_positions(pos_);
  // Allocated here, where a failure is agreed on: run_round then throws nothing before its
  // collectives. Pages are touched only when used.
  if (plan_.send_capacity > 0) send_ = allocate_bytes(plan_.send_capacity, "the rearranger's send buffer");
  if (plan_.recv_capacity > 0) recv_ = allocate_bytes(plan_.recv_capacity, "the rearranger's receive buffer");
  if (plan_.rounds == 1) set_send_offsets();
}

std::int64_t Rearranger::own_slab_bytes() const noexcept {
  std::int64_t bytes = 0;
  if (my_writer_ >= 0) {
    for (int t = 0; t < plan_.rounds; ++t) {
      const std::int64_t c = chunk(t, my_writer_);
      bytes = std::max(bytes, pos_.chunk_end(space_, c) - pos_.chunk_begin(space_, c));
    }
  }
  return bytes;
}

void Rearranger::set_positions(RowPositions pos) {
  pos_ = std::move(pos);
  plan_.slab_capacity = own_slab_bytes();
  std::int64_t largest = plan_.slab_capacity;
  mpi_check(MPI_Allreduce(MPI_IN_PLACE, &largest, 1, MPI_INT64_T, MPI_MAX, comm_), "MPI_Allreduce(slab size)");
  check_int_count(largest, "write");  // the same on every rank: all throw or none
  slabs_->reserve(plan_.slab_capacity);
}

void Rearranger::place(const SlabPlacement& placement) {
  RowPositions pos;
  for (std::size_t f = 0; f < space_.size(); ++f) {
    const FieldGeometry& g = *space_[f].g;
    if (static_cast<std::size_t>(g.varid) >= placement.var_begin.size()) {
      throw Error(ErrorKind::Internal, "rearranger: no position for variable " + g.name);
    }
    pos.field_begin.push_back(placement.var_begin[static_cast<std::size_t>(g.varid)]);
    // The row space must be in the placement's order: each variable after the previous one's bytes.
    if (f > 0 && pos.field_begin[f] < pos.field_begin[f - 1] + space_[f - 1].g->bytes()) {
      throw Error(ErrorKind::Internal, "rearranger: variable " + g.name + " begins at byte " +
                                           std::to_string(pos.field_begin[f]) + ", inside " + space_[f - 1].g->name +
                                           " (" + std::to_string(pos.field_begin[f - 1]) + " + " +
                                           std::to_string(space_[f - 1].g->bytes()) + ")");
    }
  }
  // Every file of a stream has the same header, so the same positions: only a change (the same
  // on every rank, as the placement is) resizes the slabs, which is collective.
  if (pos.field_begin == pos_.field_begin) return;
  set_positions(std::move(pos));
}

bool Rearranger::rank0_stages(std::size_t f) const noexcept {
  const std::int64_t first = space_[f].row0, last = first + space_[f].g->rows();
  for (int t = 0; t < plan_.rounds; ++t) {
    for (int w = 0; w < nw_; ++w) {
      const std::int64_t c = chunk(t, w);
      const bool overlaps = std::max(first, space_.chunk_begin(c)) < std::min(last, space_.chunk_end(c));
      if (overlaps && setup_.writers[static_cast<std::size_t>(w)] != 0) return false;
    }
  }
  return true;
}

void Rearranger::run_round(int t, std::span<const FieldSource> sources, int record, RoundOutput& out,
                           PhaseTimes& times) {
  const std::size_t base = static_cast<std::size_t>(t) * static_cast<std::size_t>(size_);
  const auto me = static_cast<std::size_t>(rank_);
  const bool swap = setup_.byte_order == ByteOrder::BigEndian;

  // The writers on this node have written their previous round: their slabs may be refilled.
  double t0 = MPI_Wtime();
  slabs_->sync();
  double t1 = MPI_Wtime();
  times.exchange += t1 - t0;

  // 1. Pack: one pass over the model's memory, halo skipped.
  for (int w = 0; w < nw_; ++w) {
    const int wr = setup_.writers[static_cast<std::size_t>(w)];
    const std::int64_t c = chunk(t, w);
    if (slabs_->same_node(wr)) {
      std::byte* slab = slabs_->slab(wr);
      const std::int64_t begin = pos_.chunk_begin(space_, c);
      space_.for_each_overlap(space_.chunk_begin(c), space_.chunk_end(c), [&](std::size_t f, std::int64_t ra, std::int64_t rb) {
        if (sources[f].packed) return;
        const FieldGeometry& g = *space_[f].g;
        scatter_rows(g, sources[f], g.file_boxes[me], ra, rb, slab + (pos_.row_pos(space_, f, ra) - begin), swap);
      });
    } else {
      std::byte* p = send_.get() + plan_.send_displs[base + static_cast<std::size_t>(wr)];
      space_.for_each_overlap(space_.chunk_begin(c), space_.chunk_end(c), [&](std::size_t f, std::int64_t ra, std::int64_t rb) {
        const FieldGeometry& g = *space_[f].g;
        p = sources[f].packed ? p + box_bytes(g, g.file_boxes[me], ra, rb)
                              : pack_rows(g, sources[f], g.file_boxes[me], ra, rb, p, swap);
      });
    }
  }
  double t2 = MPI_Wtime();
  times.reorder += t2 - t1;

  // 2. Pieces across nodes; then every piece of this node is in its slab.
  if (exchange_) {
    mpi_check(MPI_Alltoallv(send_.get(), plan_.send_counts.data() + base, plan_.send_displs.data() + base, MPI_BYTE,
                            recv_.get(), plan_.recv_counts.data() + base, plan_.recv_displs.data() + base, MPI_BYTE,
                            comm_),
              "MPI_Alltoallv(rearranger)");
  }
  slabs_->sync();
  double t3 = MPI_Wtime();
  times.exchange += t3 - t2;
  if (my_writer_ < 0) return;

  const std::int64_t c = chunk(t, my_writer_);
  const std::int64_t a = space_.chunk_begin(c), b = space_.chunk_end(c);
  const std::int64_t begin = pos_.chunk_begin(space_, c);
  std::byte* slab = slabs_->slab(rank_);
  if (exchange_) unpack_received(base, a, b, begin, slab);
  hand_over(record, a, b, begin, slab, out);
  times.reorder += MPI_Wtime() - t3;
}

// Round 0's pieces of field f, at the places run_round's pack pass would give them: in a
// writer's slab on this node, or at the field's offset in that writer's part of the send buffer.
void Rearranger::pack_field(std::size_t f, const FieldSource& source) {
  const auto me = static_cast<std::size_t>(rank_);
  const bool swap = setup_.byte_order == ByteOrder::BigEndian;
  const FieldGeometry& g = *space_[f].g;
  const std::int64_t r0 = space_[f].row0, r1 = r0 + g.rows();
  for (int w = 0; w < nw_; ++w) {
    const std::int64_t c = chunk(0, w);
    const std::int64_t a = std::max(space_.chunk_begin(c), r0), b = std::min(space_.chunk_end(c), r1);
    if (a >= b) continue;
    const int wr = setup_.writers[static_cast<std::size_t>(w)];
    if (slabs_->same_node(wr)) {
      std::byte* slab = slabs_->slab(wr) + (pos_.row_pos(space_, f, a - r0) - pos_.chunk_begin(space_, c));
      scatter_rows(g, source, g.file_boxes[me], a - r0, b - r0, slab, swap);
    } else {
      std::byte* p = send_.get() + plan_.send_displs[static_cast<std::size_t>(wr)] +
                     send_offset_[static_cast<std::size_t>(w) * space_.size() + f];
      pack_rows(g, source, g.file_boxes[me], a - r0, b - r0, p, swap);
    }
  }
}

// Where field f's pieces begin in each writer's part of the send buffer (round 0): the bytes of
// this rank's pieces of the fields before it in that writer's chunk.
void Rearranger::set_send_offsets() {
  const auto me = static_cast<std::size_t>(rank_);
  send_offset_.assign(static_cast<std::size_t>(nw_) * space_.size(), 0);
  for (int w = 0; w < nw_; ++w) {
    const std::int64_t c = chunk(0, w);
    std::int64_t offset = 0;
    space_.for_each_overlap(space_.chunk_begin(c), space_.chunk_end(c), [&](std::size_t f, std::int64_t ra, std::int64_t rb) {
      send_offset_[static_cast<std::size_t>(w) * space_.size() + f] = offset;
      offset += box_bytes(*space_[f].g, space_[f].g->file_boxes[me], ra, rb);
    });
  }
}

// The pieces other nodes sent, each row to its place in the slab.
void Rearranger::unpack_received(std::size_t base, std::int64_t a, std::int64_t b, std::int64_t begin, std::byte* slab) {
  for (int s = 0; s < size_; ++s) {
    if (plan_.recv_counts[base + static_cast<std::size_t>(s)] == 0) continue;
    const std::byte* p = recv_.get() + plan_.recv_displs[base + static_cast<std::size_t>(s)];
    space_.for_each_overlap(a, b, [&](std::size_t f, std::int64_t ra, std::int64_t rb) {
      const FieldGeometry& g = *space_[f].g;
      const Box& box = g.file_boxes[static_cast<std::size_t>(s)];
      const std::int64_t rowb = g.row_bytes();
      const auto width = static_cast<std::size_t>(box.extent(kAxisI) * static_cast<std::int64_t>(g.elem));
      std::byte* rows = slab + (pos_.row_pos(space_, f, ra) - begin) + box.lo[kAxisI] * static_cast<std::int64_t>(g.elem);
      for_each_row(g, box, ra, rb, [&](std::int64_t k, std::int64_t j) {
        std::memcpy(rows + (k * g.nj + j - ra) * rowb, p, width);
        p += width;
      });
    });
  }
}

// The writer's slab as the backend takes it: one stretch, the gaps between variables zeroed (so
// the chunk goes out as one piece), and which rows of which variables it holds.
void Rearranger::hand_over(int record, std::int64_t a, std::int64_t b, std::int64_t begin, std::byte* slab,
                           RoundOutput& out) {
  std::int64_t end = begin;
  space_.for_each_overlap(a, b, [&](std::size_t f, std::int64_t ra, std::int64_t rb) {
    const std::int64_t p0 = pos_.row_pos(space_, f, ra);
    if (p0 > end) std::memset(slab + (end - begin), 0, static_cast<std::size_t>(p0 - end));
    out.pieces.push_back({space_[f].g->varid, ra, rb, p0 - begin});
    end = pos_.row_pos(space_, f, rb);
  });
  out.slab = Slab{record, begin, slab, end - begin, out.pieces};
}

}  // namespace nwpio::detail
