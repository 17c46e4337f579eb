// nwpio_set_hint_report (C API; the Fortran module wraps it): the level reaches the Writer, so
// rank 0 prints one line per file by default, the whole table with "full", nothing with "off";
// bad levels and late calls are errors on the calling rank. The files are read back through
// netCDF-C (the values the frame wrote), the JSON report in the statistics is always whole.
#include <gtest/gtest.h>
#include <mpi.h>
#include <netcdf.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "nwpio/nwpio.h"
#include "nwpio_model/nwpio_model.h"
#include "scratch.hpp"

namespace {

int rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}
int nranks() {
  int n = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  return n;
}

#ifdef NWPIO_HAVE_PNETCDF
constexpr int kIoForm = 11;
#else
constexpr int kIoForm = 2;
#endif

// Writes a namelist with 2 output times, one file each, into the scratch directory.
std::string write_namelist(const std::string& sub, const std::string& nwpio_group) {
  const std::string dir = nwpio::test::scratch_dir(sub);
  const std::string path = dir + "/namelist.input";
  if (rank() == 0) {
    std::filesystem::create_directories(dir);
    std::ofstream f(path);
    f << " &time_control\n start_year = 2019, start_month = 6, start_day = 1, start_hour = 0,\n"
         " end_year = 2019, end_month = 6, end_day = 1, end_hour = 1,\n history_interval = 60,\n"
         " frames_per_outfile = 1,\n io_form_history = " << kIoForm << ",\n use_netcdf_classic = .true.,\n /\n"
         " &domains\n time_step = 60, e_we = 13, e_sn = 9, e_vert = 4, dx = 1000, dy = 1000,\n /\n"
      << nwpio_group;
  }
  MPI_Barrier(MPI_COMM_WORLD);
  return path;
}

struct Written {
  std::string log;   // rank 0's stderr while writing
  std::string dir;
};

// Opens a stream, optionally sets the level, writes T2 at 00:00 and 01:00 (two files), closes.
Written write_two_files(const std::string& sub, const char* level, const std::string& nwpio_group = "") {
  Written run;
  run.dir = nwpio::test::scratch_dir(sub);
  const std::string nl = write_namelist(sub, nwpio_group);
  nwpio_stream* s = nullptr;
  EXPECT_EQ(nwpio_open(&s, MPI_COMM_WORLD, nl.c_str(), 1, run.dir.c_str()), NWPIO_OK) << nwpio_last_error();
  if (level) {
    EXPECT_EQ(nwpio_set_hint_report(s, level), NWPIO_OK) << nwpio_last_error();
  }
  int b[18] = {}, nx = -1, ny = -1;
  EXPECT_EQ(nwpio_wrf_decompose(13, 9, 4, nranks(), rank(), 2, &nx, &ny, b), NWPIO_OK) << nwpio_last_error();
  EXPECT_EQ(nwpio_set_domain(s, b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12],
                             b[13], b[14], b[15], b[16], b[17]),
            NWPIO_OK);
  EXPECT_EQ(nwpio_def_var(s, "T2", NWPIO_REAL4, "XY", "", "", ""), NWPIO_OK) << nwpio_last_error();
  const int ni = b[7] - b[6] + 1, nj = b[9] - b[8] + 1;
  std::vector<float> t2(static_cast<std::size_t>(ni * nj), 0.0f);
  const int lb[2] = {1, 1}, ub[2] = {ni, nj};
  testing::internal::CaptureStderr();
  for (const char* date : {"2019-06-01_00:00:00", "2019-06-01_01:00:00"}) {
    // T2(i, j) = 100 * i + j in WRF's 1-based global indices, read back below.
    for (int j = 0; j < nj; ++j) {
      for (int i = 0; i < ni; ++i) t2[static_cast<std::size_t>(j * ni + i)] = 100.0f * static_cast<float>(b[6] + i) + static_cast<float>(b[8] + j);
    }
    EXPECT_EQ(nwpio_begin_frame(s, date), NWPIO_OK) << nwpio_last_error();
    EXPECT_EQ(nwpio_write(s, "T2", t2.data(), NWPIO_REAL4, 2, lb, ub), NWPIO_OK) << nwpio_last_error();
    EXPECT_EQ(nwpio_end_frame(s), NWPIO_OK) << nwpio_last_error();
  }
  // Too late: the Writer exists.
  EXPECT_EQ(nwpio_set_hint_report(s, "full"), NWPIO_ERR_STATE);
  EXPECT_EQ(nwpio_close(&s), NWPIO_OK) << nwpio_last_error();
  run.log = testing::internal::GetCapturedStderr();
  return run;
}

std::vector<std::string> lines_starting(const std::string& log, const std::string& prefix) {
  std::vector<std::string> out;
  std::istringstream in(log);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(prefix, 0) == 0) out.push_back(line);
  }
  return out;
}

