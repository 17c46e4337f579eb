// The hint report as a WRF user sees it: one line per file by default, naming the
// final file (not the .nwpio-tmp name it was opened under), the profile, what was set and every
// setting dropped, overridden or contradicted; no MPI-IO layer for io_form 2; and the level
// chosen by namelist < API < environment.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "hints/hints_report.hpp"
#include "nwpio/error.hpp"
#include "nwpio/version.h"

using namespace nwpio::detail;
using namespace nwpio::detail::hints;

namespace {

const std::string kOmpi414 = "Open MPI v4.1.4, package: Debian OpenMPI, ident: 4.1.4, repo rev: v4.1.4, May 26, 2022";
const std::map<std::string, int> kPrio = {{"ompio", 30}, {"romio321", 10}};

struct Report {
  std::string json, summary, full;
};

// The report of one file under OMPIO with these API overrides, as the Writer builds it.
Report report_for(const std::map<std::string, std::string>& overrides, bool mpi_io = true) {
  nwpio::HintOptions o;
  o.overrides = overrides;
  Resolved r = merge_levels(o, Environment{});
  derive(r, 1 << 20, true);
  const MpiIo io = classify(kOmpi414, "", kPrio);
  std::vector<Entry> entries = translate(r, io);
  if (!mpi_io) {
    for (auto& e : entries) {
      if (!e.keys.empty()) {
        e.keys.clear();
        e.status = "dropped";
      }
    }
  }
  FileFacts ext4;
  ext4.fs_type = "ext4";
  nwpio::detail::LayoutFacts layout;
  const ReportFile file{"/out/wrfout_d01_2019-06-01_00_00_00.nwpio-tmp", "/out/wrfout_d01_2019-06-01_00_00_00", mpi_io,
                        mpi_io ? 11 : 2, false, "", {}};
  Report out;
  out.json = report_json(file, r, io, entries, ext4, layout);
  out.summary = report_summary(out.json);
  out.full = report_text(out.json);
  return out;
}

std::size_t lines(const std::string& text) { return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')) + 1; }

}  // namespace

TEST(HintReportText, SummaryIsOneLineNamingTheFinalFile) {
  const Report r = report_for({{"stripe_count", "4"}, {"lustre_lockahead", "true"}});
  EXPECT_EQ(lines(r.summary), 1u) << r.summary;
  EXPECT_EQ(r.summary.rfind("nwpio hints: /out/wrfout_d01_2019-06-01_00_00_00 on ext4 via OMPIO: no profile", 0), 0u)
      << r.summary;
  EXPECT_EQ(r.summary.find(".nwpio-tmp"), std::string::npos) << r.summary;
  // What was set, and every dropped setting with where it came from (the JSON decides which).
  const auto j = nlohmann::json::parse(r.json);
  EXPECT_EQ(j["file"], "/out/wrfout_d01_2019-06-01_00_00_00");
  EXPECT_EQ(j["opened_as"], "/out/wrfout_d01_2019-06-01_00_00_00.nwpio-tmp");
  std::size_t named = 0;
  for (const auto& s : j["settings"]) {
    const std::string status = s["status"], what = s["name"].get<std::string>() + "=" + s["value"].get<std::string>();
    if (status == "default") {
      EXPECT_EQ(r.summary.find(s["name"].get<std::string>() + "="), std::string::npos) << what << ": " << r.summary;
    } else {
      EXPECT_NE(r.summary.find(what), std::string::npos) << what << " (" << status << ") not in: " << r.summary;
      ++named;
    }
  }
  EXPECT_GE(named, 3u);  // stripe_count, lustre_lockahead (dropped under OMPIO), collective_write
  EXPECT_NE(r.summary.find("dropped (not read by OMPIO): "), std::string::npos) << r.summary;
}

TEST(HintReportText, FullTableHasOneRowPerSetting) {
  const Report r = report_for({});
  const auto j = nlohmann::json::parse(r.json);
  EXPECT_EQ(lines(r.full), 1 + j["settings"].size()) << r.full;
  EXPECT_EQ(r.full.find(".nwpio-tmp"), std::string::npos) << r.full;
  // Its first line names the nwpio that wrote it; the one-line summary does not.
  const std::string first = r.full.substr(0, r.full.find('\n'));
  const std::string named = std::string(" -- nwpio ") + NWPIO_VERSION_STRING;
  EXPECT_EQ(first.size() >= named.size() ? first.substr(first.size() - named.size()) : first, named) << first;
  EXPECT_EQ(r.summary.find(" -- nwpio "), std::string::npos) << r.summary;
}

TEST(HintReportText, SerialNetcdfNamesNoMpiIoLayer) {
  const Report quiet = report_for({}, false);
  EXPECT_EQ(quiet.summary,
            "nwpio hints: /out/wrfout_d01_2019-06-01_00_00_00: io_form 2 writes through serial netCDF, without "
            "MPI-IO: no hints passed");
  EXPECT_EQ(quiet.full.find(" via "), std::string::npos) << quiet.full;
  // A setting somebody asked for is named as not passed; nwpio's own defaults are not.
  const Report asked = report_for({{"stripe_count", "4"}}, false);
  EXPECT_NE(asked.summary.find("; not passed: stripe_count=4 <API>"), std::string::npos) << asked.summary;
  EXPECT_EQ(asked.summary.find("collective_write"), std::string::npos) << asked.summary;
}

TEST(HintReportLevel, NamelistThenApiThenEnvironment) {
  nwpio::HintOptions o;
  const auto level = [&](const Environment& env) { return report_level(o, merge_levels(o, env).env_report); };
  EXPECT_EQ(level(Environment{}).level, nwpio::HintReport::Summary);
  EXPECT_EQ(level(Environment{}).chosen_by, "default");
  o.namelist.report = nwpio::HintReport::Full;
  EXPECT_EQ(level(Environment{}).level, nwpio::HintReport::Full);
  EXPECT_EQ(level(Environment{}).chosen_by, "namelist hint_report");
  o.report = nwpio::HintReport::Off;
  EXPECT_EQ(level(Environment{}).level, nwpio::HintReport::Off);
  EXPECT_EQ(level(Environment{}).chosen_by, "API");
  Environment env;
  env.hint_report = "FULL";
  EXPECT_EQ(level(env).level, nwpio::HintReport::Full);
  EXPECT_EQ(level(env).chosen_by, "NWPIO_HINT_REPORT");
  env.hint_report = "loud";
  try {
    (void)merge_levels(o, env);
    ADD_FAILURE() << "NWPIO_HINT_REPORT=loud accepted";
  } catch (const nwpio::Error& e) {
    EXPECT_EQ(e.kind(), nwpio::ErrorKind::Config);
    EXPECT_NE(std::string(e.what()).find("NWPIO_HINT_REPORT: hint report 'loud' is not one of off, summary, full"),
              std::string::npos)
        << e.what();
  }
}
