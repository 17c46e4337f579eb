// The pack layer: copy_elements writes netCDF's big-endian bytes in the same pass as the copy
// (every element size, lengths that are not a multiple of a vector), and scatter_rows puts a
// rank's piece of each row where it lies in a writer's slab of whole rows.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "core/pack.hpp"

namespace nwpio::detail {
namespace {

// Big-endian bytes of v, written out byte by byte (independent of the code under test).
template <class T>
std::vector<std::byte> big_endian_of(T v) {
  std::uint64_t bits = 0;
  std::memcpy(&bits, &v, sizeof(T));
  std::vector<std::byte> out(sizeof(T));
  for (std::size_t b = 0; b < sizeof(T); ++b) out[b] = static_cast<std::byte>((bits >> (8 * (sizeof(T) - 1 - b))) & 0xff);
  return out;
}

template <class T>
void expect_big_endian_copy(std::size_t n) {
  std::vector<T> src(n);
  for (std::size_t e = 0; e < n; ++e) src[e] = static_cast<T>(1000003 * (e + 1)) + static_cast<T>(0.25);
  std::vector<std::byte> dst(n * sizeof(T) + 1, std::byte{0x5a});
  copy_elements(dst.data(), reinterpret_cast<const std::byte*>(src.data()), n * sizeof(T), sizeof(T), true);
  for (std::size_t e = 0; e < n; ++e) {
    const auto want = big_endian_of(src[e]);
    ASSERT_EQ(0, std::memcmp(dst.data() + e * sizeof(T), want.data(), sizeof(T))) << "element " << e << " of " << n;
  }
  EXPECT_EQ(dst[n * sizeof(T)], std::byte{0x5a}) << "wrote past the end";
  // Native order: a plain copy.
  std::vector<std::byte> same(n * sizeof(T));
  copy_elements(same.data(), reinterpret_cast<const std::byte*>(src.data()), same.size(), sizeof(T), false);
  if (n > 0) {
    EXPECT_EQ(0, std::memcmp(same.data(), src.data(), same.size()));
  }
}

TEST(CopyElements, BigEndianForEveryElementSizeAndOddLengths) {
  for (std::size_t n : {0u, 1u, 7u, 8u, 33u, 1001u}) {
    expect_big_endian_copy<std::int16_t>(n);
    expect_big_endian_copy<float>(n);
    expect_big_endian_copy<std::int32_t>(n);
    expect_big_endian_copy<double>(n);
  }
}

TEST(CopyElements, CharsAreNeverSwapped) {
  const char text[] = "2019-06-01_00:00:00";
  std::vector<std::byte> dst(19);
  copy_elements(dst.data(), reinterpret_cast<const std::byte*>(text), 19, 1, true);
  EXPECT_EQ(0, std::memcmp(dst.data(), text, 19));
}

TEST(ScatterRows, PiecesLandBesideEachOtherInWholeRows) {
  // A 2-D float field of 6 x 3 (ni x nj), two ranks split along i at 4; memory with a halo of
  // 1 on each side, i fastest. Each rank scatters rows [1, 3) into one slab of whole rows.
  FieldGeometry g;
  g.elem = 4;
  g.nk = 1;
  g.nj = 3;
  g.ni = 6;
  g.order = MemoryOrder::XY;
  std::vector<float> slab(2 * 6, -1.f);
  for (int rank = 0; rank < 2; ++rank) {
    Box box;
    box.lo = {rank == 0 ? 0 : 4, 0, 0};
    box.hi = {rank == 0 ? 4 : 6, 3, 1};
    const std::int64_t nim = box.extent(kAxisI) + 2;  // memory: i from lo-1 to hi+1, j from -1 to 4
    MemoryMap map;
    map.stride_j = nim;
    std::vector<float> memory(static_cast<std::size_t>(nim * 5), 0.f);
    for (std::int64_t j = 0; j < 3; ++j) {
      for (std::int64_t i = box.lo[kAxisI]; i < box.hi[kAxisI]; ++i) {
        memory[static_cast<std::size_t>((j + 1) * nim + (i - box.lo[kAxisI] + 1))] = static_cast<float>(10 * j + i);
      }
    }
    // File element (i, j) at origin + i + j * stride_j.
    map.origin = 1 * nim + 1 - box.lo[kAxisI];
    scatter_rows(g, FieldSource{memory.data(), map}, box, 1, 3, reinterpret_cast<std::byte*>(slab.data()), false);
  }
  for (int r = 0; r < 2; ++r) {
    for (int i = 0; i < 6; ++i) EXPECT_EQ(slab[static_cast<std::size_t>(r * 6 + i)], static_cast<float>(10 * (r + 1) + i)) << r << "," << i;
  }
}

}  // namespace
}  // namespace nwpio::detail
