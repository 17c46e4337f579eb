// nwpio-check (tools/check): one verdict per file. Files are made with netCDF-C directly (so the
// checker is tested apart from the Writer): complete CDF-2, CDF-5 and netCDF-4 history files,
// and every way a file can be wrong -- truncated, not netCDF, not WRF-structured, no frame, a
// frame whose Times was never written, dates going backwards, a temporary leftover, a missing
// file. The binary's exit codes (0 all OK, 1 any problem, 2 usage) are checked too, and what it
// says for an output folder and for a final name with leftovers in the private folder.
#include <gtest/gtest.h>
#include <netcdf.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
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

// A FIFO or a folder under a checked name is BAD at once: nothing waits for a FIFO's writer.
TEST(NwpioCheck, NotARegularFileIsBadWithoutOpeningIt) {
  const std::string fifo = path_of("a_fifo"), folder = path_of("a_folder");
  fs::remove(fifo);
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0);
  fs::create_directories(folder);
  auto r = check_file(fifo);
  EXPECT_EQ(r.verdict, Verdict::Bad) << r.line;
  EXPECT_NE(r.line.find("not a regular file (a FIFO)"), std::string::npos) << r.line;
  r = check_file(folder);
  EXPECT_EQ(r.verdict, Verdict::Bad) << r.line;
  EXPECT_NE(r.line.find("not a regular file (a folder)"), std::string::npos) << r.line;
  fs::remove(fifo);
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
  // Complete or not, a file under the temporary name was never committed: beside its final name
  // (as older versions left it) or in the user's private folder, where it is written now.
  const std::string final_name = path_of("wrfout_d01_2019-06-01_00_00_00");
  const std::string private_dir = path_of(".nwpio-tmp-1234");
  fs::create_directories(private_dir);
  for (const std::string& p : {final_name + ".nwpio-tmp", private_dir + "/wrfout_d01_2019-06-01_00_00_00.nwpio-tmp"}) {
    make_file(p, Spec{.times_written = 1});  // the second frame's date never written
    const auto r = check_file(p);
    EXPECT_EQ(r.verdict, Verdict::Temporary) << r.line;
    EXPECT_EQ(r.line.rfind("TEMP", 0), 0u) << r.line;
    EXPECT_NE(r.line.find("would become " + final_name + ")"), std::string::npos) << r.line;
  }
  // A completion ledger beside its temporary file, a writer missing: TEMP, never opened as netCDF.
  const std::string ledger = private_dir + "/wrfout_d01_2019-06-01_00_00_00.nwpio-done";
  std::ofstream(ledger) << '\x01' << '\0';
  const auto r = check_file(ledger);
  EXPECT_EQ(r.verdict, Verdict::Temporary) << r.line;
  EXPECT_NE(r.line.find("completion ledger of " + final_name + " (1 of 2 writers finished"), std::string::npos) << r.line;
  fs::remove_all(private_dir);
  fs::remove(final_name + ".nwpio-tmp");
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

namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// An output folder: its netCDF files (not its logs), then what its private folders hold.
TEST(NwpioCheck, OutputFolderListsFilesAndWhatIsNotComplete) {
  const std::string out = path_of("outdir");
  fs::remove_all(out);
  fs::create_directories(out + "/.nwpio-tmp-0");
  fs::create_directories(out + "/.nwpio-tmp-77");
  fs::create_directories(out + "/subfolder");
  make_file(out + "/wrfout_d01_2019-06-01_00_00_00", Spec{});
  make_file(out + "/wrfout_d01_2019-06-01_01_00_00", Spec{.cmode = NC_NETCDF4});
  std::ofstream(out + "/rsl.out.0000") << "a log, not netCDF\n";
  std::ofstream(out + "/stats.json") << "{}\n";
  make_file(out + "/subfolder/not_looked_at.nc", Spec{.times_written = 0});
  make_file(out + "/.nwpio-tmp-0/wrfout_d01_2019-06-01_02_00_00.nwpio-tmp", Spec{});
  std::ofstream(out + "/.nwpio-tmp-0/wrfout_d01_2019-06-01_02_00_00.nwpio-done") << '\0';  // its writer not done
  EXPECT_EQ(run(out), 1) << cli_output();
  const auto lines = lines_of(cli_output());
  ASSERT_EQ(lines.size(), 4u) << cli_output();
  EXPECT_EQ(lines[0].rfind("OK   " + out + "/wrfout_d01_2019-06-01_00_00_00:", 0), 0u) << lines[0];
  EXPECT_EQ(lines[1].rfind("OK   " + out + "/wrfout_d01_2019-06-01_01_00_00:", 0), 0u) << lines[1];
  EXPECT_EQ(lines[2].rfind("TEMP " + out + "/.nwpio-tmp-0/wrfout_d01_2019-06-01_02_00_00.nwpio-done:", 0), 0u) << lines[2];
  EXPECT_EQ(lines[3].rfind("TEMP " + out + "/.nwpio-tmp-0/wrfout_d01_2019-06-01_02_00_00.nwpio-tmp:", 0), 0u) << lines[3];
  EXPECT_NE(lines[3].find("would become " + out + "/wrfout_d01_2019-06-01_02_00_00)"), std::string::npos) << lines[3];
  // Without the leftovers: every file OK, exit 0 (an empty private folder says nothing).
  fs::remove(out + "/.nwpio-tmp-0/wrfout_d01_2019-06-01_02_00_00.nwpio-tmp");
  fs::remove(out + "/.nwpio-tmp-0/wrfout_d01_2019-06-01_02_00_00.nwpio-done");
  EXPECT_EQ(run(out), 0) << cli_output();
  EXPECT_EQ(lines_of(cli_output()).size(), 2u) << cli_output();
  // The private folder itself as the argument: its contents.
  std::ofstream(out + "/.nwpio-tmp-77/x.nwpio-tmp");
  EXPECT_EQ(run(out + "/.nwpio-tmp-77"), 1) << cli_output();
  EXPECT_EQ(cli_output().rfind("TEMP " + out + "/.nwpio-tmp-77/x.nwpio-tmp:", 0), 0u) << cli_output();
}

// A final name: its own line, then the leftovers of that name (only); missing with a leftover:
// the leftover's line alone.
TEST(NwpioCheck, FinalNameReportsItsLeftovers) {
  const std::string out = path_of("outname");
  fs::remove_all(out);
  fs::create_directories(out + "/.nwpio-tmp-0");
  const std::string a = out + "/wrfout_a", b = out + "/wrfout_b";
  make_file(a, Spec{});
  EXPECT_EQ(run(a), 0) << cli_output();
  EXPECT_EQ(lines_of(cli_output()).size(), 1u) << cli_output();
  make_file(out + "/.nwpio-tmp-0/wrfout_a.nwpio-tmp", Spec{});  // a newer write of the same name
  make_file(out + "/.nwpio-tmp-0/wrfout_b.nwpio-tmp", Spec{});
  EXPECT_EQ(run(a), 1) << cli_output();
  auto lines = lines_of(cli_output());
  ASSERT_EQ(lines.size(), 2u) << cli_output();
  EXPECT_EQ(lines[0].rfind("OK   " + a, 0), 0u) << lines[0];
  EXPECT_EQ(lines[1].rfind("TEMP " + out + "/.nwpio-tmp-0/wrfout_a.nwpio-tmp", 0), 0u) << lines[1];
  EXPECT_EQ(run(b), 1) << cli_output();
  lines = lines_of(cli_output());
  ASSERT_EQ(lines.size(), 1u) << cli_output();
  EXPECT_EQ(lines[0].rfind("TEMP " + out + "/.nwpio-tmp-0/wrfout_b.nwpio-tmp", 0), 0u) << lines[0];
  EXPECT_EQ(run(out + "/wrfout_c"), 1) << cli_output();
  EXPECT_EQ(cli_output().rfind("BAD  " + out + "/wrfout_c: cannot stat", 0), 0u) << cli_output();
}

