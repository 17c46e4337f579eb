// Writes 5 frames of every kind of field (frames_per_file 2, so 3 files) in every gathering
// mode (the rearranger with shared memory and with messages only, as between nodes), then
// reads every value back with netCDF-C and runs ncvalidator on every file.
#include <gtest/gtest.h>
#include <mpi.h>
#include <netcdf.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "api/stream_context.hpp"
#include "core/test_hooks.hpp"
#include "nwpio/version.h"
#include "nwpio/writer.hpp"
#include "nwpio/wrf_date.hpp"
#include "mpi_support.hpp"
#include "test_model.hpp"
#include "temp_paths.hpp"

namespace nwpio::test {
namespace {

struct Mode {
  std::string name;
  IoForm io_form = IoForm::Pnetcdf;
  GatherMode gather = GatherMode::Rearrange;
  ReorderMode reorder = ReorderMode::Pack;
  int writer_ranks = 0;
  std::int64_t max_round_bytes = std::int64_t{1} << 30;
  bool split_x = false;  // nproc_x = size, nproc_y = 1 (patches cut every row)
  FileFormat format = FileFormat::Cdf2;
  bool shared_memory = true;  // false: every piece travels as a message, as between nodes
  int ranks_per_node = 0;     // > 0: "nodes" of that many consecutive ranks (test hook)
  bool write_behind = true;   // OutputOptions::write_behind
};

std::ostream& operator<<(std::ostream& os, const Mode& m) { return os << m.name; }

class WriterRoundTrip : public ::testing::TestWithParam<Mode> {};

TEST_P(WriterRoundTrip, EveryValueReadsBack) {
  const Mode& mode = GetParam();
  MPI_Comm comm = MPI_COMM_WORLD;
  ModelShape shape;
  if (mode.split_x) {
    shape.nproc_x = size_of_comm(comm);
    shape.nproc_y = 1;
  }
  Model model(comm, shape);
  const std::string dir = scratch_dir("roundtrip_" + mode.name);
  if (rank_of(comm) == 0) std::filesystem::create_directories(dir);
  MPI_Barrier(comm);

  OutputOptions options;
  options.output_dir = dir;
  options.frames_per_file = 2;
  options.io_form = mode.io_form;
  options.gather = mode.gather;
  options.reorder = mode.reorder;
  options.writer_ranks = mode.writer_ranks;
  options.max_round_bytes = mode.max_round_bytes;
  options.serial_chunk_bytes = mode.max_round_bytes;
  options.format = mode.format;
  options.shared_memory_exchange = mode.shared_memory;
  options.write_behind = mode.write_behind;
  options.print_timing = false;
  options.stats_json = dir + "/stats.json";

  const std::string start = "2019-06-01_00:00:00";
  const int frames = 5;
  std::vector<ExpectedFile> files;
  std::shared_ptr<detail::TestHooks> hooks;
  if (mode.ranks_per_node > 0) {
    hooks = std::make_shared<detail::TestHooks>();
    hooks->ranks_per_node = mode.ranks_per_node;
  }
  {
    Writer writer = detail::make_writer(model.decomposition(), model.schema(), options, {hooks, nullptr, nullptr});
    for (int t = 0; t < frames; ++t) {
      const std::string date = wrf::add_seconds(start, 3600 * t);
      model.fill(t);
      writer.begin_frame(date);
      if (t % options.frames_per_file == 0) {
        std::string name = "wrfout_d01_" + date;
        if (mode.io_form == IoForm::Pnetcdf) {  // WRF's PnetCDF path writes no colons
          for (char& c : name) c = c == ':' ? '_' : c;
        }
        files.push_back({dir + "/" + name, {}, {}});
        EXPECT_EQ(writer.current_file(), files.back().path);
      }
      files.back().frames.push_back(t);
      files.back().dates.push_back(date);
      model.put_all([&](const std::string& n, const void* p, DataType ty) { writer.put(n, p, ty); });
      writer.end_frame();
    }
    writer.close();
    const Statistics& st = writer.statistics();
    ASSERT_EQ(st.frames.size(), static_cast<std::size_t>(frames));
    // Write-behind: io_form 11 slabs (rearranged, collective buffering off by default) leave
    // end_frame still on their way, and a frame that completes its file leaves the file to be
    // committed behind it; the next frame that packs into the slabs (model.fill has changed every
    // value by then) waits for the write. After close() every commit time is known.
    const bool slabs = mode.io_form == IoForm::Pnetcdf && mode.gather != GatherMode::Direct;
    for (std::size_t t = 0; t < st.frames.size(); ++t) {
      const FrameStats& fs = st.frames[t];
      EXPECT_GE(fs.rounds, 1);
      EXPECT_GT(fs.bytes, 0);
      const bool completes_file = t % 2 == 1 || t + 1 == st.frames.size();
      const bool behind = slabs && mode.write_behind;
      EXPECT_EQ(fs.written_behind, behind) << "frame " << t;
      if (completes_file && mode.io_form != IoForm::Null) {
        EXPECT_GE(fs.committed_after_seconds, 0) << "frame " << t;
        EXPECT_EQ(fs.committed_behind, behind) << "frame " << t;
      } else {
        EXPECT_LT(fs.committed_after_seconds, 0) << "frame " << t;
      }
    }
    if (mode.max_round_bytes <= 4096) {
      EXPECT_GT(st.frames[0].rounds, 4) << "tiny rounds must split the frame";
    }
  }
  MPI_Barrier(comm);
  if (rank_of(comm) != 0) return;
  EXPECT_TRUE(std::filesystem::exists(options.stats_json));
  // The statistics name the nwpio that wrote them, first (nwpio/version.h, from CMake's project()).
  const auto stats = nlohmann::ordered_json::parse(std::ifstream(options.stats_json), nullptr, false);
  ASSERT_TRUE(stats.is_object() && !stats.empty()) << options.stats_json << " is not a JSON object";
  EXPECT_EQ(stats.begin().key(), "nwpio_version");
  EXPECT_EQ(stats.value("nwpio_version", ""), NWPIO_VERSION_STRING);
  if (mode.io_form == IoForm::Null) {
    for (const ExpectedFile& f : files) EXPECT_FALSE(std::filesystem::exists(f.path)) << "io_form 0 wrote " << f.path;
    return;
  }
  ASSERT_EQ(files.size(), 3u);
  const int format = mode.format == FileFormat::Cdf5 ? NC_FORMAT_CDF5 : NC_FORMAT_64BIT_OFFSET;
  for (const ExpectedFile& f : files) {
    EXPECT_FALSE(std::filesystem::exists(test::temp_of(f.path)));
    check_file(f, model.schema(), shape, format);
    EXPECT_TRUE(ncvalidator_ok(f.path)) << "ncvalidator failed on " << f.path;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Modes, WriterRoundTrip,
    ::testing::Values(Mode{"direct_pack", IoForm::Pnetcdf, GatherMode::Direct, ReorderMode::Pack},
                      Mode{"direct_datatype", IoForm::Pnetcdf, GatherMode::Direct, ReorderMode::Datatype},
                      Mode{"direct_datatype_splitx", IoForm::Pnetcdf, GatherMode::Direct, ReorderMode::Datatype, 0,
                           std::int64_t{1} << 30, true},
                      Mode{"direct_tiny_rounds", IoForm::Pnetcdf, GatherMode::Direct, ReorderMode::Pack, 0, 4096},
                      Mode{"rearrange", IoForm::Pnetcdf, GatherMode::Rearrange},
                      Mode{"rearrange_splitx", IoForm::Pnetcdf, GatherMode::Rearrange, ReorderMode::Pack, 0,
                           std::int64_t{1} << 30, true},
                      Mode{"rearrange_no_write_behind", IoForm::Pnetcdf, GatherMode::Rearrange, ReorderMode::Pack,
                           0, std::int64_t{1} << 30, true, FileFormat::Cdf2, true, 0, false},
                      Mode{"rearrange_one_writer", IoForm::Pnetcdf, GatherMode::Rearrange, ReorderMode::Pack, 1},
                      Mode{"rearrange_tiny_rounds", IoForm::Pnetcdf, GatherMode::Rearrange, ReorderMode::Pack, 0, 4096,
                           true},
                      Mode{"rearrange_one_writer_tiny", IoForm::Pnetcdf, GatherMode::Rearrange, ReorderMode::Pack, 1,
                           4096},
                      Mode{"auto_cdf5", IoForm::Pnetcdf, GatherMode::Auto, ReorderMode::Auto, 0,
                           std::int64_t{1} << 30, true, FileFormat::Cdf5},
                      Mode{"null_backend", IoForm::Null, GatherMode::Rearrange},
                      Mode{"messages", IoForm::Pnetcdf, GatherMode::Rearrange, ReorderMode::Pack, 0,
                           std::int64_t{1} << 30, false, FileFormat::Cdf2, false},
                      Mode{"messages_splitx_tiny", IoForm::Pnetcdf, GatherMode::Rearrange, ReorderMode::Pack, 0, 4096,
                           true, FileFormat::Cdf2, false},
                      Mode{"messages_one_writer_cdf5", IoForm::Pnetcdf, GatherMode::Rearrange, ReorderMode::Pack, 1,
                           std::int64_t{1} << 30, true, FileFormat::Cdf5, false},
                      // Nodes of 2 ranks: at 3-4 ranks some pieces go through shared memory,
                      // others as messages, in the same round.
                      Mode{"two_rank_nodes", IoForm::Pnetcdf, GatherMode::Rearrange, ReorderMode::Pack, 0,
                           std::int64_t{1} << 30, true, FileFormat::Cdf2, true, 2},
                      Mode{"two_rank_nodes_tiny_one_writer", IoForm::Pnetcdf, GatherMode::Rearrange,
                           ReorderMode::Pack, 1, 4096, false, FileFormat::Cdf2, true, 2}),
    [](const ::testing::TestParamInfo<Mode>& p) { return p.param.name; });

}  // namespace
}  // namespace nwpio::test
