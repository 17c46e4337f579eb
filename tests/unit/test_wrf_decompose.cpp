// WRF's decomposition: MPASPECT's choice of nproc_x x nproc_y and the split of a domain.
#include <gtest/gtest.h>

#include <cstdlib>

#include "nwpio/error.hpp"
#include "nwpio/wrf_decompose.hpp"

namespace nwpio {
namespace {

TEST(ChooseNproc, WrfCases) {
  EXPECT_EQ(wrf::choose_nproc(1), std::pair(1, 1));
  EXPECT_EQ(wrf::choose_nproc(2), std::pair(1, 2));
  EXPECT_EQ(wrf::choose_nproc(3), std::pair(1, 3));
  EXPECT_EQ(wrf::choose_nproc(4), std::pair(2, 2));
  EXPECT_EQ(wrf::choose_nproc(6), std::pair(2, 3));
  EXPECT_EQ(wrf::choose_nproc(12), std::pair(3, 4));
  EXPECT_EQ(wrf::choose_nproc(7), std::pair(1, 7));
  // The reference wrfout header was written by 2048 tasks as NTASKS_X = 32, NTASKS_Y = 64.
  EXPECT_EQ(wrf::choose_nproc(2048), std::pair(32, 64));
}

TEST(ChooseNproc, MostNearlySquareWithXNotLarger) {
  for (int p = 1; p <= 2000; ++p) {
    const auto [x, y] = wrf::choose_nproc(p);
    ASSERT_EQ(x * y, p);
    ASSERT_LE(x, y) << p;
    for (int m = 1; m <= p; ++m) {
      if (p % m == 0) {
        ASSERT_LE(std::abs(x - y), std::abs(m - p / m)) << p << " ranks: " << m << "x" << p / m;
      }
    }
  }
}

TEST(ChooseNproc, RejectsNoRanks) {
  EXPECT_THROW(wrf::choose_nproc(0), Error);
  EXPECT_THROW(wrf::choose_nproc(-3), Error);
}

TEST(SplitDomain, UnevenSplitAlongX) {
  // 11 staggered = 10 mass points over 3 tasks: 4, 3, 3; the last also holds the staggered end.
  const int starts[] = {1, 5, 8}, ends[] = {4, 7, 11};
  for (int r = 0; r < 3; ++r) {
    const WrfBounds b = wrf::split_domain(11, 9, 5, 3, 1, r, 2);
    EXPECT_EQ(b.ips, starts[r]) << r;
    EXPECT_EQ(b.ipe, ends[r]) << r;
    EXPECT_EQ(b.jps, 1);
    EXPECT_EQ(b.jpe, 9);
  }
}

TEST(SplitDomain, PatchesPartitionEveryAxis) {
  for (auto [px, py] : {std::pair{1, 1}, std::pair{3, 1}, std::pair{1, 3}, std::pair{2, 2}, std::pair{7, 5}, std::pair{4, 9}}) {
    const int e_we = 53, e_sn = 40, e_vert = 12, halo = 3;
    for (int r = 0; r < px * py; ++r) {
      const WrfBounds b = wrf::split_domain(e_we, e_sn, e_vert, px, py, r, halo);
      const int it = r % px, jt = r / px;
      // Domain, vertical and memory follow from the patch.
      EXPECT_EQ(std::tuple(b.ids, b.ide, b.jds, b.jde, b.kds, b.kde), std::tuple(1, e_we, 1, e_sn, 1, e_vert));
      EXPECT_EQ(std::tuple(b.kps, b.kpe, b.kms, b.kme), std::tuple(1, e_vert, 1, e_vert));
      EXPECT_EQ(std::tuple(b.ims, b.ime, b.jms, b.jme), std::tuple(b.ips - halo, b.ipe + halo, b.jps - halo, b.jpe + halo));
      // Neighbours along x / y abut: this patch starts right after the previous task's end.
      if (it > 0) {
        EXPECT_EQ(b.ips, wrf::split_domain(e_we, e_sn, e_vert, px, py, r - 1, halo).ipe + 1);
      }
      if (jt > 0) {
        EXPECT_EQ(b.jps, wrf::split_domain(e_we, e_sn, e_vert, px, py, r - px, halo).jpe + 1);
      }
      if (it == 0) {
        EXPECT_EQ(b.ips, 1);
      }
      if (jt == 0) {
        EXPECT_EQ(b.jps, 1);
      }
      if (it == px - 1) {
        EXPECT_EQ(b.ipe, e_we);
      }
      if (jt == py - 1) {
        EXPECT_EQ(b.jpe, e_sn);
      }
      // Mass-point counts differ by at most one, larger ones first.
      const int n_i = std::min(b.ipe, e_we - 1) - b.ips + 1;
      EXPECT_TRUE(n_i == (e_we - 1) / px || n_i == (e_we - 1) / px + 1) << n_i;
      EXPECT_EQ(n_i == (e_we - 1) / px + 1, it < (e_we - 1) % px);
    }
  }
}

TEST(SplitDomain, EmptyPatchIsADecompositionError) {
  try {
    wrf::split_domain(5, 40, 10, 5, 1, 0);  // 4 mass columns over 5 tasks
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Decomposition);
    EXPECT_STREQ(e.what(), "split_domain: west_east has 4 unstaggered points, too few for 5 tasks: a patch would be empty");
  }
  try {
    wrf::split_domain(40, 3, 10, 1, 3, 2);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Decomposition);
    EXPECT_NE(std::string(e.what()).find("south_north has 2 unstaggered points, too few for 3 tasks"), std::string::npos);
  }
  EXPECT_NO_THROW(wrf::split_domain(6, 40, 10, 5, 1, 4));  // exactly one column each
}

TEST(SplitDomain, BadArguments) {
  auto kind = [](auto f) {
    try {
      f();
    } catch (const Error& e) {
      return e.kind();
    }
    return ErrorKind::Internal;
  };
  EXPECT_EQ(kind([] { wrf::split_domain(1, 10, 10, 1, 1, 0); }), ErrorKind::InvalidArgument);
  EXPECT_EQ(kind([] { wrf::split_domain(10, 10, 1, 1, 1, 0); }), ErrorKind::InvalidArgument);
  EXPECT_EQ(kind([] { wrf::split_domain(10, 10, 10, 0, 1, 0); }), ErrorKind::InvalidArgument);
  EXPECT_EQ(kind([] { wrf::split_domain(10, 10, 10, 2, 2, 4); }), ErrorKind::InvalidArgument);
  EXPECT_EQ(kind([] { wrf::split_domain(10, 10, 10, 2, 2, -1); }), ErrorKind::InvalidArgument);
  EXPECT_EQ(kind([] { wrf::split_domain(10, 10, 10, 2, 2, 0, -1); }), ErrorKind::InvalidArgument);
}

}  // namespace
}  // namespace nwpio
