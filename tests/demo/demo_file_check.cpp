// Checks the files of one nwpio-demo run (ctest runs the demo first, as a fixture): the set of
// files and their names, ncvalidator and ncdump on each, WRF's dimensions in WRF's order, all
// 202 variables with the attributes of a real WRF V4.4.1 header, the global attributes, Times,
// and every value of every record against the fill rule, read through netCDF-C.
// The run is described by environment variables set in tests/demo/CMakeLists.txt:
//   DEMO_DIR, DEMO_E_WE, DEMO_E_SN, DEMO_E_VERT, DEMO_FRAMES, DEMO_FRAMES_PER_FILE,
//   DEMO_START, DEMO_INTERVAL_MINUTES, DEMO_NPROC_X, DEMO_NPROC_Y, DEMO_FORMAT (cdf2|cdf5),
//   DEMO_DX (= DY), DEMO_DT, DEMO_COLONS (1: file names keep the date's colons).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "nc_reader.hpp"
#include "nwpio/wrf_date.hpp"
#include "nwpio_model/wrf_history.hpp"
#include "synthetic.hpp"

namespace {

using nwpio::test::NcAttribute;
using nwpio::test::NcHeader;

std::string env(const char* name) {
  const char* v = std::getenv(name);
  if (!v) throw std::runtime_error(std::string("environment variable ") + name + " is not set");
  return v;
}
int env_int(const char* name) { return std::stoi(env(name)); }

struct DemoRun {
  std::string dir = env("DEMO_DIR");
  int e_we = env_int("DEMO_E_WE"), e_sn = env_int("DEMO_E_SN"), e_vert = env_int("DEMO_E_VERT");
  int frames = env_int("DEMO_FRAMES"), frames_per_file = env_int("DEMO_FRAMES_PER_FILE");
  std::string start = env("DEMO_START");
  int interval_minutes = env_int("DEMO_INTERVAL_MINUTES");
  int nproc_x = env_int("DEMO_NPROC_X"), nproc_y = env_int("DEMO_NPROC_Y");
  std::string format = env("DEMO_FORMAT");
  float dx = std::stof(env("DEMO_DX")), dt = std::stof(env("DEMO_DT"));  // DX = DY
  bool colons = env("DEMO_COLONS") == "1";  // io_form 2 keeps the date's colons in file names

