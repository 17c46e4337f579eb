// The rearranger's arithmetic on made-up geometry, no MPI: the row space cut into chunks of
// whole rows balanced by bytes, and every rank's counts for every writer and round, for
// hundreds of ranks, uneven splits, several writer counts, nodes, and staging limits. What one
// rank sends a writer is what that writer expects from it; each chunk's rows are held by the
// ranks exactly once; no rank stages more than the limit.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "core/pack.hpp"
#include "core/rearrange_plan.hpp"
#include "made_up_grid.hpp"

namespace nwpio::detail {
namespace {

using test::frame_fields;
using test::made_up_grid;
using test::made_up_layout;

TEST(RowSpace, ChunksAreWholeRowsInOrderAndBalanced) {
  const StreamLayout L = made_up_layout(made_up_grid(47, 53, 7, 3, 5, 0));
  for (bool first : {false, true}) {
    RowSpace space(frame_fields(L, first));
    for (std::int64_t chunks : {1, 2, 3, 7, 15, 64, 1000}) {
      space.split(chunks);
      EXPECT_EQ(space.chunk_begin(0), 0);
      EXPECT_EQ(space.chunk_end(chunks - 1), space.total_rows());
      const std::int64_t target = space.total_bytes() / chunks;
      for (std::int64_t c = 0; c < chunks; ++c) {
        ASSERT_LE(space.chunk_begin(c), space.chunk_end(c)) << "chunk " << c << " of " << chunks;
        if (c > 0) {
          EXPECT_EQ(space.chunk_begin(c), space.chunk_end(c - 1));
        }
        // Each boundary lies within one row (or one small variable) of its byte target.
        std::int64_t bytes = 0;
        space.for_each_overlap(space.chunk_begin(c), space.chunk_end(c), [&](std::size_t f, std::int64_t a, std::int64_t b) {
          bytes += (b - a) * space[f].g->row_bytes();
        });
        if (chunks <= 15) {
          EXPECT_LE(std::abs(bytes - target), 2 * space.max_row_bytes() + 2 * 19 * 8) << "chunk " << c << " of " << chunks;
        }
      }
      // A variable without i and j (Z, scalar, Times) is never cut.
      for (std::size_t f = 0; f < space.size(); ++f) {
        const FieldGeometry& g = *space[f].g;
        if (g.ni != 1 || g.nj != 1) continue;
        for (std::int64_t c = 1; c < chunks; ++c) {
          const std::int64_t cut = space.chunk_begin(c);
          EXPECT_FALSE(cut > space[f].row0 && cut < space[f].row0 + g.rows()) << g.name << " cut at chunk " << c;
        }
      }
    }
  }
}

// Variables without i and j (Times, ZNU, P_TOP, ...) stay whole in one chunk, checked on a tiny
// grid with many levels, where they hold a large part of the frame and byte targets fall inside
// them for many chunk counts.
TEST(RowSpace, VariablesWithoutIAndJAreNeverCut) {
  const StreamLayout L = made_up_layout(made_up_grid(4, 3, 60, 1, 1, 0));
  RowSpace space(frame_fields(L, true));
  int inside = 0;  // boundaries whose byte target fell inside such a variable
  for (std::int64_t chunks = 2; chunks <= 300; ++chunks) {
    space.split(chunks);
    for (std::size_t f = 0; f < space.size(); ++f) {
      const FieldGeometry& g = *space[f].g;
      if (g.ni != 1 || g.nj != 1 || g.rows() < 2) continue;
      const std::int64_t end_byte = space[f].byte0 + g.rows() * g.row_bytes();
      for (std::int64_t c = 1; c < chunks; ++c) {
        const std::int64_t target = space.total_bytes() / chunks * c + space.total_bytes() % chunks * c / chunks;
        if (target > space[f].byte0 && target < end_byte) ++inside;
        const std::int64_t cut = space.chunk_begin(c);
        EXPECT_FALSE(cut > space[f].row0 && cut < space[f].row0 + g.rows()) << g.name << " cut, " << chunks << " chunks";
      }
    }
  }
  EXPECT_GT(inside, 0) << "no byte target fell inside a variable without i and j: the case proves nothing";
}

struct PlanCase {
  int px, py, writers, ranks_per_node;  // ranks_per_node 0: every rank on one node
  std::int64_t limit;
};

// Bytes of chunk c that `rank` holds, counted here from the boxes, independently of the plan.
std::int64_t held(const RowSpace& s, std::int64_t c, int rank) {
  std::int64_t bytes = 0;
  s.for_each_overlap(s.chunk_begin(c), s.chunk_end(c), [&](std::size_t f, std::int64_t a, std::int64_t b) {
    const FieldGeometry& g = *s[f].g;
    const Box& box = g.file_boxes[static_cast<std::size_t>(rank)];
    for (std::int64_t r = a; r < b; ++r) {
      const std::int64_t k = r / g.nj, j = r % g.nj;
      if (k >= box.lo[kAxisK] && k < box.hi[kAxisK] && j >= box.lo[kAxisJ] && j < box.hi[kAxisJ]) {
        bytes += box.extent(kAxisI) * static_cast<std::int64_t>(g.elem);
      }
    }
  });
  return bytes;
}

class RearrangePlan : public ::testing::TestWithParam<PlanCase> {};

TEST_P(RearrangePlan, CountsAgreeAndStagingStaysUnderTheLimit) {
  const PlanCase pc = GetParam();
  const int n = pc.px * pc.py;
  const StreamLayout L = made_up_layout(made_up_grid(67, 43, 6, pc.px, pc.py, 0));
  RowSpace space(frame_fields(L, true));
  std::vector<int> writers;
  const int nw = std::min(pc.writers, n);
  for (int i = 0; i < nw; ++i) writers.push_back(static_cast<int>(static_cast<std::int64_t>(i) * n / nw));
  std::vector<int> node_of(static_cast<std::size_t>(n));
  for (int r = 0; r < n; ++r) node_of[static_cast<std::size_t>(r)] = pc.ranks_per_node > 0 ? r / pc.ranks_per_node * pc.ranks_per_node : 0;
  const RowPositions pos = RowPositions::compact(space);

  std::vector<RankRounds> plans(static_cast<std::size_t>(n));
  const RoundChoice choice = choose_rounds(space, nw, pc.limit, [&](int rounds) {
    space.split(static_cast<std::int64_t>(nw) * rounds);
    std::int64_t worst = 0;
    for (int r = 0; r < n; ++r) {
      plans[static_cast<std::size_t>(r)] = plan_rank(space, pos, writers, node_of, r, rounds);
      worst = std::max(worst, plans[static_cast<std::size_t>(r)].staging());
    }
    return worst;
  });
  const int rounds = choice.rounds;
  const std::int64_t max_rounds = (space.total_rows() + nw - 1) / nw;
  if (rounds < max_rounds) {
    EXPECT_LE(choice.worst_staging, std::max(pc.limit, space.max_row_bytes())) << rounds << " rounds";
  }
  for (int t = 0; t < rounds; ++t) {
    for (int w = 0; w < nw; ++w) {
      const int wr = writers[static_cast<std::size_t>(w)];
      const std::int64_t c = chunk_of(t, w, nw);
      std::int64_t from_all = 0;
      for (int r = 0; r < n; ++r) {
        const std::int64_t h = held(space, c, r);
        from_all += h;
        const std::size_t i_send = static_cast<std::size_t>(t) * static_cast<std::size_t>(n) + static_cast<std::size_t>(wr);
        const std::size_t i_recv = static_cast<std::size_t>(t) * static_cast<std::size_t>(n) + static_cast<std::size_t>(r);
        const bool same_node = node_of[static_cast<std::size_t>(r)] == node_of[static_cast<std::size_t>(wr)];
        // A piece for a writer on the same node goes straight into its slab: no message.
        EXPECT_EQ(plans[static_cast<std::size_t>(r)].send_counts[i_send], same_node ? 0 : h)
            << "rank " << r << " -> writer " << wr << " round " << t;
        EXPECT_EQ(plans[static_cast<std::size_t>(wr)].recv_counts[i_recv], same_node ? 0 : h)
            << "writer " << wr << " <- rank " << r << " round " << t;
      }
      // The chunk's rows are held by the ranks exactly once.
      std::int64_t chunk_bytes = 0;
      space.for_each_overlap(space.chunk_begin(c), space.chunk_end(c), [&](std::size_t f, std::int64_t a, std::int64_t b) {
        chunk_bytes += (b - a) * space[f].g->row_bytes();
      });
      EXPECT_EQ(from_all, chunk_bytes) << "chunk " << c;
      EXPECT_GE(plans[static_cast<std::size_t>(wr)].slab_capacity, pos.chunk_end(space, c) - pos.chunk_begin(space, c));
    }
  }
  // Displacements: each rank's messages of a round are back to back in its send buffer.
  for (int r = 0; r < n; ++r) {
    const RankRounds& p = plans[static_cast<std::size_t>(r)];
    for (int t = 0; t < rounds; ++t) {
      std::int64_t at = 0;
      for (int w = 0; w < nw; ++w) {
        const std::size_t i = static_cast<std::size_t>(t) * static_cast<std::size_t>(n) + static_cast<std::size_t>(writers[static_cast<std::size_t>(w)]);
        if (p.send_counts[i] == 0) continue;
        EXPECT_EQ(p.send_displs[i], at) << "rank " << r << " round " << t;
        at += p.send_counts[i];
      }
      EXPECT_LE(at, p.send_capacity);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    Geometry, RearrangePlan,
    ::testing::Values(PlanCase{1, 1, 1, 0, 1 << 30}, PlanCase{2, 1, 2, 0, 1 << 30}, PlanCase{1, 2, 2, 1, 1 << 30},
                      PlanCase{3, 5, 15, 4, 1 << 30}, PlanCase{3, 5, 4, 2, 20000}, PlanCase{7, 9, 63, 8, 50000},
                      PlanCase{12, 16, 192, 24, 1 << 30}, PlanCase{12, 16, 12, 16, 30000}, PlanCase{1, 40, 5, 0, 4096}),
    [](const auto& param_info) {
      const PlanCase& c = param_info.param;
      return std::to_string(c.px) + "x" + std::to_string(c.py) + "_w" + std::to_string(c.writers) + "_node" +
             std::to_string(c.ranks_per_node) + "_limit" + std::to_string(c.limit);
    });

}  // namespace
}  // namespace nwpio::detail
