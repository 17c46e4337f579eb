// Files written by I/O servers are the files the compute ranks write themselves: for every
// split of the world into 1-3 compute ranks and 1-2 servers in 1-2 groups, io_form 11 and 2
// (and io_form 13, value by value),
// the same 5 frames (2 per file) go once through the synchronous path and once through the
// servers; the files must be byte-identical, every value must read back through netCDF-C, and
// ncvalidator must pass. Frames of a file go to one group, files round-robin to the groups.
#include <fstream>
#include <iterator>

#include "servers_test_support.hpp"
#include "temp_paths.hpp"

namespace nwpio::test::servers {
namespace {

struct Config {
  int tasks, groups;
  IoForm io_form;
  bool blocking = false;
  int in_flight = 2;
};

std::string name_of(const Config& c) {
  const std::string io = c.io_form == IoForm::Pnetcdf ? "_io11" : c.io_form == IoForm::NetcdfSerial ? "_io2" : "_io13";
  return std::to_string(c.tasks) + "x" + std::to_string(c.groups) + io +
         (c.blocking ? "_blocking" : "") + "_k" + std::to_string(c.in_flight);
}

std::string bytes_of(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

class ServersRoundTrip : public ::testing::TestWithParam<Config> {};

TEST_P(ServersRoundTrip, FilesEqualTheSynchronousOnes) {
  const Config c = GetParam();
  const int compute = world_size() - c.tasks * c.groups;
  if (compute < 1 || compute > 3) GTEST_SKIP() << compute << " compute ranks at this world size";
  if (c.io_form == IoForm::NetcdfParallel) {
#ifndef NWPIO_HAVE_NETCDF_PAR
    GTEST_SKIP() << "built without parallel netCDF-4 (io_form 13)";
#endif
  }
  // io_form 13 (HDF5 chunks placed as the writing ranks allocate them) is compared value by
  // value, not byte by byte: the synchronous run writes from other ranks than the servers.
  const bool same_bytes = c.io_form != IoForm::NetcdfParallel;
  const std::string sync_dir = server_dir(name_of(c) + "_sync");
  const std::string srv_dir = server_dir(name_of(c) + "_servers");

  IoServers servers(MPI_COMM_WORLD, c.tasks, c.groups);
  if (servers.is_server()) return;  // served until stop()
  ASSERT_TRUE(servers.enabled());
  ASSERT_EQ(servers.compute_ranks(), compute);
  const MPI_Comm comm = servers.compute_comm();
  ASSERT_EQ(size_of_comm(comm), compute);

  ModelShape shape;
  Model model(comm, shape);
  const int frames = 5;
  {
    OutputOptions o = options_for(sync_dir, c.io_form);
    o.frames_per_file = 2;
    Writer w = build_stream(comm, model, o, nullptr);
    for (int t = 0; t < frames; ++t) write_frame(w, model, t);
    w.close();
  }
  {
    OutputOptions o = options_for(srv_dir, c.io_form);
    o.frames_per_file = 2;
    o.server_blocking_handoff = c.blocking;
    o.server_frames_in_flight = c.in_flight;
    o.server_message_bytes = 1000;  // many messages per frame, one ending inside a row
    o.stats_json = srv_dir + "/stats.json";
    Writer w = build_stream(comm, model, o, &servers);
    for (int t = 0; t < frames; ++t) {
      write_frame(w, model, t);
      EXPECT_EQ(w.current_file(), t % 2 == 1 ? std::string() : file_at(srv_dir, t - t % 2)) << t;
    }
    w.close();
    const Statistics& st = w.statistics();
    EXPECT_EQ(st.gather, "io-servers");
    ASSERT_EQ(st.frames.size(), static_cast<std::size_t>(frames));
    for (int t = 0; t < frames; ++t) {
      const FrameStats& fs = st.frames[static_cast<std::size_t>(t)];
      EXPECT_EQ(fs.server_group, (t / 2) % c.groups) << "frames of a file go to one group, files round-robin";
      EXPECT_TRUE(fs.server_reported) << "close() waits for every answer";
      EXPECT_GT(fs.server_write_seconds, 0.0);
      EXPECT_GT(fs.total_seconds, 0.0);
      EXPECT_EQ(fs.file, std::filesystem::path(file_at(srv_dir, t - t % 2)).filename().string()) << t;
    }
  }
  servers.stop();
  EXPECT_NO_THROW(servers.stop());  // a second call does nothing

  if (rank_of(comm) != 0) return;
  const int format = same_bytes ? NC_FORMAT_64BIT_OFFSET : NC_FORMAT_NETCDF4;
  for (int first = 0; first < frames; first += 2) {
    const std::string a = file_at(sync_dir, first), b = file_at(srv_dir, first);
    ASSERT_TRUE(std::filesystem::exists(b)) << b;
    EXPECT_FALSE(std::filesystem::exists(test::temp_of(b)));
    if (same_bytes) {
      EXPECT_TRUE(bytes_of(a) == bytes_of(b)) << b << " differs from " << a;
    }
    ExpectedFile f{b, {}, {}};
    for (int t = first; t < std::min(frames, first + 2); ++t) {
      f.frames.push_back(t);
      f.dates.push_back(date_at(t));
    }
    check_file(f, model.schema(), shape, format);
    if (!same_bytes) check_file({a, f.frames, f.dates}, model.schema(), shape, format);
    if (same_bytes) {
      EXPECT_TRUE(ncvalidator_ok(b)) << b;  // (ncvalidator reads classic files)
    }
  }
  EXPECT_TRUE(std::filesystem::exists(srv_dir + "/stats.json"));
}

// Two streams on the same servers (two domains of different grids, as WRF's d01 and d02),
// their frames interleaved: each stream's files equal its synchronous ones.
TEST(ServersTwoStreams, InterleavedDomainsEqualTheSynchronousFiles) {
  const int compute = world_size() - 1;
  if (compute < 1 || compute > 3) GTEST_SKIP() << compute << " compute ranks at this world size";
  const std::string sync_dir = server_dir("two_streams_sync");
  const std::string srv_dir = server_dir("two_streams_servers");
  IoServers servers(MPI_COMM_WORLD, 1, 1);
  if (servers.is_server()) return;
  const MPI_Comm comm = servers.compute_comm();
  ModelShape shape_a, shape_b;
  shape_b.e_we = 31;
  shape_b.e_sn = 13;
  shape_b.e_vert = 5;
  Model a(comm, shape_a), b(comm, shape_b);
  const auto options = [](const std::string& dir, int domain) {
    OutputOptions o = options_for(dir);
    o.domain_id = domain;
    o.frames_per_file = 2;
    return o;
  };
  for (const bool with_servers : {false, true}) {
    const std::string dir = with_servers ? srv_dir : sync_dir;
    Writer wa = build_stream(comm, a, options(dir, 1), with_servers ? &servers : nullptr);
    Writer wb = build_stream(comm, b, options(dir, 2), with_servers ? &servers : nullptr);
    for (int t = 0; t < 3; ++t) {
      write_frame(wa, a, t);
      write_frame(wb, b, t);
    }
    wb.close();
    wa.close();
  }
  servers.stop();
  if (rank_of(comm) != 0) return;
  for (const std::string domain : {"d01", "d02"}) {
    for (int first : {0, 2}) {
      std::string name = file_at("", first).substr(1);
      name.replace(name.find("d01"), 3, domain);
      const std::string x = sync_dir + "/" + name, y = srv_dir + "/" + name;
      ASSERT_TRUE(std::filesystem::exists(y)) << y;
      EXPECT_TRUE(bytes_of(x) == bytes_of(y)) << y << " differs from " << x;
      ExpectedFile f{y, {}, {}};
      for (int t = first; t < std::min(3, first + 2); ++t) {
        f.frames.push_back(t);
        f.dates.push_back(date_at(t));
      }
      check_file(f, domain == "d01" ? a.schema() : b.schema(), domain == "d01" ? shape_a : shape_b, NC_FORMAT_64BIT_OFFSET);
      EXPECT_TRUE(ncvalidator_ok(y)) << y;
    }
  }
}

// At every world size of the test (2-5 ranks) the configurations with 1-3 compute ranks run.
INSTANTIATE_TEST_SUITE_P(
    Splits, ServersRoundTrip,
    ::testing::Values(Config{1, 1, IoForm::Pnetcdf}, Config{2, 1, IoForm::Pnetcdf}, Config{1, 2, IoForm::Pnetcdf},
                      Config{2, 2, IoForm::Pnetcdf}, Config{1, 1, IoForm::NetcdfSerial}, Config{2, 1, IoForm::NetcdfSerial},
                      Config{1, 2, IoForm::NetcdfSerial}, Config{1, 1, IoForm::Pnetcdf, true, 2},
                      Config{1, 2, IoForm::Pnetcdf, false, 1}, Config{2, 1, IoForm::Pnetcdf, false, 4},
                      Config{1, 1, IoForm::NetcdfParallel}, Config{2, 1, IoForm::NetcdfParallel}),
    [](const ::testing::TestParamInfo<Config>& i) { return name_of(i.param); });

}  // namespace
}  // namespace nwpio::test::servers