// A ledger whose file was committed (the job ended between the rename and the ledger's removal):
// STALE, with the command that removes it; the output is complete, so the exit code is 0.
TEST(NwpioCheck, LedgerOfACommittedFileIsStale) {
  const std::string out = path_of("stale");
  fs::remove_all(out);
  fs::create_directories(out + "/.nwpio-tmp-0");
  make_file(out + "/wrfout_a", Spec{});
  const std::string ledger = out + "/.nwpio-tmp-0/wrfout_a.nwpio-done";
  std::ofstream(ledger) << '\x01' << '\x01';
  const auto r = check_file(ledger);
  EXPECT_EQ(r.verdict, Verdict::Stale) << r.line;
  EXPECT_EQ(r.line.rfind("STALE " + ledger + ": leftover completion ledger of " + out + "/wrfout_a, which has its final name", 0),
            0u) << r.line;
  EXPECT_EQ(run(out), 0) << cli_output();
  const auto lines = lines_of(cli_output());
  ASSERT_EQ(lines.size(), 2u) << cli_output();
  EXPECT_EQ(lines[0].rfind("OK   " + out + "/wrfout_a:", 0), 0u) << lines[0];
  EXPECT_EQ(lines[1], r.line);
  // The command it gives removes it.
  const std::string rm = r.line.substr(r.line.find("rm -f -- "));
  ASSERT_EQ(std::system(rm.c_str()), 0) << rm;
  EXPECT_FALSE(fs::exists(ledger));
}

// A complete file that kept its temporary name (its rename failed): TEMP, said to be complete,
// with the `mv` that recovers it -- run here as given, after which the final name is OK. With a
// ledger: complete only when every writer marked it, and the ledger goes with the `mv`.
TEST(NwpioCheck, CompleteTemporaryFileGivesTheMvThatRecoversIt) {
  const std::string out = path_of("recover dir");  // a space: the command quotes the paths
  fs::remove_all(out);
  fs::create_directories(out + "/.nwpio-tmp-0");
  struct Case {
    std::string ledger;  // its bytes; empty: no ledger
    std::string says;
  };
  const std::vector<Case> cases = {{"", "complete as it stands but not renamed"},
                                   {std::string("\x01\x01", 2), "complete, all 2 writers finished but not renamed"}};
  for (const Case& c : cases) {
    SCOPED_TRACE(c.says);
    const std::string final_path = out + "/wrfout_b", temp = out + "/.nwpio-tmp-0/wrfout_b.nwpio-tmp";
    const std::string ledger = out + "/.nwpio-tmp-0/wrfout_b.nwpio-done";
    fs::remove(final_path);
    make_file(temp, Spec{});
    if (!c.ledger.empty()) std::ofstream(ledger, std::ios::binary) << c.ledger;
    const auto r = check_file(temp);
    EXPECT_EQ(r.verdict, Verdict::Temporary) << r.line;
    EXPECT_EQ(r.line.rfind("TEMP " + temp + ": " + c.says + " (CDF-2, WRF history, 2 frames", 0), 0u) << r.line;
    EXPECT_NE(r.line.find("its commit to " + final_path + " failed or was interrupted"), std::string::npos) << r.line;
    const auto at = r.line.find("recover it with: ");
    ASSERT_NE(at, std::string::npos) << r.line;
    const std::string mv = r.line.substr(at + std::string("recover it with: ").size());
    ASSERT_EQ(std::system(mv.c_str()), 0) << mv;
    EXPECT_EQ(check_file(final_path).verdict, Verdict::Ok) << check_file(final_path).line;
    EXPECT_FALSE(fs::exists(temp));
    EXPECT_FALSE(fs::exists(ledger));
  }
  // A writer not finished: not complete, whatever the file reads like.
  const std::string temp = out + "/.nwpio-tmp-0/wrfout_c.nwpio-tmp";
  make_file(temp, Spec{});
  std::ofstream(out + "/.nwpio-tmp-0/wrfout_c.nwpio-done", std::ios::binary) << '\x01' << '\0';
  const auto r = check_file(temp);
  EXPECT_EQ(r.line.rfind("TEMP " + temp + ": not complete", 0), 0u) << r.line;
  EXPECT_EQ(r.line.find("mv "), std::string::npos) << r.line;
}

}  // namespace
