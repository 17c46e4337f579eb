// Helpers of the reliability MPI tests: same-error-everywhere checks, fresh scratch
// directories, file names by frame, and "is this file complete and exact" (nwpio-check's
// verdict, ncvalidator, every value through netCDF-C via tests/mpi_writer/test_model).
#pragma once

#include <gtest/gtest.h>
#include <mpi.h>
#include <netcdf.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "temp_paths.hpp"
#include "file_check.hpp"
#include "nwpio/error.hpp"
#include "nwpio/writer.hpp"
#include "nwpio/wrf_date.hpp"
#include "mpi_support.hpp"
#include "test_model.hpp"

namespace nwpio::test::rel {

inline std::string fresh_dir(const std::string& name) { return test::fresh_dir("rel_" + name); }

inline OutputOptions options_for(const std::string& dir) {
  OutputOptions o;
  o.output_dir = dir;
  o.print_timing = false;
  o.hints.report = HintReport::Off;
  return o;
}

inline std::string date_at(int t) { return wrf::add_seconds("2019-06-01_00:00:00", 3600 * t); }
inline std::string file_at(const std::string& dir, int t) {
  std::string d = date_at(t);
  for (char& c : d) c = c == ':' ? '_' : c;
  return dir + "/wrfout_d01_" + d;
}
using test::appears_within;
using test::temp_of;

inline void put_all(Writer& w, const Model& m) {
  m.put_all([&](const std::string& n, const void* p, DataType t) { w.put(n, p, t); });
}

// Writes frame t completely (fill, begin, put all, end).
inline void write_frame(Writer& w, Model& m, int t) {
  m.fill(t);
  w.begin_frame(date_at(t));
  put_all(w, m);
  w.end_frame();
}

// Whether `path` is a classic netCDF file ("CDF" first): the files ncvalidator reads (netCDF-4
// files are HDF5).
inline bool classic_file(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return false;
  char magic[3] = {};
  const bool cdf = std::fread(magic, 1, 3, f) == 3 && magic[0] == 'C' && magic[1] == 'D' && magic[2] == 'F';
  std::fclose(f);
  return cdf;
}

// Rank 0: `path` is a complete, exact file holding `frames` (global frame numbers): nwpio-check
// says OK, ncvalidator passes (classic files), every value and attribute reads back through
// netCDF-C, in `format`.
inline void expect_complete(const std::string& path, const std::vector<int>& frames, const Model& m,
                            const ModelShape& shape, int format = NC_FORMAT_64BIT_OFFSET) {
  if (my_rank() != 0) return;
  // A complete file is committed behind the model: it appears without another call into nwpio.
  EXPECT_TRUE(appears_within(path, 60)) << path;
  const auto verdict = check::check_file(path);
  EXPECT_EQ(verdict.verdict, check::Verdict::Ok) << verdict.line;
  if (format != NC_FORMAT_NETCDF4) {
    EXPECT_TRUE(ncvalidator_ok(path)) << path;
  }
  std::vector<std::string> dates;
  for (int t : frames) dates.push_back(date_at(t));
  check_file({path, frames, dates}, m.schema(), shape, format);
}

// Rank 0: every file in `dir` (a final name) is complete by nwpio-check; the temporary ones are in
// the private folder.
// This is the atomic-commit invariant: whatever failed, nothing incomplete has a final name.
// `foreign`: files the test put there itself (not nwpio's), left out.
inline void expect_no_incomplete_final_file(const std::string& dir, const std::vector<std::string>& foreign = {}) {
  if (my_rank() != 0) return;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (!e.is_regular_file()) continue;
    const std::string p = e.path().string();
    if (std::find(foreign.begin(), foreign.end(), p) != foreign.end()) continue;
    const auto verdict = check::check_file(p);
    EXPECT_FALSE(p.ends_with(".nwpio-tmp")) << "a temporary file outside the private folder: " << p;
    EXPECT_EQ(verdict.verdict, check::Verdict::Ok) << verdict.line;
    if (classic_file(p)) {
      EXPECT_TRUE(ncvalidator_ok(p)) << p;
    }
  }
  // The files that are not complete: in the user's private folder, TEMP by nwpio-check.
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(test::private_dir_of(dir), ec)) {
    const std::string p = e.path().string();
    if (!p.ends_with(".nwpio-tmp")) continue;
    EXPECT_EQ(check::check_file(p).verdict, check::Verdict::Temporary) << p;
  }
}

}  // namespace nwpio::test::rel
