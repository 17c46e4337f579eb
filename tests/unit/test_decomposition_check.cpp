// The tiling check behind Decomposition::from_boxes, run on made-up ranks without MPI: every
// failure it knows, the order in which it reports them, and decompositions of thousands of ranks.
#include <gtest/gtest.h>

#include "core/decomposition_check.hpp"
#include "nwpio/wrf_decompose.hpp"

namespace nwpio {
namespace {

using detail::check_tiling;
using detail::RankBoxes;

// WRF bounds -> boxes, written out independently of Decomposition::from_wrf.
Box box1(int s0, int e0, int s1, int e1, int s2, int e2) {
  Box b;
  b.lo = {s0 - 1, s1 - 1, s2 - 1};
  b.hi = {e0, e1, e2};
  return b;
}

std::vector<RankBoxes> wrf_split(int e_we, int e_sn, int e_vert, int px, int py, int halo = 3) {
  std::vector<RankBoxes> ranks;
  for (int r = 0; r < px * py; ++r) {
    const WrfBounds w = wrf::split_domain(e_we, e_sn, e_vert, px, py, r, halo);
    ranks.push_back({box1(w.ids, w.ide, w.jds, w.jde, w.kds, w.kde), box1(w.ims, w.ime, w.jms, w.jme, w.kms, w.kme),
                     box1(w.ips, w.ipe, w.jps, w.jpe, w.kps, w.kpe)});
  }
  return ranks;
}

std::string msg(const std::vector<RankBoxes>& ranks) {
  auto m = check_tiling(ranks);
  return m ? *m : std::string("<no error>");
}

TEST(DecompositionCheck, WrfSplitsAreValid) {
  for (int p = 1; p <= 24; ++p) {
    const auto [px, py] = wrf::choose_nproc(p);
    for (auto [x, y] : {std::pair{px, py}, std::pair{py, px}, std::pair{1, p}, std::pair{p, 1}}) {
      for (auto [we, sn] : {std::pair{41, 31}, std::pair{26, 27}, std::pair{100, 25}}) {
        EXPECT_EQ(msg(wrf_split(we, sn, 7, x, y)), "<no error>") << p << " ranks as " << x << "x" << y;
      }
    }
  }
}

TEST(DecompositionCheck, SingleRankWholeDomain) { EXPECT_FALSE(check_tiling(wrf_split(5, 4, 3, 1, 1))); }

TEST(DecompositionCheck, NoRanks) { EXPECT_EQ(msg({}), "decomposition: no ranks"); }

TEST(DecompositionCheck, EmptyDomain) {
  auto r = wrf_split(11, 9, 4, 1, 1);
  r[0].domain.hi[2] = 0;
  EXPECT_EQ(msg(r), "decomposition: the domain " + r[0].domain.str() + " of rank 0 is empty");
}

TEST(DecompositionCheck, DomainNotAtZero) {
  auto r = wrf_split(11, 9, 4, 1, 1);
  r[0].domain.lo[1] = 1;
  r[0].patch.lo[1] = 1;
  EXPECT_EQ(msg(r), "decomposition: the domain " + r[0].domain.str() +
                        " of rank 0 does not start at 0 on every axis (ids = jds = kds = 1)");
}

TEST(DecompositionCheck, DomainsDisagree) {
  auto r = wrf_split(11, 9, 4, 2, 2);
  const Box d0 = r[0].domain;
  r[2].domain.hi[0] += 1;
  r[3].domain.hi[1] += 1;
  EXPECT_EQ(msg(r), "decomposition: rank 2 has domain " + r[2].domain.str() + " but rank 0 has domain " + d0.str() +
                        "; every rank must pass the same domain");
}

TEST(DecompositionCheck, EmptyPatch) {
  auto r = wrf_split(11, 9, 4, 2, 2);
  r[1].patch.hi[1] = r[1].patch.lo[1];
  EXPECT_EQ(msg(r), "decomposition: patch of rank 1 " + r[1].patch.str() + " is empty");
}

TEST(DecompositionCheck, PatchOutsideDomain) {
  auto r = wrf_split(11, 9, 4, 2, 2);
  r[3].patch.hi[0] += 1;  // rank 3 is the last along x: its patch already ends at e_we
  EXPECT_EQ(msg(r), "decomposition: patch of rank 3 " + r[3].patch.str() + " is not inside the domain " +
                        r[0].domain.str());
  r = wrf_split(11, 9, 4, 2, 2);
  r[0].patch.lo[2] = -1;
  r[0].memory.lo[2] = -1;
  EXPECT_EQ(msg(r), "decomposition: patch of rank 0 " + r[0].patch.str() + " is not inside the domain " +
                        r[0].domain.str());
}

TEST(DecompositionCheck, MemoryDoesNotContainPatch) {
  auto r = wrf_split(11, 9, 4, 3, 1, 0);  // no halo: memory == patch
  r[2].memory.lo[0] += 1;
  EXPECT_EQ(msg(r), "decomposition: memory " + r[2].memory.str() + " of rank 2 does not contain its patch " +
                        r[2].patch.str());
  r = wrf_split(11, 9, 4, 3, 1, 0);
  r[1].memory.hi[2] -= 1;  // missing one level
  EXPECT_NE(msg(r).find("memory " + r[1].memory.str() + " of rank 1 does not contain"), std::string::npos) << msg(r);
}

TEST(DecompositionCheck, Overlap) {
  auto r = wrf_split(11, 9, 4, 2, 2);
  // rank 3 reaches one column into rank 2 (same row); it then also leaves no gap behind.
  r[3].patch.lo[0] -= 1;
  const Box both = r[2].patch.intersect(r[3].patch);
  ASSERT_FALSE(both.empty());
  EXPECT_EQ(msg(r), "decomposition: patches of rank 2 " + r[2].patch.str() + " and rank 3 " + r[3].patch.str() +
                        " overlap in " + both.str());
}

TEST(DecompositionCheck, OverlapNamesLowestPairWhateverTheSweep) {
  // Every rank claims the whole domain: the pair named is (0, 1), not whichever the sweep met first.
  auto r = wrf_split(9, 9, 3, 2, 3);
  for (auto& b : r) b.patch = b.memory = b.domain;
  EXPECT_NE(msg(r).find("patches of rank 0 " + r[0].domain.str() + " and rank 1 "), std::string::npos) << msg(r);
  // A 1 x P split sweeps along j. Rank 4 reaches back over rank 3 into rank 2's last row: of
  // the pairs (2,4) and (3,4) the message names (2,4), although the sweep meets it last.
  r = wrf_split(9, 30, 3, 1, 6);
  r[4].patch.lo[1] = r[2].patch.hi[1] - 1;
  r[4].memory = r[4].patch;
  EXPECT_EQ(msg(r), "decomposition: patches of rank 2 " + r[2].patch.str() + " and rank 4 " + r[4].patch.str() +
                        " overlap in " + r[2].patch.intersect(r[4].patch).str());
}

TEST(DecompositionCheck, OverlapBeforeGap) {
  auto r = wrf_split(11, 9, 4, 1, 3);
  r[2].patch = r[1].patch;  // rank 2 duplicates rank 1 and leaves its own rows uncovered
  r[2].memory = r[1].memory;
  EXPECT_NE(msg(r).find("patches of rank 1 " + r[1].patch.str() + " and rank 2 "), std::string::npos) << msg(r);
}

TEST(DecompositionCheck, GapNamesTheRegion) {
  auto r = wrf_split(11, 9, 4, 2, 2);
  Box gap = r[1].patch;  // rank 1 gives up its last column
  r[1].patch.hi[0] -= 1;
  gap.lo[0] = r[1].patch.hi[0];
  const std::int64_t total = r[0].domain.volume();
  EXPECT_EQ(msg(r), "decomposition: the patches do not cover the domain " + r[0].domain.str() + " (they hold " +
                        std::to_string(total - gap.volume()) + " of " + std::to_string(total) + " points); no patch covers " +
                        gap.str() + " (" + std::to_string(gap.volume()) + " points)");
}

TEST(DecompositionCheck, GapOfTopLevel) {
  auto r = wrf_split(11, 9, 4, 2, 1);
  for (auto& b : r) b.patch.hi[2] -= 1;  // nobody writes the staggered top level
  Box top = r[0].domain;
  top.lo[2] = top.hi[2] - 1;
  EXPECT_NE(msg(r).find("no patch covers " + top.str()), std::string::npos) << msg(r);
}

TEST(DecompositionCheck, TenThousandRanks) {
  // 100 x 100 ranks, and a prime count (1 x 10007), valid and with one bad rank; the sweep keeps
  // these fast (a naive all-pairs check would make 50 M comparisons for the second).
  auto r = wrf_split(1001, 801, 3, 100, 100, 1);
  EXPECT_FALSE(check_tiling(r));
  r[5050].patch.lo[1] -= 1;
  EXPECT_NE(msg(r).find(" and rank 5050 "), std::string::npos) << msg(r);

  auto line = wrf_split(20, 10100, 3, 1, 10007, 1);
  EXPECT_FALSE(check_tiling(line));
  line[50].patch.hi[1] -= 1;  // the first 92 ranks hold two rows each
  EXPECT_NE(msg(line).find("no patch covers " + Box{{0, line[50].patch.hi[1], 0}, {20, line[51].patch.lo[1], 3}}.str()),
            std::string::npos)
      << msg(line);
}

}  // namespace
}  // namespace nwpio
