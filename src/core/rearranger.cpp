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

int to_int_count(std::int64_t n) {
  if (n > INT_MAX) {
    throw Error(ErrorKind::Unsupported, "rearranger: one round would move " + std::to_string(n) +
                                            " bytes to or from one rank, over MPI's INT_MAX; lower max_round_bytes");
  }
  return static_cast<int>(n);
}

}  // namespace

template <class F>
void Rearranger::for_each_overlap(std::int64_t a, std::int64_t b, F&& fn) const {
  if (a >= b) return;
  // Last field starting at or before a.
  auto it = std::upper_bound(fields_.begin(), fields_.end(), a,
                             [](std::int64_t row, const Field& f) { return row < f.row0; });
  std::size_t f = static_cast<std::size_t>(std::max<std::ptrdiff_t>(0, (it - fields_.begin()) - 1));
  for (; f < fields_.size() && fields_[f].row0 < b; ++f) {
    const std::int64_t r0 = fields_[f].row0, r1 = r0 + fields_[f].g->rows();
    const std::int64_t ra = std::max(a, r0), rb = std::min(b, r1);
    if (ra < rb) fn(f, ra - r0, rb - r0);
  }
}

Rearranger::Rearranger(MPI_Comm comm, std::vector<const FieldGeometry*> fields, std::vector<int> writers,
                       std::int64_t max_round_bytes)
    : comm_(comm), writers_(std::move(writers)) {
  mpi_check(MPI_Comm_rank(comm, &rank_), "MPI_Comm_rank");
  mpi_check(MPI_Comm_size(comm, &size_), "MPI_Comm_size");
  nw_ = static_cast<int>(writers_.size());
  for (int w = 0; w < nw_; ++w) {
    if (writers_[static_cast<std::size_t>(w)] == rank_) my_writer_ = w;
  }
  std::int64_t max_row = 1;
  for (const FieldGeometry* g : fields) {
    fields_.push_back({g, total_rows_, total_bytes_});
    total_rows_ += g->rows();
    total_bytes_ += g->bytes();
    max_row = std::max(max_row, g->row_bytes());
  }
  // A chunk holds at least one row, so a limit below a row's bytes is a row.
  const std::int64_t limit =
      std::max(max_row, std::max<std::int64_t>(1, std::min<std::int64_t>(max_round_bytes, INT_MAX)));
  // Smallest round count whose chunks fit the limit; more rounds while some rank's send or
  // receive is still over it (uneven patches), up to one row per chunk.
  const std::int64_t max_rounds = std::max<std::int64_t>(1, (total_rows_ + nw_ - 1) / nw_);
  std::int64_t rounds = std::clamp<std::int64_t>((total_bytes_ + nw_ * limit - 1) / (nw_ * limit), 1, max_rounds);
  for (;;) {
    const std::int64_t mine = plan(static_cast<int>(rounds));
    std::int64_t worst = 0;
    mpi_check(MPI_Allreduce(&mine, &worst, 1, MPI_INT64_T, MPI_MAX, comm_), "MPI_Allreduce(rearranger rounds)");
    if (worst <= limit || rounds >= max_rounds) break;
    const std::int64_t scaled = (rounds * worst + limit - 1) / limit;
    rounds = std::min(max_rounds, std::max(rounds + 1, scaled));
  }
  // Counts and displacements are MPI ints.
  to_int_count(send_capacity_);
  to_int_count(recv_capacity_);
}

std::int64_t Rearranger::plan(int rounds) {
  rounds_ = rounds;
  const std::int64_t chunks = static_cast<std::int64_t>(nw_) * rounds;
  bounds_.assign(static_cast<std::size_t>(chunks + 1), 0);
  // Chunk c starts at the row nearest to byte c * B / chunks (whole rows, monotone).
  const std::int64_t q = total_bytes_ / chunks, r = total_bytes_ % chunks;
  for (std::int64_t c = 1; c < chunks && !fields_.empty(); ++c) {
    const std::int64_t target = q * c + r * c / chunks;
    auto it = std::upper_bound(fields_.begin(), fields_.end(), target,
                               [](std::int64_t b, const Field& f) { return b < f.byte0; });
    const Field& f = *(it - 1);
    const std::int64_t rb = f.g->row_bytes();
    const std::int64_t row = f.row0 + std::min(f.g->rows(), (target - f.byte0 + rb / 2) / rb);
    bounds_[static_cast<std::size_t>(c)] = std::max(bounds_[static_cast<std::size_t>(c - 1)], row);
  }
  bounds_[static_cast<std::size_t>(chunks)] = total_rows_;

  const auto n = static_cast<std::size_t>(rounds) * static_cast<std::size_t>(size_);
  send_counts_.assign(n, 0);
  send_displs_.assign(n, 0);
  recv_counts_.assign(n, 0);
  recv_displs_.assign(n, 0);
  std::int64_t worst = 0;
  send_capacity_ = recv_capacity_ = 0;
  for (int t = 0; t < rounds; ++t) {
    const std::size_t base = static_cast<std::size_t>(t) * static_cast<std::size_t>(size_);
    std::int64_t send_total = 0;
    for (int w = 0; w < nw_; ++w) {
      std::int64_t bytes = 0;
      for_each_overlap(chunk_begin(t, w), chunk_end(t, w), [&](std::size_t f, std::int64_t ra, std::int64_t rb) {
        const FieldGeometry& g = *fields_[f].g;
        bytes += box_bytes(g, g.file_boxes[static_cast<std::size_t>(rank_)], ra, rb);
      });
      const std::size_t d = base + static_cast<std::size_t>(writers_[static_cast<std::size_t>(w)]);
      send_counts_[d] = static_cast<int>(std::min<std::int64_t>(bytes, INT_MAX));
      send_displs_[d] = static_cast<int>(std::min<std::int64_t>(send_total, INT_MAX));
      send_total += bytes;
    }
    std::int64_t recv_total = 0;
    if (my_writer_ >= 0) {
      for (int s = 0; s < size_; ++s) {
        std::int64_t bytes = 0;
        for_each_overlap(chunk_begin(t, my_writer_), chunk_end(t, my_writer_),
                         [&](std::size_t f, std::int64_t ra, std::int64_t rb) {
                           const FieldGeometry& g = *fields_[f].g;
                           bytes += box_bytes(g, g.file_boxes[static_cast<std::size_t>(s)], ra, rb);
                         });
        recv_counts_[base + static_cast<std::size_t>(s)] = static_cast<int>(std::min<std::int64_t>(bytes, INT_MAX));
        recv_displs_[base + static_cast<std::size_t>(s)] = static_cast<int>(std::min<std::int64_t>(recv_total, INT_MAX));
        recv_total += bytes;
      }
    }
    send_capacity_ = std::max(send_capacity_, send_total);
    recv_capacity_ = std::max(recv_capacity_, recv_total);
    worst = std::max({worst, send_total, recv_total});
  }
  return worst;
}

