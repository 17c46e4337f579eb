#include "core/rearranger.hpp"

#include <algorithm>
#include <climits>
#include <cstring>

#include "core/pack.hpp"
#include "nwpio/error.hpp"
#include "util/mpi_call.hpp"

namespace nwpio::detail {

namespace {

double now() { return MPI_Wtime(); }

void check_int_count(std::int64_t n, const char* what) {
  if (n > INT_MAX) {
    throw Error(ErrorKind::Unsupported, std::string("rearranger: one round would ") + what + " " + std::to_string(n) +
                                            " bytes on one rank, over MPI's INT_MAX; lower max_round_bytes");
  }
}

std::vector<std::int64_t> compact_positions(const RowSpace& space) {
  std::vector<std::int64_t> pos;
  for (std::size_t f = 0; f < space.size(); ++f) pos.push_back(space[f].byte0);
  return pos;
}

}  // namespace

Rearranger::Rearranger(MPI_Comm comm, std::vector<const FieldGeometry*> fields, RearrangeSetup setup)
    : comm_(comm),
      setup_(std::move(setup)),
      space_(std::move(fields)),
      slabs_(setup_.slabs ? setup_.slabs : std::make_shared<NodeSlabs>(comm, setup_.shared_memory)) {
  mpi_check(MPI_Comm_rank(comm, &rank_), "MPI_Comm_rank");
  mpi_check(MPI_Comm_size(comm, &size_), "MPI_Comm_size");
  nw_ = static_cast<int>(setup_.writers.size());
  for (int w = 0; w < nw_; ++w) {
    if (setup_.writers[static_cast<std::size_t>(w)] == rank_) my_writer_ = w;
  }
  exchange_ = slabs_->nodes() > 1;
  pos_ = compact_positions(space_);
  // A chunk holds at least one row, so a limit below a row's bytes is a row.
  const std::int64_t limit = std::max(
      space_.max_row_bytes(), std::max<std::int64_t>(1, std::min<std::int64_t>(setup_.round_limit, INT_MAX)));
  // Smallest round count whose chunks fit the limit; more rounds while some rank's staging is
  // still over it (uneven patches), up to one row per chunk.
  const std::int64_t max_rounds = std::max<std::int64_t>(1, (space_.total_rows() + nw_ - 1) / nw_);
  std::int64_t rounds =
      std::clamp<std::int64_t>((space_.total_bytes() + nw_ * limit - 1) / (nw_ * limit), 1, max_rounds);
  std::int64_t worst = 0;
  for (;;) {
    const std::int64_t mine = plan(static_cast<int>(rounds));
    mpi_check(MPI_Allreduce(&mine, &worst, 1, MPI_INT64_T, MPI_MAX, comm_), "MPI_Allreduce(rearranger rounds)");
    if (worst <= limit || rounds >= max_rounds) break;
    const std::int64_t scaled = (rounds * worst + limit - 1) / limit;
    rounds = std::min(max_rounds, std::max(rounds + 1, scaled));
  }
  check_int_count(worst, "stage");  // the same on every rank: all throw or none
  for (std::size_t f = 0; f < space_.size(); ++f) {
    if (space_[f].g->varid != 0) continue;
    std::int64_t c = 0;
    while (c + 1 < static_cast<std::int64_t>(nw_) * rounds_ && space_.chunk_end(c) <= space_[f].row0) ++c;
    times_writer_ = {static_cast<int>(c / nw_), setup_.writers[static_cast<std::size_t>(c % nw_)]};
  }
  set_positions(pos_, 0);
  // Allocated here, where a failure is agreed on: run_round then throws nothing before its
  // collectives. Pages are touched only when used.
  if (send_capacity_ > 0) send_ = std::make_unique_for_overwrite<std::byte[]>(static_cast<std::size_t>(send_capacity_));
  if (recv_capacity_ > 0) recv_ = std::make_unique_for_overwrite<std::byte[]>(static_cast<std::size_t>(recv_capacity_));
}

std::int64_t Rearranger::chunk_pos_begin(std::int64_t c) const noexcept {
  const std::int64_t a = space_.chunk_begin(c);
  if (a >= space_.chunk_end(c)) return 0;
  const std::size_t f = space_.field_at(a);
  return row_pos(f, a - space_[f].row0);
}

std::int64_t Rearranger::chunk_pos_end(std::int64_t c) const noexcept {
  const std::int64_t a = space_.chunk_begin(c), b = space_.chunk_end(c);
  if (a >= b) return 0;
  const std::size_t f = space_.field_at(b - 1);
  return row_pos(f, b - space_[f].row0);
}

std::int64_t Rearranger::plan(int rounds) {
  rounds_ = rounds;
  space_.split(static_cast<std::int64_t>(nw_) * rounds);
  const auto n = static_cast<std::size_t>(rounds) * static_cast<std::size_t>(size_);
  send_counts_.assign(n, 0);
  send_displs_.assign(n, 0);
  recv_counts_.assign(n, 0);
  recv_displs_.assign(n, 0);
  std::int64_t slab_most = 0;
  send_capacity_ = recv_capacity_ = 0;
  auto bytes_of = [&](std::int64_t c, int rank) {
    std::int64_t bytes = 0;
    space_.for_each_overlap(space_.chunk_begin(c), space_.chunk_end(c), [&](std::size_t f, std::int64_t ra, std::int64_t rb) {
      const FieldGeometry& g = *space_[f].g;
      bytes += box_bytes(g, g.file_boxes[static_cast<std::size_t>(rank)], ra, rb);
    });
    return bytes;
  };
  for (int t = 0; t < rounds; ++t) {
    const std::size_t base = static_cast<std::size_t>(t) * static_cast<std::size_t>(size_);
    std::int64_t send_total = 0, recv_total = 0, slab = 0;
    for (int w = 0; w < nw_; ++w) {
      const int wr = setup_.writers[static_cast<std::size_t>(w)];
      if (slabs_->same_node(wr)) continue;  // packed straight into its slab
      const std::int64_t bytes = bytes_of(chunk(t, w), rank_);
      const std::size_t d = base + static_cast<std::size_t>(wr);
      send_counts_[d] = static_cast<int>(std::min<std::int64_t>(bytes, INT_MAX));
      send_displs_[d] = static_cast<int>(std::min<std::int64_t>(send_total, INT_MAX));
      send_total += bytes;
    }
    if (my_writer_ >= 0) {
      for (int s = 0; s < size_; ++s) {
        if (slabs_->same_node(s)) continue;
        const std::int64_t bytes = bytes_of(chunk(t, my_writer_), s);
        recv_counts_[base + static_cast<std::size_t>(s)] = static_cast<int>(std::min<std::int64_t>(bytes, INT_MAX));
        recv_displs_[base + static_cast<std::size_t>(s)] = static_cast<int>(std::min<std::int64_t>(recv_total, INT_MAX));
        recv_total += bytes;
      }
      slab = slab_bytes(t);
    }
    send_capacity_ = std::max(send_capacity_, send_total);
    recv_capacity_ = std::max(recv_capacity_, recv_total);
    slab_most = std::max(slab_most, slab);
  }
  // Buffers are sized for the largest round of each kind: that sum is what this rank holds.
  return send_capacity_ + recv_capacity_ + slab_most;
}

void Rearranger::set_positions(std::vector<std::int64_t> pos, std::int64_t record_size) {
  pos_ = std::move(pos);
  record_size_ = record_size;
  slab_capacity_ = 0;
  if (my_writer_ >= 0) {
    for (int t = 0; t < rounds_; ++t) slab_capacity_ = std::max(slab_capacity_, slab_bytes(t));
  }
  std::int64_t largest = slab_capacity_;
  mpi_check(MPI_Allreduce(MPI_IN_PLACE, &largest, 1, MPI_INT64_T, MPI_MAX, comm_), "MPI_Allreduce(slab size)");
  check_int_count(largest, "write");  // the same on every rank: all throw or none
  slabs_->reserve(slab_capacity_);
}

void Rearranger::place(const FileOffsets& offsets) {
  if (!setup_.file_bytes) return;
  std::vector<std::int64_t> pos;
  for (std::size_t f = 0; f < space_.size(); ++f) {
    const FieldGeometry& g = *space_[f].g;
    if (static_cast<std::size_t>(g.varid) >= offsets.var_begin.size()) {
      throw Error(ErrorKind::Internal, "rearranger: no file offset for variable " + g.name);
    }
    pos.push_back(offsets.var_begin[static_cast<std::size_t>(g.varid)]);
    // The row space must be the file's order: each variable after the previous one's bytes.
    if (f > 0 && pos[f] < pos[f - 1] + space_[f - 1].g->bytes()) {
      throw Error(ErrorKind::Internal, "rearranger: variable " + g.name + " begins at byte " + std::to_string(pos[f]) +
                                           ", inside " + space_[f - 1].g->name + " (" + std::to_string(pos[f - 1]) +
                                           " + " + std::to_string(space_[f - 1].g->bytes()) + ")");
    }
  }
  set_positions(std::move(pos), offsets.record_size);
}

void Rearranger::run_round(int t, std::span<const void* const> data, int record, RequestList& out,
                           PhaseTimes& times) {
  const std::size_t base = static_cast<std::size_t>(t) * static_cast<std::size_t>(size_);
  const auto me = static_cast<std::size_t>(rank_);
  const bool swap = setup_.file_bytes;

  // The writers on this node have written their previous round: their slabs may be refilled.
  double t0 = now();
  slabs_->sync();
  double t1 = now();
  times.exchange += t1 - t0;

  // 1. Pack: one pass over the model's memory, halo skipped.
  for (int w = 0; w < nw_; ++w) {
    const int wr = setup_.writers[static_cast<std::size_t>(w)];
    const std::int64_t c = chunk(t, w);
    if (slabs_->same_node(wr)) {
      std::byte* slab = slabs_->slab(wr);
      const std::int64_t begin = chunk_pos_begin(c);
      space_.for_each_overlap(space_.chunk_begin(c), space_.chunk_end(c), [&](std::size_t f, std::int64_t ra, std::int64_t rb) {
        const FieldGeometry& g = *space_[f].g;
        scatter_rows(g, data[f], g.file_boxes[me], ra, rb, slab + (row_pos(f, ra) - begin), swap);
      });
    } else {
      std::byte* p = send_.get() + send_displs_[base + static_cast<std::size_t>(wr)];
      space_.for_each_overlap(space_.chunk_begin(c), space_.chunk_end(c), [&](std::size_t f, std::int64_t ra, std::int64_t rb) {
        const FieldGeometry& g = *space_[f].g;
        p = pack_rows(g, data[f], g.file_boxes[me], ra, rb, p, swap);
      });
    }
  }
  double t2 = now();
  times.reorder += t2 - t1;

  // 2. Pieces across nodes; then every piece of this node is in its slab.
  if (exchange_) {
    mpi_check(MPI_Alltoallv(send_.get(), send_counts_.data() + base, send_displs_.data() + base, MPI_BYTE, recv_.get(),
                            recv_counts_.data() + base, recv_displs_.data() + base, MPI_BYTE, comm_),
              "MPI_Alltoallv(rearranger)");
  }
  slabs_->sync();
  double t3 = now();
  times.exchange += t3 - t2;
  if (my_writer_ < 0) return;

  const std::int64_t c = chunk(t, my_writer_);
  const std::int64_t a = space_.chunk_begin(c), b = space_.chunk_end(c);
  const std::int64_t begin = chunk_pos_begin(c);
  std::byte* slab = slabs_->slab(rank_);
  for (int s = 0; s < size_ && exchange_; ++s) {
    if (recv_counts_[base + static_cast<std::size_t>(s)] == 0) continue;
    const std::byte* p = recv_.get() + recv_displs_[base + static_cast<std::size_t>(s)];
    space_.for_each_overlap(a, b, [&](std::size_t f, std::int64_t ra, std::int64_t rb) {
      const FieldGeometry& g = *space_[f].g;
      const Box& box = g.file_boxes[static_cast<std::size_t>(s)];
      const std::int64_t rowb = g.row_bytes();
      const auto width = static_cast<std::size_t>(box.extent(kAxisI) * static_cast<std::int64_t>(g.elem));
      std::byte* rows = slab + (row_pos(f, ra) - begin) + box.lo[kAxisI] * static_cast<std::int64_t>(g.elem);
      for_each_row(g, box, ra, rb, [&](std::int64_t k, std::int64_t j) {
        std::memcpy(rows + (k * g.nj + j - ra) * rowb, p, width);
        p += width;
      });
    });
  }

  // 3. What the writer hands on.
  if (setup_.file_bytes) {
    // netCDF's padding between variables: zeros, so the chunk goes out as one piece.
    std::int64_t end = begin;
    space_.for_each_overlap(a, b, [&](std::size_t f, std::int64_t ra, std::int64_t rb) {
      const std::int64_t p0 = row_pos(f, ra);
      if (p0 > end) std::memset(slab + (end - begin), 0, static_cast<std::size_t>(p0 - end));
      end = row_pos(f, rb);
    });
    out.file_bytes = {begin + static_cast<std::int64_t>(record) * record_size_, slab, end - begin};
  } else {
    space_.for_each_overlap(a, b, [&](std::size_t f, std::int64_t ra, std::int64_t rb) {
      add_row_requests(out, *space_[f].g, record, ra, rb, slab + (row_pos(f, ra) - begin));
    });
  }
  times.reorder += now() - t3;
}

}  // namespace nwpio::detail
