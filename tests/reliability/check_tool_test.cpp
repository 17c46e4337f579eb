// nwpio-check (tools/check): one verdict per file. Files are made with netCDF-C directly (so the
// checker is tested apart from the Writer): complete CDF-2, CDF-5 and netCDF-4 history files,
// and every way a file can be wrong -- truncated, not netCDF, not WRF-structured, no frame, a
// frame whose Times was never written, dates going backwards, a temporary leftover, a missing
// file. The binary's exit codes (0 all OK, 1 any problem, 2 usage) are checked too.
#include <gtest/gtest.h>
#include <netcdf.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "file_check.hpp"
#include "scratch.hpp"

namespace {

namespace fs = std::filesystem;
using nwpio::check::check_file;
using nwpio::check::Verdict;

#define NC_OK(call) ASSERT_EQ((call), NC_NOERR) << #call

std::string dir() {
  static const std::string d = [] {
    std::string p = nwpio::test::scratch_dir("check_tool");
    fs::create_directories(p);
    return p;
  }();
  return d;
}

struct Spec {
  int cmode = NC_64BIT_OFFSET;
  std::vector<std::string> dates = {"2019-06-01_00:00:00", "2019-06-01_01:00:00"};
  bool wrf = true;               // Time, DateStrLen, Times
  int times_written = -1;        // records whose Times is written (-1: all)
  bool odd_tail = false;         // last record variable char(Time, 3): the last record ends
                                 // 1 byte before the padded record size (as in real wrfouts)
};

// A small WRF-like file: Times(Time, DateStrLen), HGT(south_north, west_east) static,
// T2(Time, south_north, west_east) per frame.
void make_file(const std::string& path, const Spec& s) {
  int nc = -1, time = -1, strlen = -1, sn = -1, we = -1, times = -1, hgt = -1, t2 = -1;
  NC_OK(nc_create(path.c_str(), s.cmode | NC_CLOBBER, &nc));
  NC_OK(nc_def_dim(nc, s.wrf ? "Time" : "record", NC_UNLIMITED, &time));
  NC_OK(nc_def_dim(nc, "DateStrLen", 19, &strlen));
  NC_OK(nc_def_dim(nc, "south_north", 30, &sn));
  NC_OK(nc_def_dim(nc, "west_east", 40, &we));
  if (s.wrf) {
    int d[2] = {time, strlen};
    NC_OK(nc_def_var(nc, "Times", NC_CHAR, 2, d, &times));
  }
  int d2[2] = {sn, we};
  NC_OK(nc_def_var(nc, "HGT", NC_FLOAT, 2, d2, &hgt));
  int d3[3] = {time, sn, we};
  NC_OK(nc_def_var(nc, "T2", NC_FLOAT, 3, d3, &t2));
  int three = -1, tail = -1;
  if (s.odd_tail) {
    NC_OK(nc_def_dim(nc, "three", 3, &three));
    int dt[2] = {time, three};
    NC_OK(nc_def_var(nc, "TAIL", NC_CHAR, 2, dt, &tail));
  }
  NC_OK(nc_enddef(nc));
  std::vector<float> field(30 * 40);
  for (std::size_t i = 0; i < field.size(); ++i) field[i] = static_cast<float>(i);
  NC_OK(nc_put_var_float(nc, hgt, field.data()));
  for (std::size_t r = 0; r < s.dates.size(); ++r) {
    size_t start[3] = {r, 0, 0}, count[3] = {1, 30, 40};
    NC_OK(nc_put_vara_float(nc, t2, start, count, field.data()));
    if (s.wrf && (s.times_written < 0 || static_cast<int>(r) < s.times_written)) {
      size_t ts[2] = {r, 0}, tc[2] = {1, 19};
      NC_OK(nc_put_vara_text(nc, times, ts, tc, s.dates[r].c_str()));
    }
    if (s.odd_tail) {
      size_t ts[2] = {r, 0}, tc[2] = {1, 3};
      NC_OK(nc_put_vara_text(nc, tail, ts, tc, "abc"));
    }
  }
  NC_OK(nc_close(nc));
}

std::string path_of(const std::string& name) { return dir() + "/" + name; }

TEST(NwpioCheck, CompleteFilesAreOk) {
  for (int cmode : {NC_64BIT_OFFSET, NC_64BIT_DATA, NC_NETCDF4, 0}) {
    const std::string p = path_of("complete_" + std::to_string(cmode) + ".nc");
    Spec s;
    s.cmode = cmode;
    make_file(p, s);
    const auto r = check_file(p);
    EXPECT_EQ(r.verdict, Verdict::Ok) << r.line;
    EXPECT_EQ(r.line.rfind("OK", 0), 0u) << r.line;
    EXPECT_NE(r.line.find("2 frames 2019-06-01_00:00:00 .. 2019-06-01_01:00:00"), std::string::npos) << r.line;
  }
}

TEST(NwpioCheck, TruncatedClassicFileIsBad) {
  for (int cmode : {NC_64BIT_OFFSET, NC_64BIT_DATA}) {
    const std::string p = path_of("truncated_" + std::to_string(cmode) + ".nc");
    make_file(p, Spec{.cmode = cmode});
    const auto full = fs::file_size(p);
    // Cut inside the last record: what a killed writer without atomic rename would leave.
    fs::resize_file(p, full - 1000);
    const auto r = check_file(p);
    EXPECT_EQ(r.verdict, Verdict::Bad) << r.line;
    EXPECT_EQ(r.line.rfind("BAD", 0), 0u) << r.line;
    EXPECT_NE(r.line.find("truncated"), std::string::npos) << r.line;
    EXPECT_NE(r.line.find(std::to_string(full)), std::string::npos) << "names the size promised: " << r.line;
  }
}

TEST(NwpioCheck, UnpaddedLastRecordIsOkAndOneByteShortIsBad) {
  // The last record ends right after its last variable's bytes, short of the padded recsize.
  for (int cmode : {NC_64BIT_OFFSET, NC_64BIT_DATA}) {
    const std::string p = path_of("odd_tail_" + std::to_string(cmode) + ".nc");
    make_file(p, Spec{.cmode = cmode, .odd_tail = true});
    auto r = check_file(p);  // netCDF-C writes the padding byte too
    EXPECT_EQ(r.verdict, Verdict::Ok) << r.line;
    fs::resize_file(p, fs::file_size(p) - 1);  // PnetCDF does not: the file ends after "abc"
    r = check_file(p);
    EXPECT_EQ(r.verdict, Verdict::Ok) << r.line;
    fs::resize_file(p, fs::file_size(p) - 1);  // one byte of data missing
    r = check_file(p);
    EXPECT_EQ(r.verdict, Verdict::Bad) << r.line;
    EXPECT_NE(r.line.find("truncated"), std::string::npos) << r.line;
  }
}

TEST(NwpioCheck, HeaderOnlyRemnantIsBad) {
  const std::string p = path_of("header_only.nc");
  make_file(p, Spec{});
  fs::resize_file(p, 200);  // the header cut short: not even readable
  const auto r = check_file(p);
  EXPECT_EQ(r.verdict, Verdict::Bad) << r.line;
}

TEST(NwpioCheck, NotNetcdfIsBad) {
  const std::string p = path_of("text.nc");
  std::ofstream(p) << "this is not a netCDF file\n";
  const auto r = check_file(p);
  EXPECT_EQ(r.verdict, Verdict::Bad) << r.line;
  EXPECT_NE(r.line.find("not a readable netCDF file"), std::string::npos) << r.line;
}

TEST(NwpioCheck, MissingFileIsBad) {
  const auto r = check_file(path_of("does_not_exist.nc"));
  EXPECT_EQ(r.verdict, Verdict::Bad) << r.line;
  EXPECT_NE(r.line.find("No such file"), std::string::npos) << r.line;
}

TEST(NwpioCheck, NotWrfStructuredIsBad) {
  const std::string p = path_of("not_wrf.nc");
  make_file(p, Spec{.wrf = false});
  const auto r = check_file(p);
  EXPECT_EQ(r.verdict, Verdict::Bad) << r.line;
  EXPECT_NE(r.line.find("not WRF history"), std::string::npos) << r.line;
}

TEST(NwpioCheck, NoFrameIsBad) {
  const std::string p = path_of("no_frame.nc");
  make_file(p, Spec{.dates = {}});
  const auto r = check_file(p);
  EXPECT_EQ(r.verdict, Verdict::Bad) << r.line;
  EXPECT_NE(r.line.find("no frame"), std::string::npos) << r.line;
}

TEST(NwpioCheck, FrameWithoutDateIsBad) {
  const std::string p = path_of("no_date.nc");
  make_file(p, Spec{.times_written = 1});  // record 1's data there, its Times never written
  const auto r = check_file(p);
  EXPECT_EQ(r.verdict, Verdict::Bad) << r.line;
  EXPECT_NE(r.line.find("frame 1 has no valid date"), std::string::npos) << r.line;
}

TEST(NwpioCheck, DatesGoingBackwardsAreBad) {
  const std::string p = path_of("backwards.nc");
  make_file(p, Spec{.dates = {"2019-06-01_01:00:00", "2019-06-01_00:00:00"}});
  const auto r = check_file(p);
  EXPECT_EQ(r.verdict, Verdict::Bad) << r.line;
  EXPECT_NE(r.line.find("is not after"), std::string::npos) << r.line;
}

TEST(NwpioCheck, TemporaryLeftoverIsTemp) {
  // Complete or not, a file under the temporary name was never committed.
  const std::string p = path_of("wrfout_d01_2019-06-01_00_00_00.nwpio-tmp");
  make_file(p, Spec{});
  const auto r = check_file(p);
  EXPECT_EQ(r.verdict, Verdict::Temporary) << r.line;
  EXPECT_EQ(r.line.rfind("TEMP", 0), 0u) << r.line;
  EXPECT_NE(r.line.find("would have become " + path_of("wrfout_d01_2019-06-01_00_00_00") + ")"), std::string::npos)
      << r.line;
}

// Runs the binary outside this MPI job: a clean environment, so that its own MPI_Init is a
// singleton and does not try to join the mpiexec this test runs under.
// The sanitizer options (sanitizer build) are handed on, so the child runs with the same ones.
int run(const std::string& args) {
  std::string keep;
  for (const char* var : {"ASAN_OPTIONS", "LSAN_OPTIONS", "UBSAN_OPTIONS", "ASAN_SYMBOLIZER_PATH"}) {
    if (const char* v = std::getenv(var)) keep += std::string(var) + "='" + v + "' ";
  }
  const std::string cmd = "env -i PATH=/usr/bin:/bin OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 " + keep +
                          std::string(NWPIO_CHECK_EXE) + " " + args + " > " + dir() + "/cli.out 2>&1";
  const int status = std::system(cmd.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string cli_output() {
  std::ifstream in(dir() + "/cli.out");
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

TEST(NwpioCheck, ExitCodes) {
  const std::string a = path_of("cli_a.nc"), b = path_of("cli_b.nc"), tmp = path_of("cli_c.nwpio-tmp");
  make_file(a, Spec{});
  make_file(b, Spec{.cmode = NC_NETCDF4});
  make_file(tmp, Spec{});
  EXPECT_EQ(run(a + " " + b), 0) << cli_output();
  EXPECT_EQ(run(a + " " + tmp + " " + b), 1) << cli_output();
  const std::string out = cli_output();
  // One line per file, in the order given.
  EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 3) << out;
  EXPECT_LT(out.find("OK   " + a), out.find("TEMP " + tmp));
  EXPECT_LT(out.find("TEMP " + tmp), out.find("OK   " + b));
  EXPECT_EQ(run(a + " " + path_of("missing.nc")), 1) << cli_output();
  EXPECT_EQ(run(""), 2) << cli_output();
}

}  // namespace