  std::string date(int frame) const {
    return nwpio::wrf::add_seconds(start, std::int64_t{frame} * interval_minutes * 60);
  }
};

struct ExpectedFile {
  std::string path;
  int first_frame = 0;
  std::vector<std::string> dates;
};

// File n holds frames n*P .. min(F, (n+1)*P) - 1 and is named with its first date, colons as
// underscores on WRF's PnetCDF path (io_form 11); the serial path (io_form 2) keeps them.
std::vector<ExpectedFile> expected_files(const DemoRun& run) {
  std::vector<ExpectedFile> files;
  for (int first = 0; first < run.frames; first += run.frames_per_file) {
    ExpectedFile f;
    f.first_frame = first;
    for (int t = first; t < std::min(run.frames, first + run.frames_per_file); ++t) f.dates.push_back(run.date(t));
    std::string name = "wrfout_d01_" + f.dates.front();
    if (!run.colons) std::replace(name.begin(), name.end(), ':', '_');
    f.path = (std::filesystem::path(run.dir) / name).string();
    files.push_back(std::move(f));
  }
  return files;
}

class DemoFiles : public ::testing::Test {
 protected:
  DemoRun run;
  std::vector<ExpectedFile> files = expected_files(run);
  NcHeader reference = nwpio::test::read_header(NWPIO_REFERENCE_NC);
};

TEST_F(DemoFiles, AreTheFilesOfTheRun) {
  std::set<std::string> found, expected;
  for (const auto& e : std::filesystem::directory_iterator(run.dir)) {
    if (e.path().filename().string().rfind("wrfout_", 0) == 0) found.insert(e.path().string());
  }
  for (const auto& f : files) expected.insert(f.path);
  EXPECT_EQ(found, expected);
}

TEST_F(DemoFiles, PassNcvalidatorAndNcdump) {
  ASSERT_TRUE(std::filesystem::exists(NWPIO_NCVALIDATOR)) << "ncvalidator not found (pnetcdf-bin)";
  ASSERT_TRUE(std::filesystem::exists(NWPIO_NCDUMP)) << "ncdump not found (netcdf-bin)";
  // ncvalidator (PnetCDF) takes what precedes a ':' for a file system prefix, and io_form 2
  // names keep the date's colons: validate through a link with a colon-free name.
  const std::filesystem::path links = std::filesystem::path(run.dir + "-ncvalidator");
  std::filesystem::remove_all(links);
  std::filesystem::create_directories(links);
  for (const auto& f : files) {
    std::string name = std::filesystem::path(f.path).filename().string();
    std::replace(name.begin(), name.end(), ':', '_');
    const auto link = links / name;
    std::filesystem::create_symlink(std::filesystem::absolute(f.path), link);
    EXPECT_EQ(std::system((std::string(NWPIO_NCVALIDATOR) + " -q '" + link.string() + "'").c_str()), 0) << f.path;
    EXPECT_EQ(std::system((std::string(NWPIO_NCDUMP) + " -h '" + f.path + "' > /dev/null").c_str()), 0) << f.path;
  }
}

TEST_F(DemoFiles, HaveWrfDimensionsInWrfOrder) {
  // Lengths of this run; order and the extra dimensions' lengths from the real header.
  const std::map<std::string, std::size_t> lengths = {
      {"DateStrLen", 19},
      {"west_east", run.e_we - 1},
      {"west_east_stag", run.e_we},
      {"south_north", run.e_sn - 1},
      {"south_north_stag", run.e_sn},
      {"bottom_top", run.e_vert - 1},
      {"bottom_top_stag", run.e_vert}};
  for (const auto& f : files) {
    SCOPED_TRACE(f.path);
    const NcHeader h = nwpio::test::read_header(f.path);
    EXPECT_EQ(h.format, run.format == "cdf5" ? NC_FORMAT_CDF5 : NC_FORMAT_64BIT_OFFSET);
    ASSERT_EQ(h.dims.size(), reference.dims.size());
    for (std::size_t d = 0; d < h.dims.size(); ++d) {
      auto expected = reference.dims[d];
      if (expected.unlimited) expected.length = f.dates.size();
      else if (lengths.count(expected.name)) expected.length = lengths.at(expected.name);
      EXPECT_EQ(h.dims[d], expected) << "dimension " << d << ": " << h.dims[d].name << " = " << h.dims[d].length
                                     << ", expected " << expected.name << " = " << expected.length;
    }
  }
}

TEST_F(DemoFiles, HaveTheVariablesAndAttributesOfTheRealHeader) {
  for (const auto& f : files) {
    SCOPED_TRACE(f.path);
    const NcHeader h = nwpio::test::read_header(f.path);
    ASSERT_EQ(h.vars.size(), reference.vars.size());
    ASSERT_EQ(h.vars.size(), static_cast<std::size_t>(nwpio::wrf::kHistoryVariableCount) + 1);
    for (std::size_t v = 0; v < h.vars.size(); ++v) {
      nwpio::test::NcVariable expected = reference.vars[v];
      // XTIME counts from this run's start, as WRF writes it: "minutes since 2019-06-01 00:00:00".
      if (expected.name == "XTIME") {
        std::string since = "minutes since " + run.start;
        since[since.size() - 9] = ' ';
        for (auto& a : expected.attributes) {
          if (a.name == "description" || a.name == "units") {
            a.bytes.assign(since.begin(), since.end());
            a.length = since.size();
          }
        }
      }
      EXPECT_EQ(h.vars[v], expected) << reference.vars[v].name;
    }
  }
}

TEST_F(DemoFiles, HaveTheGlobalAttributesOfTheRun) {
  // Run-dependent attributes, computed from the run's settings; the others are the real header's.
  const std::int64_t start = nwpio::wrf::date_to_seconds(run.start);
  const int year = std::stoi(run.start.substr(0, 4));
  const std::int64_t of_year = start - nwpio::wrf::date_to_seconds(nwpio::wrf::make_date(year, 1, 1, 0, 0, 0));
  const std::map<std::string, int> ints = {
      {"WEST-EAST_GRID_DIMENSION", run.e_we}, {"SOUTH-NORTH_GRID_DIMENSION", run.e_sn},
      {"BOTTOM-TOP_GRID_DIMENSION", run.e_vert}, {"NTASKS_X", run.nproc_x}, {"NTASKS_Y", run.nproc_y},
      {"NTASKS_TOTAL", run.nproc_x * run.nproc_y}, {"WEST-EAST_PATCH_START_UNSTAG", 1},
      {"WEST-EAST_PATCH_END_UNSTAG", run.e_we - 1}, {"WEST-EAST_PATCH_START_STAG", 1},
      {"WEST-EAST_PATCH_END_STAG", run.e_we}, {"SOUTH-NORTH_PATCH_START_UNSTAG", 1},
      {"SOUTH-NORTH_PATCH_END_UNSTAG", run.e_sn - 1}, {"SOUTH-NORTH_PATCH_START_STAG", 1},
      {"SOUTH-NORTH_PATCH_END_STAG", run.e_sn}, {"BOTTOM-TOP_PATCH_START_UNSTAG", 1},
      {"BOTTOM-TOP_PATCH_END_UNSTAG", run.e_vert - 1}, {"BOTTOM-TOP_PATCH_START_STAG", 1},
      {"BOTTOM-TOP_PATCH_END_STAG", run.e_vert}, {"JULYR", year},
      {"JULDAY", static_cast<int>(of_year / 86400 + 1)}};
  const std::map<std::string, float> floats = {{"DX", run.dx},
                                               {"DY", run.dx},
                                               {"DT", run.dt},
                                               {"GMT", static_cast<float>(of_year % 86400) / 3600.0f}};
  const std::map<std::string, std::string> texts = {{"START_DATE", run.start}, {"SIMULATION_START_DATE", run.start}};
  for (const auto& f : files) {
    SCOPED_TRACE(f.path);
    const NcHeader h = nwpio::test::read_header(f.path);
    ASSERT_EQ(h.global_attributes.size(), reference.global_attributes.size());
    for (std::size_t a = 0; a < h.global_attributes.size(); ++a) {
      const NcAttribute& got = h.global_attributes[a];
      const NcAttribute& ref = reference.global_attributes[a];
      ASSERT_EQ(got.name, ref.name) << "global attribute " << a;
      EXPECT_EQ(got.type, ref.type) << got.name;
      if (ints.count(got.name)) {
        EXPECT_EQ(got.as_int(), ints.at(got.name)) << got.name;
      } else if (floats.count(got.name)) {
        EXPECT_EQ(got.as_float(), floats.at(got.name)) << got.name;
      } else if (texts.count(got.name)) {
        EXPECT_EQ(got.text(), texts.at(got.name)) << got.name;
      } else {
        EXPECT_EQ(got, ref) << got.name;
      }
    }
  }
}

TEST_F(DemoFiles, HoldTheFillRuleAndTheFrameDates) {
  nwpio::wrf::HistorySchemaOptions o;
  o.e_we = run.e_we;
  o.e_sn = run.e_sn;
  o.e_vert = run.e_vert;
  o.start_date = run.start;
  const auto schema = nwpio::wrf::history_schema(o);
  for (const auto& f : files) {
    SCOPED_TRACE(f.path);
    // Every value of the file must have been compared: count them from the file's own header.
    const NcHeader h = nwpio::test::read_header(f.path);
    std::map<std::string, std::size_t> dim_length;
    for (const auto& d : h.dims) dim_length[d.name] = d.length;
    std::int64_t values = 0;
    for (std::size_t v = 1; v < h.vars.size(); ++v) {
      std::int64_t n = 1;
      for (const auto& d : h.vars[v].dims) n *= static_cast<std::int64_t>(dim_length[d]);
      values += n;
    }
    // nwpio-demo writes XTIME as WRF does (minutes since the start); the rest by the fill rule.
    const auto result = nwpio::synthetic::verify_file(f.path, schema, f.first_frame, f.dates,
                                                      nwpio::synthetic::TimeValues::MinutesSinceStart);
    EXPECT_TRUE(result.ok) << result.summary();
    EXPECT_EQ(result.records, static_cast<int>(f.dates.size()));
    EXPECT_EQ(result.values_checked, values);
  }
}

}  // namespace
