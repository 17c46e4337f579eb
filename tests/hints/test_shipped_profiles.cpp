// Every profile of every shipped hint file (configs/hints/*.toml) used for a real stream: its
// frames are written behind the model (FrameStats::written_behind), or the file's hint report
// says write-behind is off and names the setting that stops it -- and which profiles keep the
// fast path is what the files promise: all but [collective] and [locks], whose comments say so.
// Run under the MPI-IO layer of the build's default (OMPIO under Open MPI) and under ROMIO.
#include <gtest/gtest.h>
#include <mpi.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "mpi_support.hpp"
#include "nwpio/writer.hpp"
#include "test_model.hpp"

namespace nwpio::test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// The profile names of a TOML file, read as text ([profile.<name>] headers).
std::vector<std::string> profile_names(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> names;
  const std::regex header(R"(^\s*\[profile\.([A-Za-z0-9_-]+)\]\s*(#.*)?$)");
  for (std::string line; std::getline(in, line);) {
    std::smatch m;
    if (std::regex_match(line, m, header)) names.push_back(m[1]);
  }
  return names;
}

// Profiles whose two-phase I/O keeps the frame's write collective (the files say so).
bool keeps_collective(const std::string& profile) { return profile == "collective" || profile == "locks"; }

TEST(ShippedProfiles, KeepWriteBehindOrSayWhy) {
  const std::string src = NWPIO_SOURCE_DIR;
  int checked = 0;
  std::set<std::string> files;  // every shipped file, in a fixed order
  for (const auto& entry : fs::directory_iterator(src + "/configs/hints")) {
    if (entry.path().extension() == ".toml") files.insert(entry.path().filename().string());
  }
  ASSERT_GE(files.size(), 7u) << "a profile file per family: lustre, gpfs, nfs, glusterfs, beegfs, cephfs, local";
  for (const std::string& file : files) {
    const std::string path = src + "/configs/hints/" + file;
    const std::vector<std::string> names = profile_names(path);
    ASSERT_FALSE(names.empty()) << path;
    for (const std::string& profile : names) {
      SCOPED_TRACE(file + " [" + profile + "]");
      const std::string dir = fresh_dir("profiles_" + file + "_" + profile);
      ModelShape shape;
      Model model(world(), shape);
      OutputOptions o;
      o.output_dir = dir;
      o.print_timing = false;
      o.hints.report = HintReport::Off;
      o.hints.profile_file = path;
      o.hints.profile = profile;
      o.frames_per_file = 2;
      Writer w(model.decomposition(), model.schema(), o);
      write_hourly_frames(w, model, 2);
      const Statistics& st = w.statistics();
      ASSERT_EQ(st.frames.size(), 2u);
      if (my_rank() != 0) continue;
      json report;
      for (const auto& [key, text] : st.attachments) {
        if (key.rfind("hints:", 0) == 0) report = json::parse(text);
      }
      ASSERT_TRUE(report.contains("write_behind")) << report.dump();
      const bool on = report["write_behind"]["on"];
      EXPECT_EQ(st.frames[0].written_behind, on) << "the report and the stream disagree";
      EXPECT_EQ(st.frames[1].written_behind, on) << "the report and the stream disagree";
      EXPECT_EQ(on, !keeps_collective(profile)) << report["write_behind"].dump();
      if (!on) {
        const std::string why = report["write_behind"]["why_off"];
        EXPECT_TRUE(why.find("collective_write=true") != std::string::npos || why.find("no_indep_rw=true") != std::string::npos)
            << "the hint line must name the setting: " << why;
        EXPECT_NE(why.find(file), std::string::npos) << "and where it came from: " << why;
      }
      ++checked;
    }
  }
  if (my_rank() == 0) {
    EXPECT_GE(checked, 18);
  }
}

}  // namespace
}  // namespace nwpio::test
