// Checks one nwpio-bench JSON result (see CMakeLists.txt). Inputs from the environment:
// BENCH_JSON (the file), BENCH_DIR (the --dir of the run), BENCH_RANKS, BENCH_WORKLOAD.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace {

using nlohmann::json;

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

// The raw variants that `ceiling` and `netcdf-floor` run (bench/nwpio_bench/raw_variants.hpp).
const std::vector<std::string> kRawVariants = {"all-cb", "all", "at", "all-64m", "all-shm", "at-reserve", "pwrite"};

std::vector<std::string> all_methods() {
  std::vector<std::string> m = {"nwpio-io11", "nwpio-io11-sync", "nwpio-io11-rearrange", "nwpio-io11-messages",
                                "nwpio-io11-direct", "wrf-style", "nwpio-io2", "null", "ceiling", "netcdf-floor"};
  for (const auto& v : kRawVariants) {
    m.push_back("raw-" + v);
    m.push_back("floor-" + v);
  }
  return m;
}
const std::vector<std::string> kMethods = all_methods();

bool is_raw(const std::string& name) {
  return name == "ceiling" || name == "netcdf-floor" || name.rfind("raw-", 0) == 0 || name.rfind("floor-", 0) == 0;
}

class BenchJson : public ::testing::Test {
 protected:
  void SetUp() override {
    std::ifstream in(env("BENCH_JSON"));
    ASSERT_TRUE(in) << "cannot open BENCH_JSON=" << env("BENCH_JSON");
    ASSERT_NO_THROW(doc = json::parse(in));
    ASSERT_TRUE(doc.contains("results") && doc["results"].is_array());
    ASSERT_TRUE(doc.contains("config") && doc.contains("cases"));
    for (const auto& r : doc["results"]) by_case[r["case"].get<std::string>()][r["method"].get<std::string>()] = r;
  }
  json doc;
  std::map<std::string, std::map<std::string, json>> by_case;
};

TEST_F(BenchJson, EveryMethodOncePerCase) {
  ASSERT_FALSE(doc["cases"].empty());
  for (const auto& c : doc["cases"]) {
    const std::string label = c["label"];
    ASSERT_TRUE(by_case.count(label)) << label;
    EXPECT_EQ(by_case[label].size(), kMethods.size()) << label;
    for (const auto& m : kMethods) EXPECT_TRUE(by_case[label].count(m)) << label << ": " << m << " missing";
  }
  EXPECT_EQ(doc["results"].size(), doc["cases"].size() * kMethods.size());
}

// The nwpio methods report what the model sees: the time it was blocked (begin_frame .. end_frame,
// part of the timed seconds, which run until the file has its final name) and the time from the
// frame's end to the final name (none for a frame committed before end_frame returned).
TEST_F(BenchJson, NwpioMethodsReportBlockedAndFinalNameTimes) {
  for (auto& [label, methods] : by_case) {
    for (auto& [name, r] : methods) {
      if (name.rfind("nwpio-", 0) != 0) continue;
      const json& p = r["phases_median_seconds"];
      ASSERT_TRUE(p.contains("blocked") && p.contains("final_name")) << label << ": " << name;
      const double blocked = p["blocked"], final_name = p["final_name"];
      EXPECT_GT(blocked, 0) << label << ": " << name;
      EXPECT_LE(blocked, r["seconds_max"].get<double>() * 1.001) << label << ": " << name;
      EXPECT_GE(final_name, 0) << label << ": " << name;
      if (name == "nwpio-io11-sync") {
        EXPECT_EQ(final_name, 0) << label << ": the synchronous frame is committed when end_frame returns";
      }
    }
  }
}

TEST_F(BenchJson, MatrixCasesCoverShapesTypesDecompositions) {
  if (env("BENCH_WORKLOAD") != "matrix") GTEST_SKIP() << "not the matrix workload";
  const int n = std::atoi(env("BENCH_RANKS").c_str());
  std::set<std::string> shapes, types, grids;
  for (const auto& c : doc["cases"]) {
    shapes.insert(c["shape"].get<std::string>());
    types.insert(c["type"].get<std::string>());
    grids.insert(std::to_string(c["nproc_x"].get<int>()) + "x" + std::to_string(c["nproc_y"].get<int>()));
  }
  EXPECT_EQ(shapes, (std::set<std::string>{"2d", "3d", "stag"}));
  EXPECT_EQ(types, (std::set<std::string>{"float", "double", "int"}));
  EXPECT_TRUE(grids.count("1x" + std::to_string(n)));
  EXPECT_TRUE(grids.count(std::to_string(n) + "x1"));
  EXPECT_EQ(doc["cases"].size(), shapes.size() * types.size() * grids.size());
}

// Every method writes the same frame: the same bytes, equal to the case's frame bytes; for the
// matrix the frame bytes are recomputed here from the grid (n variables of one shape + Times).
TEST_F(BenchJson, BytesEqualAcrossMethodsAndToTheFrame) {
  for (const auto& c : doc["cases"]) {
    const std::string label = c["label"];
    const std::int64_t frame = c["frame_bytes"];
    for (const auto& [name, r] : by_case[label]) {
      EXPECT_EQ(r["bytes"].get<std::int64_t>(), frame) << label << ": " << name;
      EXPECT_TRUE(r["bytes_stable"].get<bool>()) << label << ": " << name;
    }
    if (c.contains("shape")) {
      const std::int64_t we = c["e_we"], sn = c["e_sn"], vert = c["e_vert"];
      const std::string shape = c["shape"], type = c["type"];
      const std::int64_t elem = type == "double" ? 8 : 4;
      const std::int64_t ni = shape == "stag" ? we : we - 1;
      const std::int64_t nk = shape == "2d" ? 1 : vert - 1;
      const std::int64_t nvars = c["variables"].get<std::int64_t>() - 1;
      EXPECT_EQ(frame, nvars * ni * (sn - 1) * nk * elem + 19) << label;
    }
  }
}

