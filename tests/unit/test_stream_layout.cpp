// The stream layout on made-up geometry, no MPI: for WRF's 201 history variables (every stagger
// and memory order) and decompositions from one rank to hundreds with uneven splits, every
// variable's file boxes tile its file extent exactly, every rank's memory map stays inside its
// memory array, the variables without i and j belong to rank 0, and the sizes add up.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "made_up_grid.hpp"
#include "nwpio/wrf_conventions.hpp"

namespace nwpio::detail {
namespace {

using test::made_up_grid;
using test::made_up_layout;

struct Split {
  int e_we, e_sn, e_vert, px, py;
};

// 1 rank; x only; y only; uneven 3 x 5; 192 ranks on an uneven grid; a thin 1 x 64 strip.
const std::vector<Split> kSplits = {{20, 15, 6, 1, 1},   {41, 17, 5, 2, 1},   {23, 40, 4, 1, 2},
                                    {47, 53, 7, 3, 5},   {203, 157, 4, 16, 12}, {31, 260, 3, 1, 64}};

// Paints every rank's box of `g` on its (j, i) plane: each point exactly once.
void expect_tiles(const FieldGeometry& g, int nranks) {
  std::vector<int> paint(static_cast<std::size_t>(g.ni * g.nj), 0);
  std::int64_t volume = 0;
  for (int r = 0; r < nranks; ++r) {
    const Box& b = g.file_boxes[static_cast<std::size_t>(r)];
    if (b.empty()) continue;
    volume += b.volume();
    EXPECT_EQ(b.lo[kAxisK], 0) << g.name << " rank " << r << ": every rank writes whole columns";
    EXPECT_EQ(b.hi[kAxisK], g.nk) << g.name << " rank " << r;
    for (std::int64_t j = b.lo[kAxisJ]; j < b.hi[kAxisJ]; ++j) {
      for (std::int64_t i = b.lo[kAxisI]; i < b.hi[kAxisI]; ++i) ++paint[static_cast<std::size_t>(j * g.ni + i)];
    }
  }
  EXPECT_EQ(volume, g.ni * g.nj * g.nk) << g.name;
  for (std::size_t p = 0; p < paint.size(); ++p) {
    if (paint[p] != 1) {
      ADD_FAILURE() << g.name << ": point (j " << p / static_cast<std::size_t>(g.ni) << ", i "
                    << p % static_cast<std::size_t>(g.ni) << ") written " << paint[p] << " times";
      return;
    }
  }
}

// Where this rank's box corners lie in its memory array: inside it, i contiguous.
void expect_memory_inside(const FieldGeometry& g, const Grid& grid, int rank, const Schema& schema) {
  const Box& b = g.file_boxes[static_cast<std::size_t>(rank)];
  if (b.empty()) return;
  const Box& m = grid.memory;
  std::int64_t elements = 1;
  if (is_decomposed(g.order)) elements = m.extent(kAxisI) * m.extent(kAxisJ);
  if (is_3d(g.order) || g.order == MemoryOrder::Z) elements *= g.grid_k ? m.extent(kAxisK) : g.nk;
  (void)schema;
  for (std::int64_t k : {b.lo[kAxisK], b.hi[kAxisK] - 1}) {
    for (std::int64_t j : {b.lo[kAxisJ], b.hi[kAxisJ] - 1}) {
      for (std::int64_t i : {b.lo[kAxisI], b.hi[kAxisI] - 1}) {
        const std::int64_t at = g.memory.origin + i + j * g.memory.stride_j + k * g.memory.stride_k;
        EXPECT_GE(at, 0) << g.name << " rank " << rank << " (" << i << "," << j << "," << k << ")";
        EXPECT_LT(at, elements) << g.name << " rank " << rank << " (" << i << "," << j << "," << k << ")";
      }
    }
  }
}

class StreamLayoutGeometry : public ::testing::TestWithParam<std::tuple<Split, MemoryOrder>> {};

TEST_P(StreamLayoutGeometry, BoxesTileAndMemoryMapsStayInside) {
  const auto [s, order] = GetParam();
  const int n = s.px * s.py;
  // Rank 0, the last rank and one in the middle see the same file boxes and their own memory.
  const StreamLayout first = made_up_layout(made_up_grid(s.e_we, s.e_sn, s.e_vert, s.px, s.py, 0), order);
  ASSERT_EQ(first.fields.size(), static_cast<std::size_t>(wrf::kHistoryVariableCount));
  for (const FieldGeometry& g : first.fields) {
    ASSERT_EQ(g.file_boxes.size(), static_cast<std::size_t>(n)) << g.name;
    if (g.decomposed) {
      expect_tiles(g, n);
    } else {  // Z and scalar fields: rank 0 holds the whole, the others nothing
      EXPECT_EQ(g.file_boxes[0].volume(), g.nk) << g.name;
      for (int r = 1; r < n; ++r) EXPECT_TRUE(g.file_boxes[static_cast<std::size_t>(r)].empty()) << g.name;
    }
  }
  for (int rank : {0, n / 2, n - 1}) {
    const Grid grid = made_up_grid(s.e_we, s.e_sn, s.e_vert, s.px, s.py, rank);
    const StreamLayout L = made_up_layout(grid, order);
    for (std::size_t f = 0; f < L.fields.size(); ++f) {
      EXPECT_EQ(L.fields[f].file_boxes, first.fields[f].file_boxes) << L.fields[f].name << " seen from rank " << rank;
      expect_memory_inside(L.fields[f], grid, rank, Schema{});
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Splits, StreamLayoutGeometry,
                         ::testing::Combine(::testing::ValuesIn(kSplits),
                                            ::testing::Values(MemoryOrder::XZY, MemoryOrder::XYZ)));

TEST(StreamLayout, SizesAndOrderFollowWrf) {
  const StreamLayout L = made_up_layout(made_up_grid(47, 53, 7, 3, 5, 4));
  std::int64_t record = 19, fixed = 0;  // Times: 19 characters per record
  for (const FieldGeometry& g : L.fields) (g.record ? record : fixed) += g.bytes();
  EXPECT_EQ(L.record_bytes, record);
  EXPECT_EQ(L.static_bytes, fixed);
  // Dimensions in WRF's order of first use; Times is variable 0, schema variable s is s + 1.
  std::vector<std::string> names;
  for (const auto& d : L.file.dims) names.push_back(d.name);
  const std::vector<std::string> wrf_first = {"Time", "DateStrLen", "west_east", "south_north", "bottom_top",
                                              "bottom_top_stag", "soil_layers_stag", "west_east_stag",
                                              "south_north_stag"};
  ASSERT_GE(names.size(), wrf_first.size());
  EXPECT_EQ(std::vector<std::string>(names.begin(), names.begin() + 9), wrf_first);
  EXPECT_EQ(L.file.vars[0].name, "Times");
  for (std::size_t s = 0; s < L.fields.size(); ++s) {
    EXPECT_EQ(L.fields[s].varid, static_cast<int>(s) + 1);
    EXPECT_EQ(L.file.vars[s + 1].name, L.fields[s].name);
    EXPECT_EQ(record_bytes(L.file, L.file.vars[s + 1]), L.fields[s].bytes()) << L.fields[s].name;
  }
  // Staggered fields are one longer along their axis.
  std::map<std::string, const FieldGeometry*> by_name;
  for (const auto& g : L.fields) by_name[g.name] = &g;
  EXPECT_EQ(by_name.at("U")->ni, 47);
  EXPECT_EQ(by_name.at("T")->ni, 46);
  EXPECT_EQ(by_name.at("V")->nj, 53);
  EXPECT_EQ(by_name.at("W")->nk, 7);
  EXPECT_EQ(by_name.at("T")->nk, 6);
}

TEST(StreamLayout, Cdf5WhenAVariableOutgrowsCdf2) {
  // 3-D float of 1001 x 1001 x 1072 = 4.3 GB per record: over CDF-2's 4 GiB.
  Grid grid = made_up_grid(1002, 1002, 1073, 1, 1, 0, 0);
  Schema schema;
  schema.add_variable(wrf::variable("BIG", DataType::Float, MemoryOrder::XZY, Stagger::None, "", ""));
  BackendTraits traits;
  traits.may_switch_to_cdf5 = true;
  const StreamLayout L = build_stream_layout(schema, grid, OutputOptions{}, traits);
  EXPECT_EQ(L.file.format, FileFormat::Cdf5);
  EXPECT_NE(L.format_note.find("BIG"), std::string::npos) << L.format_note;
  traits.may_switch_to_cdf5 = false;  // a backend that cannot switch keeps CDF-2 and refuses later
  EXPECT_EQ(build_stream_layout(schema, grid, OutputOptions{}, traits).file.format, FileFormat::Cdf2);
}

TEST(StreamLayout, Netcdf4CarriesWrfChunksOnHorizontalFieldsOnly) {
  BackendTraits traits;
  traits.format = FileFormat::Netcdf4;
  wrf::HistorySchemaOptions o;
  o.e_we = 41;
  o.e_sn = 31;
  o.e_vert = 6;
  const StreamLayout L = build_stream_layout(wrf::history_schema(o), made_up_grid(41, 31, 6, 2, 2, 0), OutputOptions{}, traits);
  for (const auto& v : L.file.vars) {
    const bool horizontal = v.dims.size() >= 2 && (L.file.dims[static_cast<std::size_t>(v.dims.back())].name.rfind("west_east", 0) == 0);
    EXPECT_EQ(!v.chunks.empty(), horizontal) << v.name;
    if (horizontal) {
      EXPECT_EQ(v.chunks.size(), v.dims.size()) << v.name;
    }
  }
}

}  // namespace
}  // namespace nwpio::detail
