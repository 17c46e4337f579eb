// The arithmetic of a rearranged frame, with no communication: how the row space is cut into
// writers x rounds chunks, what every rank sends to which writer in each round, what each
// writer stages, and how many rounds keep every rank under the staging limit. Every rank of a
// stream computes the same numbers from the same inputs (the grid is known to all), which is
// why the Rearranger needs no exchange of counts; and because nothing here touches MPI, the
// plans of thousands of made-up ranks can be built and checked in a unit test.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "core/row_space.hpp"

namespace nwpio::detail {

// Which writer owns chunk c: round c / nwriters, writer c % nwriters. Chunks are contiguous in
// the row space, so round t's chunks together are one stretch of it.
inline std::int64_t chunk_of(int round, int writer, int nwriters) noexcept {
  return static_cast<std::int64_t>(round) * nwriters + writer;
}

// Positions of the row space's fields (the bytes a writer stages them at): compact (fields back
// to back) until a backend's placement replaces them.
struct RowPositions {
  std::vector<std::int64_t> field_begin;  // by field of the row space
  std::int64_t row_pos(const RowSpace& s, std::size_t f, std::int64_t r) const noexcept {
    return field_begin[f] + r * s[f].g->row_bytes();
  }
  // [begin, end) of chunk c: its first row to the end of its last row (0, 0 when empty).
  std::int64_t chunk_begin(const RowSpace& s, std::int64_t c) const noexcept;
  std::int64_t chunk_end(const RowSpace& s, std::int64_t c) const noexcept;
  static RowPositions compact(const RowSpace& s);
};

// One rank's part in a frame split into `rounds` rounds.
struct RankRounds {
  int rounds = 1;
  std::vector<int> send_counts, send_displs;  // rounds x size: pieces for writers on other nodes
  std::vector<int> recv_counts, recv_displs;  // rounds x size: pieces from ranks on other nodes (writers)
  std::int64_t send_capacity = 0, recv_capacity = 0;  // largest round of each
  std::int64_t slab_capacity = 0;                     // largest slab this rank stages (writers)
  std::int64_t staging() const noexcept { return send_capacity + recv_capacity + slab_capacity; }
};

// `space` must be split into writers.size() x rounds chunks already. node_of[r]: the node of
// rank r (ranks on one node reach each other's slabs directly; other pieces are messages).
// Counts are clamped to INT_MAX (check_staging refuses such plans).
RankRounds plan_rank(const RowSpace& space, const RowPositions& pos, const std::vector<int>& writers,
                     const std::vector<int>& node_of, int rank, int rounds);

// The round count: the smallest for which no rank stages more than `limit` bytes (a limit
// below the longest row is that row), more while some rank is still over it (uneven patches),
// up to one row per chunk. `worst(rounds)` splits `space` into nwriters x rounds chunks and
// returns the largest staging over all ranks (an allreduce in the Rearranger, a loop in tests).
// On return `space` is split for the chosen count, and `worst_staging` holds its staging.
struct RoundChoice {
  int rounds = 1;
  std::int64_t worst_staging = 0;
};
RoundChoice choose_rounds(RowSpace& space, int nwriters, std::int64_t limit,
                  const std::function<std::int64_t(int rounds)>& worst);

// Throws Error(Unsupported) when one round would make one rank `what` (stage, write) more than
// INT_MAX bytes, which MPI counts cannot express.
void check_int_count(std::int64_t bytes, const char* what);

}  // namespace nwpio::detail
