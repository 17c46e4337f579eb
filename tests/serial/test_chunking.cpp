// WRF's netCDF-4 chunk shapes (wrf_io.F90, ext_ncd_write_field) and the CDF-2 size check.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "backend/netcdf/cdf2_limits.hpp"
#include "wrf/wrf_chunking.hpp"

namespace nwpio::detail {
namespace {

FileLayout grid(std::int64_t nx, std::int64_t ny, std::int64_t nz) {
  FileLayout L;
  L.dims = {{"Time", 0}, {"bottom_top", nz}, {"south_north", ny}, {"west_east", nx}, {"west_east_stag", nx + 1},
            {"soil_layers_stag", 4}, {"DateStrLen", 19}};
  L.vars = {{"T", DataType::Float, {0, 1, 2, 3}, {}, true, {}},  {"U", DataType::Float, {0, 1, 2, 4}, {}, true, {}},
            {"T2", DataType::Float, {0, 2, 3}, {}, true, {}},    {"ZNU", DataType::Float, {0, 1}, {}, true, {}},
            {"Times", DataType::Char, {0, 6}, {}, true, {}},     {"HGT", DataType::Float, {2, 3}, {}, false, {}},
            {"SCALAR", DataType::Int, {0}, {}, true, {}}};
  return L;
}

std::int64_t product(const std::vector<std::size_t>& v) {
  std::int64_t p = 1;
  for (auto x : v) p *= static_cast<std::int64_t>(x);
  return p;
}

std::size_t half_up(std::size_t v) { return (v + 1) / 2; }

TEST(WrfChunking, RealWrfGridIsAQuarterOfThePlaneOverAllLevels) {
  const FileLayout L = grid(1900, 1300, 34);
  // 34 x 650 x 950 = 21 M elements: under WRF's 32 M limit after the first halving.
  EXPECT_EQ(wrf_chunk_sizes(L, L.vars[0]), (std::vector<std::size_t>{1, 34, half_up(1300), half_up(1900)}));
  EXPECT_EQ(wrf_chunk_sizes(L, L.vars[1]), (std::vector<std::size_t>{1, 34, half_up(1300), half_up(1901)}));
  EXPECT_EQ(wrf_chunk_sizes(L, L.vars[2]), (std::vector<std::size_t>{1, half_up(1300), half_up(1900)}));
  EXPECT_EQ(wrf_chunk_sizes(L, L.vars[5]), (std::vector<std::size_t>{half_up(1300), half_up(1900)}));
}

TEST(WrfChunking, LargeGridsAreHalvedUntilUnderTheLimit) {
  const FileLayout L = grid(4001, 3001, 70);
  const auto c = wrf_chunk_sizes(L, L.vars[0]);
  ASSERT_EQ(c.size(), 4u);
  EXPECT_EQ(c[0], 1u);
  EXPECT_EQ(c[1], 70u);
  EXPECT_LE(product(c), kWrfChunkElementLimit);
  // One halving less would be over the limit: the loop stops at the first fit.
  std::vector<std::size_t> bigger = c;
  bigger[2] = c[2] * 2;
  bigger[3] = c[3] * 2;
  EXPECT_GT(product(bigger) - static_cast<std::int64_t>(70 * (c[2] * 2 + c[3] * 2)), kWrfChunkElementLimit);
  std::size_t y = 3001, x = 4001;  // the halving sequence from the full extent
  do {
    y = half_up(y);
    x = half_up(x);
  } while (70 * static_cast<std::int64_t>(y * x) > kWrfChunkElementLimit);
  EXPECT_EQ(c[2], y);
  EXPECT_EQ(c[3], x);
}

TEST(WrfChunking, NonHorizontalFieldsKeepDefaultStorage) {
  const FileLayout L = grid(100, 80, 10);
  EXPECT_TRUE(wrf_chunk_sizes(L, L.vars[3]).empty());  // ZNU (Z)
  EXPECT_TRUE(wrf_chunk_sizes(L, L.vars[4]).empty());  // Times
  EXPECT_TRUE(wrf_chunk_sizes(L, L.vars[6]).empty());  // scalar
}

TEST(WrfChunking, TinyGridsDoNotSpin) {
  const FileLayout L = grid(1, 1, 1);
  EXPECT_EQ(wrf_chunk_sizes(L, L.vars[0]), (std::vector<std::size_t>{1, 1, 1, 1}));
}

TEST(Cdf2Limit, NamesVariablesOver4GiB) {
  const FileLayout small = grid(1900, 1300, 34);  // the real WRF grid: 336 MB per 3-D record
  EXPECT_TRUE(cdf2_oversize_variables(small).empty());
  const FileLayout big = grid(40000, 30000, 2);
  const auto over = cdf2_oversize_variables(big);
  ASSERT_EQ(over.size(), 4u);  // T, U (9.6 GB per record), T2 (4.8 GB per record), HGT (4.8 GB, fixed)
  EXPECT_EQ(over[0].rfind("T (", 0), 0u) << over[0];
  EXPECT_NE(over[0].find("per record"), std::string::npos) << over[0];
  EXPECT_EQ(record_bytes(big, big.vars[2]), std::int64_t{40000} * 30000 * 4);
  EXPECT_EQ(over[3].find("per record"), std::string::npos) << over[3];
}

}  // namespace
}  // namespace nwpio::detail
