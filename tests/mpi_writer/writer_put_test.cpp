// The checked put (ArrayView), pack on put, arrays with bounds of their own, the StreamBuilder,
// and configuration errors raised when a stream is opened (not at its first frame), at 1-4
// ranks; every file read back with netCDF-C and checked value by value, ncvalidator on each.
#include <gtest/gtest.h>
#include <netcdf.h>

#include <cstdlib>
#include <fstream>

#include "api/stream_context.hpp"
#include "core/test_hooks.hpp"
#include "mpi_support.hpp"
#include "nwpio/stream_builder.hpp"
#include "nwpio/writer.hpp"
#include "nwpio/wrf_date.hpp"
#include "test_model.hpp"

namespace nwpio::test {
namespace {

OutputOptions options_for(const std::string& dir) {
  OutputOptions o;
  o.output_dir = dir;
  o.print_timing = false;
  o.hints.report = HintReport::Off;
  o.frames_per_file = 3;
  o.nocolons = true;  // io_form 2 too: ncvalidator cannot open a name with ':'
  return o;
}

std::string date_at(int t) { return wrf::add_seconds("2019-06-01_00:00:00", 3600 * t); }

std::string file_of(const std::string& dir, int t) {
  std::string d = date_at(t);
  for (char& c : d) c = c == ':' ? '_' : c;
  return dir + "/wrfout_d01_" + d;
}

// Checks one file of frames 0..2 on rank 0.
void expect_frames(const std::string& path, const Model& model, const ModelShape& shape) {
  MPI_Barrier(world());
  if (my_rank() != 0) return;
  ExpectedFile f{path, {0, 1, 2}, {date_at(0), date_at(1), date_at(2)}};
  check_file(f, model.schema(), shape, NC_FORMAT_64BIT_OFFSET);
  EXPECT_TRUE(ncvalidator_ok(path)) << path;
}

struct PutMode {
  const char* name;
  IoForm io_form;
  GatherMode gather;
  ReorderMode reorder;
  bool shared_memory = true;                     // false: every piece through the send buffer
  int ranks_per_node = 0;                        // > 0: "nodes" of that many ranks (test hook)
  std::int64_t max_round_bytes = std::int64_t{1} << 30;  // tiny: several rounds, packed from copies
};

class PackOnPut : public ::testing::TestWithParam<PutMode> {};

// Every field copied at put(); the model overwrites its arrays before end_frame: the file holds
// what was put. A rearranger of one round packs each field straight into the writers' slabs
// (this node) and the send buffer (other nodes) inside put(), into the slabs the previous
// frame's write-behind left (settled when this frame began); the other plans pack from a copy.
TEST_P(PackOnPut, TheModelMayMoveOnRightAfterPut) {
  const PutMode m = GetParam();
#ifndef NWPIO_HAVE_PNETCDF
  if (m.io_form == IoForm::Pnetcdf) GTEST_SKIP() << "built without PnetCDF";
#endif
  const std::string dir = fresh_dir(std::string("put_copy_") + m.name);
  const ModelShape shape;
  Model model(world(), shape);
  OutputOptions o = options_for(dir);
  o.io_form = m.io_form;
  o.gather = m.gather;
  o.reorder = m.reorder;
  o.use_netcdf_classic = true;
  o.shared_memory_exchange = m.shared_memory;
  o.max_round_bytes = m.max_round_bytes;
  o.serial_chunk_bytes = m.max_round_bytes;
  std::shared_ptr<detail::TestHooks> hooks;
  if (m.ranks_per_node > 0) {
    hooks = std::make_shared<detail::TestHooks>();
    hooks->ranks_per_node = m.ranks_per_node;
  }
  {
    Writer w = detail::make_writer(model.decomposition(), model.schema(), o, {hooks, nullptr, nullptr});
    for (int t = 0; t < 3; ++t) {
      model.fill(t);
      w.begin_frame(date_at(t));
      const auto& vars = model.schema().variables();
      for (std::size_t s = 0; s < vars.size(); ++s) {
        ArrayView a;
        a.data = model.array(s);
        a.type = vars[s].type;
        a.copy = true;
        w.put(vars[s].name, a);
      }
      model.fill(100 + t);  // the model moves on: other values in every array
      w.end_frame();
    }
    w.close();
  }
  expect_frames(file_of(dir, 0), model, shape);
}

INSTANTIATE_TEST_SUITE_P(Modes, PackOnPut,
                         ::testing::Values(PutMode{"rearrange", IoForm::Pnetcdf, GatherMode::Rearrange, ReorderMode::Pack},
                                           PutMode{"rearrange_messages", IoForm::Pnetcdf, GatherMode::Rearrange,
                                                   ReorderMode::Pack, false},
                                           PutMode{"rearrange_two_rank_nodes", IoForm::Pnetcdf, GatherMode::Rearrange,
                                                   ReorderMode::Pack, true, 2},
                                           PutMode{"rearrange_tiny_rounds", IoForm::Pnetcdf, GatherMode::Rearrange,
                                                   ReorderMode::Pack, true, 0, 4096},
                                           PutMode{"direct_datatype", IoForm::Pnetcdf, GatherMode::Direct, ReorderMode::Datatype},
                                           PutMode{"io_form2", IoForm::NetcdfSerial, GatherMode::Auto, ReorderMode::Auto},
                                           PutMode{"io_form2_messages", IoForm::NetcdfSerial, GatherMode::Auto,
                                                   ReorderMode::Auto, false}),
                         [](const auto& param_info) { return std::string(param_info.param.name); });

// WRF's I/O servers hand over exactly the patch (MemoryStart = -998899): arrays with their own
// bounds, with and without a copy.
TEST(WriterPut, ArraysThatHoldExactlyThePatch) {
#ifndef NWPIO_HAVE_PNETCDF
  GTEST_SKIP() << "built without PnetCDF";
#endif
  const std::string dir = fresh_dir("put_patch_only");
  const ModelShape shape;
  Model model(world(), shape);
  const OutputOptions o = options_for(dir);
  Writer w(model.decomposition(), model.schema(), o);
  const auto& vars = model.schema().variables();
  for (int t = 0; t < 3; ++t) {
    model.fill(t);
    w.begin_frame(date_at(t));
    std::vector<std::vector<std::byte>> kept(vars.size());
    for (std::size_t s = 0; s < vars.size(); ++s) {
      if (!is_decomposed(vars[s].memory_order)) {
        w.put(vars[s].name, model.array(s), vars[s].type);
        continue;
      }
      Box box;
      kept[s] = model.patch_array(s, t, box);
      ArrayView a;
      a.data = kept[s].data();
      a.type = vars[s].type;
      a.memory = box;
      a.copy = (s % 2) == 0;  // half copied now, half read at end_frame from their own bounds
      w.put(vars[s].name, a);
      if (a.copy) kept[s].assign(kept[s].size(), std::byte{0x55});
    }
    w.end_frame();
  }
  w.close();
  expect_frames(file_of(dir, 0), model, shape);
}

TEST(WriterPut, ExtentsAndBoundsAreCheckedOnEveryRank) {
  const std::string dir = fresh_dir("put_checks");
  const ModelShape shape;
  Model model(world(), shape);
  OutputOptions o = options_for(dir);
  o.io_form = IoForm::NetcdfSerial;  // checks only: any backend
  Writer w(model.decomposition(), model.schema(), o);
  const Box& mem = model.decomposition().memory();
  const std::int64_t ni = mem.extent(kAxisI), nj = mem.extent(kAxisJ);
  model.fill(0);
  w.begin_frame(date_at(0));
  ArrayView t2;
  t2.data = model.array(0);  // T2, XY
  t2.type = DataType::Float;
  t2.extents = std::vector<std::int64_t>{ni, nj};
  // The last rank passes one row too few; the others are right.
  if (my_rank() == nranks() - 1) {
    t2.extents = std::vector<std::int64_t>{ni, nj - 1};
    try {
      w.put("T2", t2);
      ADD_FAILURE() << "put accepted wrong extents";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("disagree with the declared memory bounds"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("jms:jme"), std::string::npos) << e.what();
    }
  } else {
    w.put("T2", t2);
  }
  model.put_all([&](const std::string& n, const void* p, DataType ty) { w.put(n, p, ty); }, {"T2"});
  const auto e = expect_same_error([&] { w.end_frame(); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->kind(), ErrorKind::InvalidArgument);
  EXPECT_NE(std::string(e->what()).find("put(T2)"), std::string::npos) << e->what();

  // Rank mismatch, and an own box that misses this rank's part.
  w.begin_frame(date_at(0));
  ArrayView flat = t2;
  flat.extents = std::vector<std::int64_t>{ni * nj};
  EXPECT_THROW(w.put("T2", flat), Error);
  const auto e2 = expect_same_error([&] { w.end_frame(); });
  ASSERT_TRUE(e2);
  EXPECT_NE(std::string(e2->what()).find("1-dimensional array"), std::string::npos) << e2->what();
  w.begin_frame(date_at(0));
  ArrayView small;
  small.data = model.array(0);
  small.type = DataType::Float;
  Box tiny;  // one point: holds no rank's whole part
  tiny.hi = {1, 1, 1};
  small.memory = tiny;
  EXPECT_THROW(w.put("T2", small), Error);
  const auto e3 = expect_same_error([&] { w.end_frame(); });
  ASSERT_TRUE(e3);
  EXPECT_NE(std::string(e3->what()).find("do not hold this rank's part"), std::string::npos) << e3->what();
  w.close();
}

// The builder: the same stream as the Writer's constructor; definitions must agree; order.
TEST(StreamBuilder, BuildsTheSameStreamAndAgreesOnTheDefinitions) {
#ifndef NWPIO_HAVE_PNETCDF
  GTEST_SKIP() << "built without PnetCDF";
#endif
  const std::string dir = fresh_dir("builder");
  const ModelShape shape;
  Model model(world(), shape);
  const OutputOptions o = options_for(dir);
  {
    StreamBuilder b(world(), o);
    const auto early = expect_same_error([&] { (void)b.build(); });
    ASSERT_TRUE(early);
    EXPECT_NE(std::string(early->what()).find("no domain set"), std::string::npos) << early->what();
    b.set_domain(model.decomposition());
    for (const DimSpec& d : model.schema().dimensions()) b.add_dimension(d.name, d.length);
    for (const VarSpec& v : model.schema().variables()) b.add_variable(v);
    for (const Attribute& a : model.schema().global_attributes()) b.set_global_attribute(a);
    Writer w = b.build();
    EXPECT_THROW(b.add_variable(model.schema().variables().front()), Error);  // definitions are closed
    for (int t = 0; t < 3; ++t) {
      model.fill(t);
      EXPECT_TRUE(b.output_due(date_at(t)));
      w.begin_frame(date_at(t));
      model.put_all([&](const std::string& n, const void* p, DataType ty) { w.put(n, p, ty); });
      w.end_frame();
    }
    w.close();
  }
  expect_frames(file_of(dir, 0), model, shape);

  if (nranks() < 2) return;
  StreamBuilder b(world(), o);
  b.set_domain(model.decomposition());
  for (const DimSpec& d : model.schema().dimensions()) b.add_dimension(d.name, d.length);
  for (const VarSpec& v : model.schema().variables()) {
    if (my_rank() == 1 && v.name == "T2") continue;  // a rank that lost a definition
    b.add_variable(v);
  }
  const auto e = expect_same_error([&] { (void)b.build(); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->kind(), ErrorKind::Schema);
  EXPECT_NE(std::string(e->what()).find("ranks defined different variables"), std::string::npos) << e->what();
}

// Configuration errors at open, on every rank, with nothing left on disk.
TEST(ErrorsAtOpen, BadConfigurationFailsBeforeAnyFrameAndLeavesNothing) {
  const std::string dir = fresh_dir("open_errors");
  const ModelShape shape;
  Model model(world(), shape);
  auto expect_at_open = [&](OutputOptions o, const std::string& needle, ErrorKind kind) {
    SCOPED_TRACE(needle);
    const auto e = expect_same_error([&] { Writer w(model.decomposition(), model.schema(), o); });
    ASSERT_TRUE(e);
    EXPECT_EQ(e->kind(), kind);
    EXPECT_NE(std::string(e->what()).find(needle), std::string::npos) << e->what();
    const auto b = expect_same_error([&] { StreamBuilder builder(world(), o); });
    ASSERT_TRUE(b);
    EXPECT_EQ(std::string(b->what()), std::string(e->what()));
  };
  const std::string profile = dir + "/bad.toml";
  const std::string iofields = dir + "/bad_iofields.txt";
  if (my_rank() == 0) {
    std::ofstream(profile) << "[profile.default]\nstripe_count = \"many\"\n";
    std::ofstream(iofields) << "-:h:0:T2\n+:x:0:W\n";
  }
  MPI_Barrier(world());
  OutputOptions o = options_for(dir);
  o.hints.profile_file = profile;
  expect_at_open(o, "bad.toml:2", ErrorKind::Config);
  o = options_for(dir);
  o.hints.profile_file = dir + "/missing.toml";
  expect_at_open(o, "missing.toml", ErrorKind::Io);
  o = options_for(dir);
  o.iofields_file = iofields;
  expect_at_open(o, "bad_iofields.txt:2:3: expected a stream type", ErrorKind::Config);
  expect_at_open(options_for(dir + "/no/such/dir"), "No such file or directory", ErrorKind::Io);
  // NWPIO_HINTS is read where the hints are resolved (rank 0's environment counts).
  if (my_rank() == 0) setenv("NWPIO_HINTS", "stripe_count=lots", 1);
  expect_at_open(options_for(dir), "NWPIO_HINTS", ErrorKind::Config);
  if (my_rank() == 0) unsetenv("NWPIO_HINTS");
  // Nothing was created: no file, no temporary.
  if (my_rank() == 0) {
    for (const std::string& f : files_in(dir)) {
      EXPECT_TRUE(f == "bad.toml" || f == "bad_iofields.txt") << "left behind: " << f;
    }
  }
}

}  // namespace
}  // namespace nwpio::test