TEST_F(BenchJson, RatiosAndRatesFollowFromTheMedians) {
  for (auto& [label, methods] : by_case) {
    const double ceiling = methods["ceiling"]["seconds_median"];
    const double wrf = methods["wrf-style"]["seconds_median"];
    for (const auto& [name, r] : methods) {
      const double med = r["seconds_median"], lo = r["seconds_min"], hi = r["seconds_max"];
      ASSERT_GT(med, 0.0) << label << ": " << name;
      EXPECT_LE(lo, med);
      EXPECT_LE(med, hi);
      EXPECT_NEAR(r["ratio_to_ceiling"].get<double>(), ceiling / med, 1e-9 * ceiling / med) << label << ": " << name;
      EXPECT_NEAR(r["ratio_to_wrf_style"].get<double>(), wrf / med, 1e-9 * wrf / med) << label << ": " << name;
      const double bytes = static_cast<double>(r["bytes"].get<std::int64_t>());
      EXPECT_NEAR(r["mb_per_s"].get<double>(), bytes / 1e6 / med, 1e-9 * bytes / 1e6 / med);
      EXPECT_EQ(r["seconds"].size(), doc["config"]["repeat"].get<std::size_t>());
    }
    EXPECT_DOUBLE_EQ(methods["ceiling"]["ratio_to_ceiling"].get<double>(), 1.0);
    EXPECT_DOUBLE_EQ(methods["wrf-style"]["ratio_to_wrf_style"].get<double>(), 1.0);
  }
}

// The netcdf-floor is the fastest floor-* variant and the ceiling the fastest of all raw-* and
// floor-* variants (every one writes the frame's bytes), each row carrying that variant's own
// numbers and naming it; so the ceiling is never slower than the floor.
TEST_F(BenchJson, CeilingAndFloorAreTheFastestVariants) {
  for (auto& [label, methods] : by_case) {
    for (const auto& [row, prefixes] :
         {std::pair<std::string, std::vector<std::string>>{"ceiling", {"raw-", "floor-"}}, {"netcdf-floor", {"floor-"}}}) {
      std::string best;
      double best_median = 0;
      for (const auto& prefix : prefixes) {
        for (const auto& v : kRawVariants) {
          const double med = methods[prefix + v]["seconds_median"];
          if (best.empty() || med < best_median) {
            best = prefix + v;
            best_median = med;
          }
        }
      }
      const json& r = methods[row];
      EXPECT_EQ(r["best_of"].get<std::string>(), best) << label << ": " << row;
      EXPECT_EQ(r["seconds_median"].get<double>(), best_median) << label << ": " << row;
      EXPECT_EQ(r["seconds"], methods[best]["seconds"]) << label << ": " << row;
      EXPECT_NE(r["mode"].get<std::string>().find(best), std::string::npos) << r["mode"];
    }
    EXPECT_LE(methods["ceiling"]["seconds_median"].get<double>(), methods["netcdf-floor"]["seconds_median"].get<double>());
  }
}

TEST_F(BenchJson, FilesAndMemoryAreAccountedFor) {
  const std::size_t ranks = static_cast<std::size_t>(std::atoi(env("BENCH_RANKS").c_str()));
  for (auto& [label, methods] : by_case) {
    for (const auto& [name, r] : methods) {
      const std::int64_t bytes = r["bytes"], file = r["file_bytes"];
      if (name == "null") {
        EXPECT_EQ(file, -1) << label << ": the null backend writes no file";
      } else if (is_raw(name)) {
        EXPECT_EQ(file, bytes) << label << ": " << name;
      } else {
        EXPECT_GT(file, bytes) << label << ": " << name << ": a netCDF file is the data plus a header";
      }
      if (name != "null") {
        EXPECT_TRUE(r["verify_ok"].get<bool>()) << label << ": " << name << ": " << r["verify"];
      }
      EXPECT_EQ(r["peak_rss_bytes_per_rank"].size(), ranks);
      EXPECT_GT(r["peak_rss_bytes"].get<std::int64_t>(), 0) << label << ": " << name;
    }
  }
}

TEST_F(BenchJson, ConfigDescribesTheRun) {
  const auto& c = doc["config"];
  EXPECT_EQ(c["ranks"].get<int>(), std::atoi(env("BENCH_RANKS").c_str()));
  EXPECT_EQ(c["workload"].get<std::string>(), env("BENCH_WORKLOAD"));
  EXPECT_EQ(c["ranks_exceed_cores"].get<bool>(), c["ranks_per_node"].get<long>() > c["cores"].get<long>());
  EXPECT_TRUE(c["mpiio"].contains("library"));
  EXPECT_TRUE(c.contains("hint_profile"));
  EXPECT_TRUE(c.contains("fsync"));
}

// Output files are removed after each repetition and the run directory at the end.
TEST_F(BenchJson, NothingLeftInTheDirectory) {
  const std::filesystem::path dir = env("BENCH_DIR");
  ASSERT_TRUE(std::filesystem::is_directory(dir)) << dir;
  EXPECT_TRUE(std::filesystem::is_empty(dir)) << dir << " is not empty";
}

}  // namespace
