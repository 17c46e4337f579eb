#include <gtest/gtest.h>

#include "nwpio/box.hpp"

namespace nwpio {
namespace {

Box make(std::int64_t i0, std::int64_t i1, std::int64_t j0, std::int64_t j1, std::int64_t k0, std::int64_t k1) {
  Box b;
  b.lo = {i0, j0, k0};
  b.hi = {i1, j1, k1};
  return b;
}

TEST(Box, ExtentVolumeEmpty) {
  const Box b = make(2, 5, 0, 4, 1, 3);
  EXPECT_EQ(b.extent(kAxisI), 3);
  EXPECT_EQ(b.extent(kAxisJ), 4);
  EXPECT_EQ(b.extent(kAxisK), 2);
  EXPECT_EQ(b.volume(), 24);
  EXPECT_FALSE(b.empty());
  EXPECT_TRUE(make(2, 2, 0, 4, 0, 1).empty());
  const Box inverted = make(5, 2, 0, 4, 0, 1);  // hi < lo counts as empty, never negative
  EXPECT_EQ(inverted.extent(kAxisI), 0);
  EXPECT_TRUE(inverted.empty());
}

TEST(Box, Contains) {
  const Box outer = make(0, 10, 0, 10, 0, 5);
  EXPECT_TRUE(outer.contains(outer));
  EXPECT_TRUE(outer.contains(make(3, 4, 9, 10, 0, 5)));
  EXPECT_FALSE(outer.contains(make(3, 11, 0, 1, 0, 1)));
  EXPECT_FALSE(outer.contains(make(-1, 1, 0, 1, 0, 1)));
  EXPECT_FALSE(outer.contains(make(0, 1, 0, 1, 0, 6)));
  EXPECT_TRUE(outer.contains(make(50, 50, 0, 1, 0, 1)));  // the empty box is in every box
}

TEST(Box, Intersect) {
  const Box a = make(0, 10, 0, 10, 0, 5);
  const Box b = make(5, 15, -3, 2, 1, 9);
  EXPECT_EQ(a.intersect(b), make(5, 10, 0, 2, 1, 5));
  EXPECT_EQ(a.intersect(b), b.intersect(a));
  EXPECT_TRUE(a.intersect(make(10, 12, 0, 1, 0, 1)).empty());  // touching faces do not intersect
}

TEST(Box, Str) { EXPECT_EQ(make(0, 10, 2, 3, 0, 35).str(), "[0,10)x[2,3)x[0,35)"); }

}  // namespace
}  // namespace nwpio
