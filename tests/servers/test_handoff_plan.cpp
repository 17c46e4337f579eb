// The hand-off arithmetic on made-up grids, without MPI: for every split of the compute ranks
// and every number of servers, the pieces of all (compute rank, server) pairs tile every field
// exactly, and a frame packed by the compute ranks and unpacked by the servers puts every value
// of every field where the servers' Writer reads it.
#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <vector>

#include "core/pack.hpp"
#include "core/stream_layout.hpp"
#include "nwpio/error.hpp"
#include "nwpio/wrf_conventions.hpp"
#include "nwpio/wrf_decompose.hpp"
#include "servers/handoff_plan.hpp"

namespace nwpio::detail {
namespace {

// Every kind of field: 3-D in both memory orders and every staggering, a soil field over a
// named dimension, 2-D, 1-D Z (grid and named), scalar, int and double, one static field.
Schema make_schema() {
  Schema s;
  s.add_dimension("soil_layers_stag", 3);
  s.add_variable(wrf::variable("T", DataType::Float, MemoryOrder::XZY, Stagger::None, "t", "K"));
  s.add_variable(wrf::variable("U", DataType::Float, MemoryOrder::XZY, Stagger::X, "u", "m s-1"));
  s.add_variable(wrf::variable("V", DataType::Double, MemoryOrder::XZY, Stagger::Y, "v", "m s-1"));
  s.add_variable(wrf::variable("W", DataType::Float, MemoryOrder::XYZ, Stagger::Z, "w", "m s-1"));
  s.add_variable(wrf::variable("TSLB", DataType::Float, MemoryOrder::XZY, Stagger::Z, "soil", "K", "soil_layers_stag"));
  s.add_variable(wrf::variable("T2", DataType::Float, MemoryOrder::XY, Stagger::None, "t2", "K"));
  s.add_variable(wrf::variable("IVGTYP", DataType::Int, MemoryOrder::XY, Stagger::None, "veg", ""));
  s.add_variable(wrf::variable("ZNU", DataType::Float, MemoryOrder::Z, Stagger::None, "eta", ""));
  s.add_variable(wrf::variable("ZS", DataType::Float, MemoryOrder::Z, Stagger::Z, "depth", "m", "soil_layers_stag"));
  s.add_variable(wrf::variable("P_TOP", DataType::Double, MemoryOrder::Scalar, Stagger::None, "ptop", "Pa"));
  VarSpec hgt = wrf::variable("HGT", DataType::Float, MemoryOrder::XY, Stagger::None, "terrain", "m");
  hgt.time_dependent = false;
  s.add_variable(hgt);
  return s;
}

Box box_of(const WrfBounds& w, bool memory) {
  Box b;
  if (memory) {
    b.lo = {w.ims - 1, w.jms - 1, w.kms - 1};
    b.hi = {w.ime, w.jme, w.kme};
  } else {
    b.lo = {w.ips - 1, w.jps - 1, w.kps - 1};
    b.hi = {w.ipe, w.jpe, w.kpe};
  }
  return b;
}

double value(std::size_t field, std::int64_t i, std::int64_t j, std::int64_t k) {
  return static_cast<double>(field * 1000000 + static_cast<std::size_t>(k * 10000 + j * 100 + i));
}

void store(std::byte* p, DataType t, double v) {
  switch (t) {
    case DataType::Float: { const float f = static_cast<float>(v); std::memcpy(p, &f, 4); break; }
    case DataType::Double: std::memcpy(p, &v, 8); break;
    case DataType::Int: { const auto n = static_cast<std::int32_t>(v); std::memcpy(p, &n, 4); break; }
    case DataType::Char: *p = static_cast<std::byte>(static_cast<int>(v) & 0x7f); break;
  }
}

double load(const std::byte* p, DataType t) {
  switch (t) {
    case DataType::Float: { float f; std::memcpy(&f, p, 4); return f; }
    case DataType::Double: { double d; std::memcpy(&d, p, 8); return d; }
    case DataType::Int: { std::int32_t n; std::memcpy(&n, p, 4); return n; }
    case DataType::Char: return static_cast<double>(static_cast<int>(*p));
  }
  return 0;
}

// Visits every file element (i, j, k) of `box`.
template <class F>
void for_each_element(const Box& box, F&& f) {
  for (std::int64_t k = box.lo[kAxisK]; k < box.hi[kAxisK]; ++k)
    for (std::int64_t j = box.lo[kAxisJ]; j < box.hi[kAxisJ]; ++j)
      for (std::int64_t i = box.lo[kAxisI]; i < box.hi[kAxisI]; ++i) f(i, j, k);
}

struct Case {
  int e_we, e_sn, e_vert, px, py, nservers;
};

class HandoffPlanTest : public ::testing::TestWithParam<Case> {};

TEST_P(HandoffPlanTest, PiecesTileEveryFieldAndValuesLandInTheBands) {
  const Case c = GetParam();
  const Schema schema = make_schema();
  const OutputOptions options;
  const int nc = c.px * c.py;
  Box domain;
  domain.hi = {c.e_we, c.e_sn, c.e_vert};
  std::vector<Box> patches, memories;
  for (int r = 0; r < nc; ++r) {
    const WrfBounds w = wrf::split_domain(c.e_we, c.e_sn, c.e_vert, c.px, c.py, r, 2);
    patches.push_back(box_of(w, false));
    memories.push_back(box_of(w, true));
  }
  // Each compute rank's layout (its memory map) and each server's band layout.
  std::vector<StreamLayout> compute, band;
  for (int r = 0; r < nc; ++r) {
    compute.push_back(build_stream_layout(schema, Grid{domain, memories[static_cast<std::size_t>(r)], patches}, options, {}));
  }
  for (int s = 0; s < c.nservers; ++s) band.push_back(build_stream_layout(schema, server_grid(domain, c.nservers, s), options, {}));
  const std::size_t nf = schema.variables().size();

  // The compute ranks' model arrays, halo and everything outside the field set to a sentinel.
  std::vector<std::vector<std::vector<std::byte>>> arrays(static_cast<std::size_t>(nc));
  for (int r = 0; r < nc; ++r) {
    for (std::size_t f = 0; f < nf; ++f) {
      const FieldGeometry& g = compute[static_cast<std::size_t>(r)].fields[f];
      auto& a = arrays[static_cast<std::size_t>(r)].emplace_back(
          static_cast<std::size_t>(memory_elements(g, memories[static_cast<std::size_t>(r)])) * g.elem, std::byte{0x7f});
      for_each_element(g.file_boxes[static_cast<std::size_t>(r)], [&](auto i, auto j, auto k) {
        store(a.data() + (g.memory.origin + i + j * g.memory.stride_j + k * g.memory.stride_k) * static_cast<std::int64_t>(g.elem),
              g.type, value(f, i, j, k));
      });
    }
  }

  for (bool opens_file : {false, true}) {
    const std::vector<std::size_t> ids = frame_fields(compute[0], opens_file);
    EXPECT_EQ(ids.size(), opens_file ? nf : nf - 1);
    std::vector<std::int64_t> covered(nf, 0);
    for (int s = 0; s < c.nservers; ++s) {
      const Box memory = server_band(domain, c.nservers, s);
      std::vector<std::vector<std::byte>> bands;
      for (std::size_t f = 0; f < nf; ++f) {
        const FieldGeometry& g = band[static_cast<std::size_t>(s)].fields[f];
        bands.emplace_back(static_cast<std::size_t>(memory_elements(g, memory)) * g.elem, std::byte{0x55});
      }
      for (int r = 0; r < nc; ++r) {
        std::vector<FieldPair> pairs;
        for (std::size_t f : ids) {
          pairs.push_back({&compute[static_cast<std::size_t>(r)].fields[f], &band[static_cast<std::size_t>(s)].fields[f]});
        }
        const std::vector<HandoffPiece> pieces = handoff_pieces(pairs, r, s);
        std::vector<std::byte> stream(static_cast<std::size_t>(handoff_bytes(pairs, r, s)));
        std::byte* out = stream.data();
        for (const HandoffPiece& p : pieces) {
          const FieldGeometry& gc = *pairs[p.field].compute;
          EXPECT_TRUE(gc.file_boxes[static_cast<std::size_t>(r)].contains(p.box));
          EXPECT_TRUE(pairs[p.field].server->file_boxes[static_cast<std::size_t>(s)].contains(p.box));
          covered[ids[p.field]] += p.box.volume();
          const FieldSource src{arrays[static_cast<std::size_t>(r)][ids[p.field]].data(), gc.memory};
          out = pack_rows(gc, src, p.box, 0, gc.rows(), out);
        }
        ASSERT_EQ(out, stream.data() + stream.size());
        const std::byte* in = stream.data();
        for (const HandoffPiece& p : pieces) {
          const FieldGeometry& gs = *pairs[p.field].server;
          in = unpack_rows(gs, bands[ids[p.field]].data(), gs.memory, p.box, in);
        }
      }
      // Every element of the server's part of every field holds its value.
      for (std::size_t f : ids) {
        const FieldGeometry& g = band[static_cast<std::size_t>(s)].fields[f];
        int wrong = 0;
        for_each_element(g.file_boxes[static_cast<std::size_t>(s)], [&](auto i, auto j, auto k) {
          const std::int64_t at = g.memory.origin + i + j * g.memory.stride_j + k * g.memory.stride_k;
          const double got = load(bands[f].data() + at * static_cast<std::int64_t>(g.elem), g.type);
          if (got != value(f, i, j, k) && wrong++ < 3) {
            ADD_FAILURE() << g.name << " server " << s << " (" << i << "," << j << "," << k << "): " << got;
          }
        });
      }
    }
    for (std::size_t f : ids) {
      const FieldGeometry& g = compute[0].fields[f];
      EXPECT_EQ(covered[f], g.ni * g.nj * g.nk) << g.name << ": the pieces do not cover the field exactly once";
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Grids, HandoffPlanTest,
                         ::testing::Values(Case{23, 17, 7, 1, 1, 1}, Case{23, 17, 7, 2, 1, 1}, Case{23, 17, 7, 1, 3, 2},
                                           Case{23, 17, 7, 3, 2, 3}, Case{12, 40, 5, 2, 5, 7}, Case{30, 9, 4, 5, 1, 8}));

TEST(HandoffPlan, MoreServersThanRowsIsAConfigError) {
  Box domain;
  domain.hi = {10, 5, 3};
  EXPECT_NO_THROW(server_band(domain, 4, 3));
  try {
    server_band(domain, 5, 0);
    ADD_FAILURE() << "5 servers for 4 rows";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Config);
    EXPECT_NE(std::string(e.what()).find("only 4 rows"), std::string::npos) << e.what();
  }
}

TEST(HandoffPlan, BandsAreWholeRowsCoveringTheDomain) {
  Box domain;
  domain.hi = {26, 19, 8};
  for (int ns : {1, 2, 5, 18}) {
    std::int64_t next = 0;
    for (int s = 0; s < ns; ++s) {
      const Box b = server_band(domain, ns, s);
      EXPECT_EQ(b.lo[kAxisI], 0);
      EXPECT_EQ(b.hi[kAxisI], 26);
      EXPECT_EQ(b.lo[kAxisK], 0);
      EXPECT_EQ(b.hi[kAxisK], 8);
      EXPECT_EQ(b.lo[kAxisJ], next);
      next = b.hi[kAxisJ];
    }
    EXPECT_EQ(next, 19);
  }
}

TEST(HandoffPlan, MessageSplitCoversTheStream) {
  for (std::int64_t bytes : {0, 1, 999, 1000, 1001, 123457}) {
    const MessageSplit m{bytes, 1000};
    std::int64_t at = 0;
    for (int i = 0; i < m.count(); ++i) {
      EXPECT_EQ(m.begin(i), at);
      EXPECT_GT(m.size(i), 0);
      EXPECT_LE(m.size(i), 1000);
      at += m.size(i);
    }
    EXPECT_EQ(at, bytes);
  }
}

}  // namespace
}  // namespace nwpio::detail
