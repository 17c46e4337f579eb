// The grid of one WRF file derived from the fields' own bounds (stream_grid), without MPI: every
// rank of uneven splits, staggered fields, named vertical dimensions, I/O servers' patches, and
// fields that disagree.
#include <gtest/gtest.h>

#include <vector>

#include "wrfio/stream_grid.hpp"
#include "wrfio/wrf_status.hpp"
#include "wrfio_unit_grid.hpp"

namespace nwpio::wrfio {
namespace {

using test::field_on;
using test::kHalo;
using test::kSn;
using test::kVert;
using test::kWe;
using test::Rank;

std::vector<FieldCall> history_fields(const Rank& r) {
  std::vector<FieldCall> f;
  f.push_back(parse_field_call(field_on("U", "XZY", "X", r)));  // a staggered field first
  f.push_back(parse_field_call(field_on("T", "XZY", "", r)));
  f.push_back(parse_field_call(field_on("V", "XZY", "Y", r)));
  f.push_back(parse_field_call(field_on("W", "XZY", "Z", r)));
  f.push_back(parse_field_call(field_on("Q2", "XY", "", r)));
  f.push_back(parse_field_call(field_on("QXYZ", "XYZ", "", r)));
  f.push_back(parse_field_call(field_on("TSLB", "XZY", "Z", r, "soil_layers_stag", 4)));
  f.push_back(parse_field_call(field_on("ZNU", "Z", "", r)));
  f.push_back(parse_field_call(field_on("SPFORC", "XY", "XY", r)));
  return f;
}

std::vector<const FieldCall*> pointers(const std::vector<FieldCall>& f) {
  std::vector<const FieldCall*> p;
  for (const FieldCall& c : f) p.push_back(&c);
  return p;
}

TEST(StreamGrid, EveryRankOfUnevenSplits) {
  for (const auto& [px, py] : std::vector<std::pair<int, int>>{{1, 1}, {2, 1}, {3, 2}, {4, 3}}) {
    for (int rx = 0; rx < px; ++rx) {
      for (int ry = 0; ry < py; ++ry) {
        const Rank r{px, py, rx, ry};
        const std::vector<FieldCall> fields = history_fields(r);
        const StreamGrid g = stream_grid(pointers(fields));
        const std::string where = std::to_string(px) + "x" + std::to_string(py) + " rank " + std::to_string(rx) +
                                  "," + std::to_string(ry);
        // One staggered domain: DomainEnd + 1 for unstaggered fields, k over bottom_top_stag.
        EXPECT_EQ(g.domain, (Box{{0, 0, 0}, {kWe, kSn, kVert}})) << where;
        // This rank's staggered patch: the last one along an axis reaches the staggered end.
        int ips = 0, ipe = 0, jps = 0, jpe = 0;
        test::split(kWe - 1, px, rx, ips, ipe);
        test::split(kSn - 1, py, ry, jps, jpe);
        const Box patch{{ips - 1, jps - 1, 0}, {rx == px - 1 ? kWe : ipe, ry == py - 1 ? kSn : jpe, kVert}};
        EXPECT_EQ(g.patch, patch) << where;
        // The model's memory: T's halo around the unstaggered patch; k the model's.
        EXPECT_EQ(g.memory, (Box{{ips - 1 - kHalo, jps - 1 - kHalo, 0}, {ipe + kHalo, jpe + kHalo, kVert}})) << where;
      }
    }
  }
}

// A file of unstaggered fields only (an auxiliary stream): the last patch still reaches the
// staggered end, as nwpio's Decomposition holds it.
TEST(StreamGrid, UnstaggeredFieldsAloneReachTheStaggeredEnd) {
  for (int rx = 0; rx < 3; ++rx) {
    const Rank r{3, 1, rx, 0};
    const std::vector<FieldCall> fields = {parse_field_call(field_on("T2", "XY", "", r)),
                                           parse_field_call(field_on("T", "XZY", "", r))};
    const StreamGrid g = stream_grid(pointers(fields));
    int ips = 0, ipe = 0;
    test::split(kWe - 1, 3, rx, ips, ipe);
    EXPECT_EQ(g.domain, (Box{{0, 0, 0}, {kWe, kSn, kVert}}));
    EXPECT_EQ(g.patch, (Box{{ips - 1, 0, 0}, {rx == 2 ? kWe : ipe, kSn, kVert}})) << "rank " << rx;
  }
}

TEST(StreamGrid, FieldsThatDisagreeAreNamed) {
  const Rank r{2, 2, 1, 0};
  std::vector<FieldCall> fields = history_fields(r);
  RawFieldArgs u = field_on("U", "XZY", "X", r);
  u.domain_end[0] = kWe + 1;  // one column too many for the grid T says
  u.patch_end[0] = kWe + 1;
  u.memory_end[0] = kWe + 4;
  fields.push_back(parse_field_call(u));
  fields.back().name = "U2";
  try {
    (void)stream_grid(pointers(fields));
    FAIL() << "disagreeing domains accepted";
  } catch (const WrfError& e) {
    EXPECT_EQ(e.wrf_status(), wrf_status::kDimensionError);
    EXPECT_NE(std::string(e.what()).find("'U' and 'U2'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("along x"), std::string::npos) << e.what();
  }
}

TEST(StreamGrid, NeedsADecomposedField) {
  const Rank r;
  const std::vector<FieldCall> fields = {parse_field_call(field_on("ZNU", "Z", "", r))};
  try {
    (void)stream_grid(pointers(fields));
    FAIL() << "a file without a decomposed field has no grid";
  } catch (const WrfError& e) {
    EXPECT_EQ(e.wrf_status(), wrf_status::kNotSupported);
  }
}

// An I/O server's fields are exactly its patches: the memory is the patch, and the server's
// patch the union of what it received (rows of two compute tasks here).
TEST(StreamGrid, AnIoServersMemoryIsItsPatch) {
  std::vector<FieldCall> fields;
  for (const char* stagger : {"", "X"}) {
    RawFieldArgs lower = field_on("T", "XZY", stagger, Rank{1, 3, 0, 1});
    const RawFieldArgs upper = field_on("T", "XZY", stagger, Rank{1, 3, 0, 2});
    lower.patch_end[2] = upper.patch_end[2];  // the bounding box of both pieces
    lower.memory_start[0] = lower.memory_end[0] = kQuiltPatchMarker;
    fields.push_back(parse_field_call(lower));
  }
  const StreamGrid g = stream_grid(pointers(fields));
  int jps = 0, jpe = 0;
  test::split(kSn - 1, 3, 1, jps, jpe);
  EXPECT_EQ(g.patch, (Box{{0, jps - 1, 0}, {kWe, kSn, kVert}}));
  EXPECT_EQ(g.memory, g.patch);
}

TEST(StreamGrid, FieldDomainBox) {
  const FieldCall u = parse_field_call(field_on("U", "XZY", "X", Rank{2, 2, 0, 0}));
  EXPECT_EQ(field_domain_box(u), (Box{{0, 0, 0}, {kWe, kSn - 1, kVert - 1}}));
  const FieldCall tslb = parse_field_call(field_on("TSLB", "XZY", "Z", Rank{}, "soil_layers_stag", 4));
  EXPECT_EQ(field_domain_box(tslb), (Box{{0, 0, 0}, {kWe - 1, kSn - 1, 4}}));
}

}  // namespace
}  // namespace nwpio::wrfio