void Rearranger::run_round(int t, std::span<const void* const> data, int record, RequestList& out,
                           PhaseTimes& times) {
  if (!send_ && send_capacity_ > 0) send_ = std::make_unique_for_overwrite<std::byte[]>(static_cast<std::size_t>(send_capacity_));
  if (!recv_ && recv_capacity_ > 0) {
    recv_ = std::make_unique_for_overwrite<std::byte[]>(static_cast<std::size_t>(recv_capacity_));
    slab_ = std::make_unique_for_overwrite<std::byte[]>(static_cast<std::size_t>(recv_capacity_));
  }
  const std::size_t base = static_cast<std::size_t>(t) * static_cast<std::size_t>(size_);
  const auto me = static_cast<std::size_t>(rank_);

  // Pack: straight from the model's memory, halo skipped, into file order, per writer.
  double t0 = now();
  for (int w = 0; w < nw_; ++w) {
    const std::size_t d = base + static_cast<std::size_t>(writers_[static_cast<std::size_t>(w)]);
    std::byte* p = send_.get() + send_displs_[d];
    for_each_overlap(chunk_begin(t, w), chunk_end(t, w), [&](std::size_t f, std::int64_t ra, std::int64_t rb) {
      const FieldGeometry& g = *fields_[f].g;
      p = pack_rows(g, data[f], g.file_boxes[me], ra, rb, p);
    });
  }
  double t1 = now();
  times.reorder += t1 - t0;

  mpi_check(MPI_Alltoallv(send_.get(), send_counts_.data() + base, send_displs_.data() + base, MPI_BYTE, recv_.get(),
                          recv_counts_.data() + base, recv_displs_.data() + base, MPI_BYTE, comm_),
            "MPI_Alltoallv(rearranger)");
  double t2 = now();
  times.exchange += t2 - t1;
  if (my_writer_ < 0) return;

  // Unpack every source's rows into the slab (contiguous in file order per variable piece).
  const std::int64_t a = chunk_begin(t, my_writer_), b = chunk_end(t, my_writer_);
  for (int s = 0; s < size_; ++s) {
    const std::byte* p = recv_.get() + recv_displs_[base + static_cast<std::size_t>(s)];
    std::byte* slab = slab_.get();
    for_each_overlap(a, b, [&](std::size_t f, std::int64_t ra, std::int64_t rb) {
      const FieldGeometry& g = *fields_[f].g;
      const Box& box = g.file_boxes[static_cast<std::size_t>(s)];
      const std::int64_t rowb = g.row_bytes();
      const auto width = static_cast<std::size_t>(box.extent(kAxisI) * static_cast<std::int64_t>(g.elem));
      const std::int64_t i_off = box.lo[kAxisI] * static_cast<std::int64_t>(g.elem);
      for_each_row(g, box, ra, rb, [&](std::int64_t k, std::int64_t j) {
        std::memcpy(slab + (k * g.nj + j - ra) * rowb + i_off, p, width);
        p += width;
      });
      slab += (rb - ra) * rowb;
    });
  }
  std::byte* slab = slab_.get();
  for_each_overlap(a, b, [&](std::size_t f, std::int64_t ra, std::int64_t rb) {
    const FieldGeometry& g = *fields_[f].g;
    add_row_requests(out, g, record, ra, rb, slab);
    slab += (rb - ra) * g.row_bytes();
  });
  times.reorder += now() - t2;
}

}  // namespace nwpio::detail
