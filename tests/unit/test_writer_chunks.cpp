// io_form 13's pure arithmetic on made-up geometry (no MPI, no file): the chunk rule for any
// writer count, the cut rule and its refusals, RowSpace::split_shared (every writer a share of
// every variable, every cut on a chunk boundary, so that no chunk has two writers), and the
// compression settings' grammar and checks.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "layout/compression_settings.hpp"
#include "core/row_space.hpp"
#include "layout/writer_chunks.hpp"
#include "made_up_grid.hpp"
#include "nwpio/error.hpp"

namespace nwpio::detail {
namespace {

using test::frame_fields;
using test::made_up_grid;

StreamLayout shared_layout(const Grid& grid, OutputOptions o = {}) {
  wrf::HistorySchemaOptions h;
  h.e_we = static_cast<int>(grid.domain.extent(kAxisI));
  h.e_sn = static_cast<int>(grid.domain.extent(kAxisJ));
  h.e_vert = static_cast<int>(grid.domain.extent(kAxisK));
  BackendTraits t;
  t.format = FileFormat::Netcdf4;
  t.shares_each_variable = true;
  return build_stream_layout(wrf::history_schema(h), grid, o, t);
}

TEST(WriterChunks, PlanesOrStripesOfWholeRows) {
  for (int writers : {1, 2, 3, 4, 7, 64}) {
    const StreamLayout L = shared_layout(made_up_grid(47, 53, 7, 3, 5, 0));
    for (const FileLayout::Var& v : L.file.vars) {
      const auto c = writer_chunk_shape(L.file, v, writers, std::int64_t{16} << 20);
      ASSERT_EQ(c.size(), v.dims.size()) << v.name;
      if (v.record) {
        EXPECT_EQ(c[0], 1u) << v.name;
      }
      const VarRows r = var_rows(L.file, v);
      const std::size_t spatial = v.dims.size() - (v.record ? 1 : 0);
      if (spatial < 2) continue;
      EXPECT_EQ(static_cast<std::int64_t>(c.back()), r.ni) << v.name << ": a chunk holds whole rows";
      const auto cj = static_cast<std::int64_t>(c[c.size() - 2]);
      const std::int64_t chunks_per_plane = (r.nj + cj - 1) / cj;
      // Enough chunks for every writer when the variable has few planes; a plane otherwise.
      if (r.nk >= writers) {
        EXPECT_EQ(cj, r.nj) << v.name << " with " << writers << " writers";
      } else {
        // (cj rounds up, so at worst half as many chunks as stripes asked for)
        EXPECT_GE(2 * chunks_per_plane * r.nk, std::min<std::int64_t>(writers, r.nj * r.nk)) << v.name;
      }
      FileLayout::Var with = v;
      with.chunks = c;
      const RowCut cut = row_cut_of(L.file, with, "test");
      EXPECT_EQ(cut.period, r.nj);
      EXPECT_EQ(cut.step, cj);
    }
  }
}

TEST(WriterChunks, LargePlanesAreCutIntoStripesUnderTheLimit) {
  const StreamLayout L = shared_layout(made_up_grid(401, 301, 5, 2, 1, 0));
  for (const FileLayout::Var& v : L.file.vars) {
    if (v.dims.size() < 3) continue;
    const auto c = writer_chunk_shape(L.file, v, 2, 100'000);
    std::int64_t bytes = static_cast<std::int64_t>(size_of(v.type));
    for (std::size_t x : c) bytes *= static_cast<std::int64_t>(x);
    EXPECT_LE(bytes, 100'000 + static_cast<std::int64_t>(c.back() * size_of(v.type))) << v.name;
  }
}

TEST(WriterChunks, ShapesThatSplitRowsOrPlanesAreRefused) {
  const StreamLayout L = shared_layout(made_up_grid(23, 17, 9, 2, 2, 0));
  const FileLayout::Var* t = nullptr;
  for (const auto& v : L.file.vars) {
    if (v.name == "T") t = &v;
  }
  ASSERT_NE(t, nullptr);
  FileLayout::Var v = *t;  // (Time, bottom_top 8, south_north 16, west_east 22)
  auto refused = [&](std::vector<std::size_t> c, const std::string& why) {
    v.chunks = c;
    try {
      row_cut_of(L.file, v, "where.nml:3:4");
      ADD_FAILURE() << chunk_text(c) << " accepted";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::Config);
      const std::string m = e.what();
      EXPECT_NE(m.find("where.nml:3:4"), std::string::npos) << m;
      EXPECT_NE(m.find(chunk_text(c)), std::string::npos) << m;
      EXPECT_NE(m.find(why), std::string::npos) << m;
    }
  };
  refused({1, 1, 8, 11}, "part of a row");
  refused({1, 2, 8, 22}, "partial planes");
  refused({1, 1, 40, 22}, "over the dimension");
  refused({1, 8, 22}, "lengths");
  refused({2, 1, 16, 22}, "one record");
  v.chunks = {1, 3, 16, 22};  // three whole planes: cuts every third plane
  const RowCut cut = row_cut_of(L.file, v, "x");
  EXPECT_EQ(cut.step, 3 * 16);
  EXPECT_TRUE(cut.allows(0));
  EXPECT_TRUE(cut.allows(48));
  EXPECT_FALSE(cut.allows(16));
}

// Every writer gets a share of every variable with i and j; every cut lies on a chunk boundary
// of its variable; the pieces of one round are within one chunk of even; small variables stay
// whole; the rows are covered once, in order.
TEST(SplitShared, EveryWriterAShareOfEveryVariableCutOnChunkBoundaries) {
  for (int writers : {1, 2, 3, 4, 5}) {
    for (std::int64_t limit : {std::int64_t{1} << 30, std::int64_t{20'000}}) {
      const StreamLayout L = shared_layout(made_up_grid(47, 53, 7, 3, 2, 0), [&] {
        OutputOptions o;
        o.writer_ranks = writers;
        return o;
      }());
      for (bool first : {false, true}) {
        RowSpace space(frame_fields(L, first));
        const int rounds = space.split_shared(writers, limit);
        const std::int64_t chunks = static_cast<std::int64_t>(rounds) * writers;
        EXPECT_EQ(space.chunk_begin(0), 0);
        EXPECT_EQ(space.chunk_end(chunks - 1), space.total_rows());
        int splittable = 0;
        for (std::size_t f = 0; f < space.size(); ++f) splittable += space[f].g->ni > 1 || space[f].g->nj > 1;
        if (limit > (std::int64_t{1} << 29)) {
          EXPECT_EQ(rounds, std::max(1, splittable)) << "one variable per round";
        }
        for (std::int64_t c = 0; c < chunks; ++c) {
          ASSERT_LE(space.chunk_begin(c), space.chunk_end(c));
          if (c > 0) {
            ASSERT_EQ(space.chunk_begin(c), space.chunk_end(c - 1));
          }
          const std::int64_t cut = space.chunk_begin(c);
          const std::size_t f = space.field_at(cut);
          const FieldGeometry& g = *space[f].g;
          const std::int64_t r = cut - space[f].row0;
          if (r > 0 && r < g.rows()) {
            EXPECT_NE(g.ni * g.nj, 1) << g.name << " (no i and j) was cut";
            EXPECT_EQ((r % g.cut_period) % g.cut_step, 0) << g.name << ": cut at row " << r << " splits a chunk";
          }
        }
        // Within each round, one variable: its writers' shares differ by at most one chunk.
        for (int t = 0; t < rounds && limit > (std::int64_t{1} << 29); ++t) {
          std::int64_t lo = INT64_MAX, hi = 0, step = 1;
          std::string name;
          for (int w = 0; w < writers; ++w) {
            std::int64_t rows = 0;
            space.for_each_overlap(space.chunk_begin(t * writers + w), space.chunk_end(t * writers + w),
                                   [&](std::size_t f, std::int64_t a, std::int64_t b) {
                                     const FieldGeometry& g = *space[f].g;
                                     if (g.ni * g.nj == 1) return;
                                     rows += b - a;
                                     step = std::max(step, g.cut_step);
                                     name = g.name;
                                   });
            lo = std::min(lo, rows);
            hi = std::max(hi, rows);
          }
          EXPECT_LE(hi - lo, 2 * step) << name << " over " << writers << " writers";
        }
      }
    }
  }
}

TEST(CompressionSettings, GrammarDefaultsAndOverrides) {
  OutputOptions o;
  o.quantize = {"BitRound = 9", ""};
  o.compression_vars = {"T U: deflate=4 shuffle=no; QVAPOR: granularbr=3; IVGTYP: filter=none; T: chunk=1x10x20", ""};
  const CompressionSettings c = CompressionSettings::parse(o);
  const FieldStorage t = c.for_variable("T", DataType::Float);
  EXPECT_TRUE(t.deflate);
  EXPECT_EQ(t.deflate_level, 4);
  EXPECT_FALSE(t.shuffle);
  EXPECT_EQ(t.quantize, Quantize::BitRound);
  EXPECT_EQ(t.quantize_digits, 9);
  EXPECT_EQ(t.chunk, (std::vector<std::int64_t>{1, 10, 20}));
  const FieldStorage q = c.for_variable("QVAPOR", DataType::Float);
  EXPECT_EQ(q.quantize, Quantize::GranularBR);
  EXPECT_EQ(q.deflate_level, 2);
  EXPECT_TRUE(q.shuffle);
  const FieldStorage i = c.for_variable("IVGTYP", DataType::Int);
  EXPECT_FALSE(i.filtered());
  EXPECT_EQ(i.quantize, Quantize::None) << "the stream-wide quantization skips integer fields";
  c.check_variables({{"T", DataType::Float}, {"U", DataType::Float}, {"QVAPOR", DataType::Float}, {"IVGTYP", DataType::Int}});
}

TEST(CompressionSettings, ErrorsNameTheKeyTheValueAndWhereItWasWritten) {
  auto error_of = [](OutputOptions o, const std::vector<std::pair<std::string, DataType>>& vars = {}) -> std::string {
    try {
      CompressionSettings::parse(o).check_variables(vars);
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::Config);
      return e.what();
    }
    return "accepted";
  };
  OutputOptions o;
  o.compression_vars = {"T: deflate=10", "n.nml:9:21"};
  EXPECT_EQ(error_of(o), "n.nml:9:21: compression_vars entry 'T: deflate=10': deflate level '10' is outside 0..9");
  o.compression_vars = {"T deflate=1", "n.nml:9:21"};
  EXPECT_NE(error_of(o).find("a ':' after the variable names"), std::string::npos);
  o.compression_vars = {"T: lz4=1", ""};
  EXPECT_NE(error_of(o).find("OutputOptions::compression_vars entry 'T: lz4=1': unknown setting 'lz4'"), std::string::npos);
  o.compression_vars = {"T: bitround=x", ""};
  EXPECT_NE(error_of(o).find("bitround must be a positive integer, found 'x'"), std::string::npos);
  o.compression_vars = {"T: chunk=1x0x5", ""};
  EXPECT_NE(error_of(o).find("chunk length must be a positive integer, found '0'"), std::string::npos);
  o.compression_vars = {"ITIMESTEP: granularbr=3", "a.nml:2:3"};
  EXPECT_NE(error_of(o, {{"ITIMESTEP", DataType::Int}}).find("quantization needs a float or double variable; ITIMESTEP is int"),
            std::string::npos);
  o.compression_vars = {"T: bitround=30", ""};
  EXPECT_NE(error_of(o, {{"T", DataType::Float}}).find("30 is more than a float holds (at most 23)"), std::string::npos);
  EXPECT_EQ(error_of(o, {{"T", DataType::Double}}), "accepted");
  o = OutputOptions{};
  o.compression_filter = "szip";
  EXPECT_NE(error_of(o).find("unknown compression filter 'szip'"), std::string::npos);
  o = OutputOptions{};
  o.quantize = {"round=3", "b.nml:4:12"};
  EXPECT_NE(error_of(o).find("b.nml:4:12: quantize 'round=3': unknown quantization 'round'"), std::string::npos);
  o = OutputOptions{};
  o.deflate_level = -1;
  EXPECT_NE(error_of(o).find("deflate_level: deflate level -1 is outside 0..9"), std::string::npos);
}

}  // namespace
}  // namespace nwpio::detail
