// The frame an I/O server receives (QuiltFrame) without MPI: pieces that are exactly patches,
// assembled into the server's memory box value by value; pieces that overlap, leave a gap, lie
// outside the server's part or are not the whole of a 1-D field are named errors.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "wrfio/quilt_frame.hpp"
#include "wrfio/wrf_status.hpp"
#include "wrfio_unit_grid.hpp"

namespace nwpio::wrfio {
namespace {

using test::field_on;
using test::kSn;
using test::kVert;
using test::kWe;
using test::Rank;

float value(std::int64_t i, std::int64_t j, std::int64_t k) { return static_cast<float>(i + 100 * j + 10000 * k); }

// The piece of T (XZY) compute task `r` sends: its patch, values in memory order (i, k, j).
struct Piece {
  FieldCall call;
  std::vector<float> data;
};

Piece piece_of(const Rank& r, const std::string& order = "XZY") {
  RawFieldArgs a = field_on("T", order, "", r);
  a.memory_start[0] = a.memory_end[0] = kQuiltPatchMarker;
  Piece p{parse_field_call(a), {}};
  const Box b = p.call.patch_box();
  if (order == "XZY") {
    for (std::int64_t j = b.lo[kAxisJ]; j < b.hi[kAxisJ]; ++j)
      for (std::int64_t k = b.lo[kAxisK]; k < b.hi[kAxisK]; ++k)
        for (std::int64_t i = b.lo[kAxisI]; i < b.hi[kAxisI]; ++i) p.data.push_back(value(i, j, k));
  } else {  // Z
    for (std::int64_t k = b.lo[kAxisK]; k < b.hi[kAxisK]; ++k) p.data.push_back(value(0, 0, k));
  }
  return p;
}

// The server serves compute tasks 1 and 2 of a 1 x 3 split: rows jps(1)..jde.
struct Server {
  int jps = 0, jpe = 0;
  Box memory, write;
  Server() {
    test::split(kSn - 1, 3, 1, jps, jpe);
    memory = Box{{0, jps - 1, 0}, {kWe, kSn, kVert}};    // its staggered patch
    write = Box{{0, jps - 1, 0}, {kWe - 1, kSn - 1, kVert - 1}};  // T's part of it
  }
};

std::string error_of(QuiltFrame& q, int index, const Box& memory, const Box& write, int* status = nullptr) {
  try {
    (void)q.assemble(index, memory, write);
  } catch (const WrfError& e) {
    if (status) *status = e.wrf_status();
    return e.what();
  }
  return {};
}

TEST(QuiltFrame, AssemblesPiecesIntoTheServersMemory) {
  const Server s;
  QuiltFrame q(1);
  EXPECT_TRUE(q.empty());
  const Piece upper = piece_of(Rank{1, 3, 0, 2}), lower = piece_of(Rank{1, 3, 0, 1});
  q.add(0, upper.call, upper.data.data());  // in any order
  q.add(0, lower.call, lower.data.data());
  EXPECT_TRUE(q.received(0));
  const std::vector<FieldCall> bounds = q.bounding_calls();
  ASSERT_EQ(bounds.size(), 1u);
  EXPECT_EQ(bounds[0].patch_box(), (Box{{0, s.jps - 1, 0}, {kWe - 1, kSn - 1, kVert - 1}}));

  const auto* buffer = static_cast<const float*>(q.assemble(0, s.memory, s.write));
  const std::int64_t ni = s.memory.extent(kAxisI), nk = s.memory.extent(kAxisK);
  std::int64_t wrong = 0;
  for (std::int64_t j = s.write.lo[kAxisJ]; j < s.write.hi[kAxisJ]; ++j)
    for (std::int64_t k = s.write.lo[kAxisK]; k < s.write.hi[kAxisK]; ++k)
      for (std::int64_t i = s.write.lo[kAxisI]; i < s.write.hi[kAxisI]; ++i) {
        const std::int64_t at = (i - s.memory.lo[kAxisI]) + ni * ((k - s.memory.lo[kAxisK]) + nk * (j - s.memory.lo[kAxisJ]));
        wrong += buffer[at] != value(i, j, k) ? 1 : 0;
      }
  EXPECT_EQ(wrong, 0) << "of " << s.write.volume();

  q.clear();
  EXPECT_TRUE(q.empty());
  int status = 0;
  EXPECT_NE(error_of(q, 0, s.memory, s.write, &status), "");
  EXPECT_EQ(status, wrf_status::kVarNotFound);
}

TEST(QuiltFrame, PiecesThatDoNotTileThePartAreNamed) {
  const Server s;
  const Piece lower = piece_of(Rank{1, 3, 0, 1}), upper = piece_of(Rank{1, 3, 0, 2}), first = piece_of(Rank{1, 3, 0, 0});
  {
    QuiltFrame q(1);  // a gap: the upper rows never came
    q.add(0, lower.call, lower.data.data());
    int status = 0;
    const std::string what = error_of(q, 0, s.memory, s.write, &status);
    EXPECT_EQ(status, wrf_status::kDimensionError);
    EXPECT_NE(what.find("variable 'T'"), std::string::npos) << what;
    EXPECT_NE(what.find("cover"), std::string::npos) << what;
  }
  {
    QuiltFrame q(1);  // the same piece twice
    q.add(0, lower.call, lower.data.data());
    q.add(0, lower.call, lower.data.data());
    q.add(0, upper.call, upper.data.data());
    EXPECT_NE(error_of(q, 0, s.memory, s.write).find("overlap"), std::string::npos);
  }
  {
    QuiltFrame q(1);  // rows another server holds
    q.add(0, first.call, first.data.data());
    EXPECT_NE(error_of(q, 0, s.memory, s.write).find("outside the server's part"), std::string::npos);
  }
}

// 1-D fields come whole from every compute task.
TEST(QuiltFrame, OneDimensionalFieldsMustBeWhole) {
  const Server s;
  const Piece whole = piece_of(Rank{1, 3, 0, 1}, "Z");
  const Box memory{{0, 0, 0}, {1, 1, kVert - 1}};
  QuiltFrame q(1);
  q.add(0, whole.call, whole.data.data());
  q.add(0, whole.call, whole.data.data());
  const auto* buffer = static_cast<const float*>(q.assemble(0, memory, memory));
  for (int k = 0; k < kVert - 1; ++k) EXPECT_EQ(buffer[k], value(0, 0, k));
  const Box more{{0, 0, 0}, {1, 1, kVert}};
  EXPECT_NE(error_of(q, 0, more, more).find("is not the whole field"), std::string::npos);
}

TEST(QuiltFrame, LogicalsAreStoredAsZeroAndOne) {
  RawFieldArgs a = field_on("LANDMASK", "XY", "", Rank{});
  a.field_type = field_type::kLogical;
  a.memory_start[0] = a.memory_end[0] = kQuiltPatchMarker;
  const FieldCall call = parse_field_call(a);
  std::vector<std::int32_t> data(static_cast<std::size_t>(call.memory_elements()));
  for (std::size_t e = 0; e < data.size(); ++e) data[e] = e % 3 == 0 ? -1 : 0;  // a compiler's .TRUE. = -1
  QuiltFrame q(1);
  q.add(0, call, data.data());
  data.assign(data.size(), 5);  // the caller's array may change once add() returned
  const Box box = call.patch_box();
  const auto* out = static_cast<const std::int32_t*>(q.assemble(0, box, box));
  for (std::size_t e = 0; e < data.size(); ++e) ASSERT_EQ(out[e], e % 3 == 0 ? 1 : 0) << e;
}

}  // namespace
}  // namespace nwpio::wrfio