std::size_t line_count(const std::string& log) { return static_cast<std::size_t>(std::count(log.begin(), log.end(), '\n')); }

// Rank 0: both files hold T2 = 100 * i + j (netCDF-C reads them). io_form 11 names files with
// '_' for the date's colons, io_form 2 keeps them.
void expect_files(const std::string& dir) {
  if (rank() != 0) return;
  for (std::string date : {"2019-06-01_00:00:00", "2019-06-01_01:00:00"}) {
    if (kIoForm == 11) std::replace(date.begin(), date.end(), ':', '_');
    const std::string file = dir + "/wrfout_d01_" + date;
    int nc = -1;
    ASSERT_EQ(nc_open(file.c_str(), NC_NOWRITE, &nc), NC_NOERR) << file;
    int var = -1;
    ASSERT_EQ(nc_inq_varid(nc, "T2", &var), NC_NOERR);
    std::vector<float> v(8 * 12);
    ASSERT_EQ(nc_get_var_float(nc, var, v.data()), NC_NOERR);
    for (int j = 0; j < 8; ++j) {
      for (int i = 0; i < 12; ++i) {
        EXPECT_EQ(v[static_cast<std::size_t>(j * 12 + i)], 100.0f * static_cast<float>(i + 1) + static_cast<float>(j + 1))
            << file << " " << i << "," << j;
      }
    }
    nc_close(nc);
  }
}

}  // namespace

TEST(HintReportApi, DefaultIsOneLinePerFile) {
  const Written run = write_two_files("default", nullptr);
  expect_files(run.dir);
  if (rank() != 0) {
    EXPECT_EQ(run.log, "");
    return;
  }
  const auto reports = lines_starting(run.log, "nwpio hints: ");
  ASSERT_EQ(reports.size(), 2u) << run.log;
  EXPECT_EQ(line_count(run.log), 2u) << run.log;  // nothing else on stderr
  EXPECT_EQ(reports[0].rfind("nwpio hints: " + run.dir + "/wrfout_d01_2019-06-01_00", 0), 0u) << reports[0];
  EXPECT_EQ(run.log.find(".nwpio-tmp"), std::string::npos) << run.log;
  // io_form 2 opens no MPI-IO file: no MPI-IO layer is named.
  if (kIoForm == 11) {
    EXPECT_NE(reports[0].find(" via "), std::string::npos) << reports[0];
  } else {
    EXPECT_EQ(reports[0].find(" via "), std::string::npos) << reports[0];
  }
}

// The full table's indented lines per file (see FullPrintsTheTableOffNothing).
constexpr std::size_t kFullRows = kIoForm == 11 ? 18u + NWPIO_TEST_PNETCDF_CHOICE_LINES : 16u;

TEST(HintReportApi, FullPrintsTheTableOffNothing) {
  const Written full = write_two_files("full", "full");
  expect_files(full.dir);
  if (rank() == 0) {
    EXPECT_EQ(lines_starting(full.log, "nwpio hints: ").size(), 2u) << full.log;
    // Two headers and one row per setting each: 14 logical settings (docs/HINTS.md); the nodes'
    // line and one line per node (every rank on this machine: 1); where MPI-IO opens the file
    // (io_form 11) the aggregators' line, the line that says whether write-behind is on, and
    // with PnetCDF 1.14 and later the line of what PnetCDF chose.
    EXPECT_EQ(lines_starting(full.log, "  ").size(), 2u * kFullRows) << full.log;
  }
  const Written off = write_two_files("off", "OFF");
  expect_files(off.dir);
  EXPECT_EQ(off.log, "");
}

TEST(HintReportApi, NamelistLevelAndApiWins) {
  const Written from_namelist = write_two_files("namelist_full", nullptr, " &nwpio\n hint_report = 'full'\n /\n");
  const Written api_wins = write_two_files("namelist_api", "off", " &nwpio\n hint_report = 'full'\n /\n");
  if (rank() == 0) {
    EXPECT_EQ(lines_starting(from_namelist.log, "  ").size(), 2u * kFullRows) << from_namelist.log;
    EXPECT_EQ(api_wins.log, "");
  }
}

TEST(HintReportApi, BadLevelIsInvalidArgument) {
  const std::string nl = write_namelist("bad", "");
  nwpio_stream* s = nullptr;
  ASSERT_EQ(nwpio_open(&s, MPI_COMM_WORLD, nl.c_str(), 1, nullptr), NWPIO_OK) << nwpio_last_error();
  EXPECT_EQ(nwpio_set_hint_report(s, "verbose"), NWPIO_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(nwpio_last_error()).find("'verbose' is not one of off, summary, full"), std::string::npos)
      << nwpio_last_error();
  EXPECT_EQ(nwpio_set_hint_report(s, nullptr), NWPIO_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(nwpio_set_hint_report(nullptr, "full"), NWPIO_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(nwpio_close(&s), NWPIO_OK) << nwpio_last_error();
}
