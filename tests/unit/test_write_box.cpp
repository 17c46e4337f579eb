// Which part of its patch a rank writes for each staggering: an unstaggered axis ends at
// min(hi, domain.hi - 1), the staggered axis at min(hi, domain.hi).
#include <gtest/gtest.h>

#include "core/decomposition_check.hpp"
#include "nwpio/decomposition.hpp"
#include "nwpio/wrf_decompose.hpp"

namespace nwpio {
namespace {

constexpr Stagger kAll[] = {Stagger::None, Stagger::X, Stagger::Y, Stagger::Z};

Box box1(int s0, int e0, int s1, int e1, int s2, int e2) {
  Box b;
  b.lo = {s0 - 1, s1 - 1, s2 - 1};
  b.hi = {e0, e1, e2};
  return b;
}
Box domain_of(const WrfBounds& w) { return box1(w.ids, w.ide, w.jds, w.jde, w.kds, w.kde); }
Box patch_of(const WrfBounds& w) { return box1(w.ips, w.ipe, w.jps, w.jpe, w.kps, w.kpe); }

// WRF's own rule in its 1-based bounds: i runs ips..min(ipe, ide-1), or ..min(ipe, ide) for X.
Box wrf_rule(const WrfBounds& w, Stagger s) {
  auto end = [](int pe, int de, bool staggered) { return std::min(pe, staggered ? de : de - 1); };
  return box1(w.ips, end(w.ipe, w.ide, s == Stagger::X), w.jps, end(w.jpe, w.jde, s == Stagger::Y), w.kps,
              end(w.kpe, w.kde, s == Stagger::Z));
}

TEST(WriteBox, FollowsWrfRuleForEveryStaggerAndPatch) {
  for (auto [px, py] : {std::pair{3, 1}, std::pair{1, 3}, std::pair{2, 2}, std::pair{3, 4}, std::pair{5, 2}}) {
    for (int r = 0; r < px * py; ++r) {
      const WrfBounds w = wrf::split_domain(23, 17, 6, px, py, r);
      for (Stagger s : kAll) {
        EXPECT_EQ(Decomposition::write_box(patch_of(w), domain_of(w), s), wrf_rule(w, s))
            << px << "x" << py << " rank " << r << " stagger '" << to_string(s) << "'";
      }
    }
  }
}

TEST(WriteBox, WriteBoxesTileTheFieldGrid) {
  // Over all ranks the write boxes of one staggering cover the field's grid exactly once.
  const int e_we = 26, e_sn = 19, e_vert = 8;
  for (int p : {1, 2, 3, 4, 6, 7, 12}) {
    const auto [px, py] = wrf::choose_nproc(p);
    for (Stagger s : kAll) {
      Box field;
      field.hi = {e_we - (s == Stagger::X ? 0 : 1), e_sn - (s == Stagger::Y ? 0 : 1), e_vert - (s == Stagger::Z ? 0 : 1)};
      std::vector<detail::RankBoxes> pieces;
      for (int r = 0; r < p; ++r) {
        const WrfBounds w = wrf::split_domain(e_we, e_sn, e_vert, px, py, r);
        const Box wb = Decomposition::write_box(patch_of(w), domain_of(w), s);
        pieces.push_back({field, wb, wb});
      }
      const auto problem = detail::check_tiling(pieces);
      EXPECT_FALSE(problem) << p << " ranks, stagger '" << to_string(s) << "': " << problem.value_or("");
    }
  }
}

TEST(WriteBox, OnlyLastPatchAlongAnAxisWritesTheStaggeredEnd) {
  // First, middle and last patches of a 3 x 3 split: X stagger adds a column only to the last
  // column of patches, Y a row only to the last row, Z a level to every patch.
  const int px = 3, py = 3;
  for (int r = 0; r < px * py; ++r) {
    const WrfBounds w = wrf::split_domain(20, 14, 5, px, py, r);
    const Box d = domain_of(w), p = patch_of(w);
    const Box mass = Decomposition::write_box(p, d, Stagger::None);
    const bool last_x = r % px == px - 1, last_y = r / px == py - 1;
    EXPECT_EQ(Decomposition::write_box(p, d, Stagger::X).extent(kAxisI) - mass.extent(kAxisI), last_x ? 1 : 0) << r;
    EXPECT_EQ(Decomposition::write_box(p, d, Stagger::Y).extent(kAxisJ) - mass.extent(kAxisJ), last_y ? 1 : 0) << r;
    EXPECT_EQ(Decomposition::write_box(p, d, Stagger::Z).extent(kAxisK) - mass.extent(kAxisK), 1) << r;
    // Mass points stop one short of the staggered end on the last patches.
    if (last_x) {
      EXPECT_EQ(mass.hi[kAxisI], d.hi[kAxisI] - 1);
    }
    if (!last_x) {
      EXPECT_EQ(mass.hi[kAxisI], p.hi[kAxisI]);
    }
    // Staggering never moves the start.
    for (Stagger s : kAll) EXPECT_EQ(Decomposition::write_box(p, d, s).lo, p.lo);
  }
}

TEST(WriteBox, PatchHoldingOnlyTheStaggeredEnd) {
  // A (non-WRF) patch made only of the staggered end column writes nothing for mass fields and
  // the whole column for X-staggered ones; the empty box keeps lo == hi rather than going negative.
  Box domain;
  domain.hi = {10, 8, 4};
  Box patch = domain;
  patch.lo[kAxisI] = 9;
  const Box mass = Decomposition::write_box(patch, domain, Stagger::None);
  EXPECT_TRUE(mass.empty());
  EXPECT_EQ(mass.hi[kAxisI], mass.lo[kAxisI]);
  EXPECT_EQ(Decomposition::write_box(patch, domain, Stagger::X).extent(kAxisI), 1);
}

}  // namespace
}  // namespace nwpio
