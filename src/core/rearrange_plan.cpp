#include "core/rearrange_plan.hpp"

#include <algorithm>
#include <climits>

#include "core/pack.hpp"
#include "nwpio/error.hpp"

namespace nwpio::detail {

std::int64_t RowPositions::chunk_begin(const RowSpace& s, std::int64_t c) const noexcept {
  const std::int64_t a = s.chunk_begin(c);
  if (a >= s.chunk_end(c)) return 0;
  const std::size_t f = s.field_at(a);
  return row_pos(s, f, a - s[f].row0);
}

std::int64_t RowPositions::chunk_end(const RowSpace& s, std::int64_t c) const noexcept {
  const std::int64_t a = s.chunk_begin(c), b = s.chunk_end(c);
  if (a >= b) return 0;
  const std::size_t f = s.field_at(b - 1);
  return row_pos(s, f, b - s[f].row0);
}

RowPositions RowPositions::compact(const RowSpace& s) {
  RowPositions p;
  for (std::size_t f = 0; f < s.size(); ++f) p.field_begin.push_back(s[f].byte0);
  return p;
}

namespace {

int clamp_int(std::int64_t v) { return static_cast<int>(std::min<std::int64_t>(v, INT_MAX)); }

// Bytes of chunk c that `rank` holds (its file boxes' rows inside the chunk).
std::int64_t bytes_of(const RowSpace& space, std::int64_t c, int rank) {
  std::int64_t bytes = 0;
  space.for_each_overlap(space.chunk_begin(c), space.chunk_end(c), [&](std::size_t f, std::int64_t ra, std::int64_t rb) {
    const FieldGeometry& g = *space[f].g;
    bytes += box_bytes(g, g.file_boxes[static_cast<std::size_t>(rank)], ra, rb);
  });
  return bytes;
}

}  // namespace

RankRounds plan_rank(const RowSpace& space, const RowPositions& pos, const std::vector<int>& writers,
                     const std::vector<int>& node_of, int rank, int rounds) {
  const int size = static_cast<int>(node_of.size());
  const int nw = static_cast<int>(writers.size());
  const int my_node = node_of[static_cast<std::size_t>(rank)];
  int my_writer = -1;
  for (int w = 0; w < nw; ++w) {
    if (writers[static_cast<std::size_t>(w)] == rank) my_writer = w;
  }
  RankRounds out;
  out.rounds = rounds;
  const auto n = static_cast<std::size_t>(rounds) * static_cast<std::size_t>(size);
  out.send_counts.assign(n, 0);
  out.send_displs.assign(n, 0);
  out.recv_counts.assign(n, 0);
  out.recv_displs.assign(n, 0);
  for (int t = 0; t < rounds; ++t) {
    const std::size_t base = static_cast<std::size_t>(t) * static_cast<std::size_t>(size);
    std::int64_t send_total = 0, recv_total = 0;
    for (int w = 0; w < nw; ++w) {
      const int wr = writers[static_cast<std::size_t>(w)];
      if (node_of[static_cast<std::size_t>(wr)] == my_node) continue;  // packed straight into its slab
      const std::int64_t bytes = bytes_of(space, chunk_of(t, w, nw), rank);
      const std::size_t d = base + static_cast<std::size_t>(wr);
      out.send_counts[d] = clamp_int(bytes);
      out.send_displs[d] = clamp_int(send_total);
      send_total += bytes;
    }
    if (my_writer >= 0) {
      const std::int64_t c = chunk_of(t, my_writer, nw);
      for (int s = 0; s < size; ++s) {
        if (node_of[static_cast<std::size_t>(s)] == my_node) continue;
        const std::int64_t bytes = bytes_of(space, c, s);
        out.recv_counts[base + static_cast<std::size_t>(s)] = clamp_int(bytes);
        out.recv_displs[base + static_cast<std::size_t>(s)] = clamp_int(recv_total);
        recv_total += bytes;
      }
      out.slab_capacity = std::max(out.slab_capacity, pos.chunk_end(space, c) - pos.chunk_begin(space, c));
    }
    out.send_capacity = std::max(out.send_capacity, send_total);
    out.recv_capacity = std::max(out.recv_capacity, recv_total);
  }
  return out;
}

RoundChoice choose_rounds(RowSpace& space, int nwriters, std::int64_t limit_in,
                  const std::function<std::int64_t(int rounds)>& worst) {
  const std::int64_t nw = std::max(1, nwriters);
  // A chunk holds at least one row, so a limit below a row's bytes is a row.
  const std::int64_t limit =
      std::max(space.max_row_bytes(), std::max<std::int64_t>(1, std::min<std::int64_t>(limit_in, INT_MAX)));
  const std::int64_t max_rounds = std::max<std::int64_t>(1, (space.total_rows() + nw - 1) / nw);
  std::int64_t rounds = std::clamp<std::int64_t>((space.total_bytes() + nw * limit - 1) / (nw * limit), 1, max_rounds);
  for (;;) {
    const std::int64_t most = worst(static_cast<int>(rounds));
    if (most <= limit || rounds >= max_rounds) return {static_cast<int>(rounds), most};
    const std::int64_t scaled = (rounds * most + limit - 1) / limit;
    rounds = std::min(max_rounds, std::max(rounds + 1, scaled));
  }
}

void check_int_count(std::int64_t n, const char* what) {
  if (n > INT_MAX) {
    throw Error(ErrorKind::Unsupported, std::string("rearranger: one round would ") + what + " " + std::to_string(n) +
                                            " bytes on one rank, over MPI's INT_MAX; lower max_round_bytes");
  }
}

}  // namespace nwpio::detail
