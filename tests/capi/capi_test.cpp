// The C API (L4): status codes per ErrorKind, the full message in nwpio_last_error on every rank,
// bad input (names, kinds, bounds, order of calls) and a small write read back through netCDF-C.
#include <gtest/gtest.h>
#include <mpi.h>
#include <netcdf.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "nwpio/nwpio.h"
#include "nwpio/version.hpp"
#include "nwpio_model/nwpio_model.h"
#include "mpi_support.hpp"

extern "C" int nwpio_c_header_check(void);
extern "C" const char* nwpio_c_header_version(int* major, int* minor, int* patch);

namespace {

int rank() { return nwpio::test::my_rank(); }
int nranks() { return nwpio::test::nranks(); }

std::string write_namelist(const std::string& name, int io_form) {
  const std::string dir = nwpio::test::scratch_dir();
  const std::string path = dir + "/" + name;
  if (rank() == 0) {
    std::ofstream f(path);
    f << " &time_control\n start_year = 2019, start_month = 6, start_day = 1, start_hour = 0,\n"
         " end_year = 2019, end_month = 6, end_day = 1, end_hour = 1,\n history_interval = 30,\n"
         " frames_per_outfile = 1,\n io_form_history = " << io_form << ",\n use_netcdf_classic = .true.,\n /\n"
         " &domains\n time_step = 60, e_we = 13, e_sn = 9, e_vert = 4, dx = 1000, dy = 1000,\n /\n";
  }
  MPI_Barrier(MPI_COMM_WORLD);
  return path;
}

// The io_form the tests write through: PnetCDF where it is built, else serial netCDF.
#ifdef NWPIO_HAVE_PNETCDF
constexpr int kIoForm = 11;
#else
constexpr int kIoForm = 2;
#endif

// Opens a stream and sets WRF's decomposition of this rank.
struct Opened {
  nwpio_stream* s = nullptr;
  int b[18] = {};
  explicit Opened(int io_form = kIoForm) {
    const std::string nl = write_namelist("namelist.capi", io_form);
    EXPECT_EQ(nwpio_open(&s, MPI_COMM_WORLD, nl.c_str(), 1, nwpio::test::scratch_dir().c_str()), NWPIO_OK)
        << nwpio_last_error();
    int nx = -1, ny = -1;
    EXPECT_EQ(nwpio_wrf_decompose(13, 9, 4, nranks(), rank(), 2, &nx, &ny, b), NWPIO_OK) << nwpio_last_error();
    EXPECT_EQ(nwpio_set_domain(s, b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12],
                               b[13], b[14], b[15], b[16], b[17]),
              NWPIO_OK)
        << nwpio_last_error();
  }
  ~Opened() {
    if (s) nwpio_close(&s);
  }
  int ni() const { return b[7] - b[6] + 1; }
  int nj() const { return b[9] - b[8] + 1; }
};

TEST(CApi, HeaderCompilesAsC) { EXPECT_EQ(nwpio_c_header_check(), 0); }

// The version CMake's project() declares reaches C programs twice: as nwpio/version.h's macros
// (compiled in) and as nwpio_version() (the running library); both agree with it and each other.
TEST(CApi, VersionIsTheProjectVersion) {
  int major = -1, minor = -1, patch = -1;
  const std::string from_c_header = nwpio_c_header_version(&major, &minor, &patch);
  EXPECT_EQ(from_c_header, NWPIO_TEST_PROJECT_VERSION);
  EXPECT_EQ(std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch), NWPIO_TEST_PROJECT_VERSION);
  EXPECT_STREQ(nwpio_version(), NWPIO_TEST_PROJECT_VERSION);
  EXPECT_STREQ(nwpio_version(), nwpio::version());
}

TEST(CApi, StatusNames) {
  EXPECT_STREQ(nwpio_status_name(NWPIO_OK), "NWPIO_OK");
  EXPECT_STREQ(nwpio_status_name(NWPIO_ERR_STATE), "NWPIO_ERR_STATE");
  EXPECT_STREQ(nwpio_status_name(NWPIO_ERR_INTERNAL), "NWPIO_ERR_INTERNAL");
  EXPECT_STREQ(nwpio_status_name(99), "unknown status");
}

TEST(CApi, MissingNamelistIsIoOrConfigWithTheFileName) {
  nwpio_stream* s = reinterpret_cast<nwpio_stream*>(0x1);
  const int rc = nwpio_open(&s, MPI_COMM_WORLD, "/nonexistent/namelist.input", 1, nullptr);
  EXPECT_TRUE(rc == NWPIO_ERR_IO || rc == NWPIO_ERR_CONFIG) << nwpio_status_name(rc);
  EXPECT_EQ(s, nullptr);
  EXPECT_NE(std::string(nwpio_last_error()).find("/nonexistent/namelist.input"), std::string::npos) << nwpio_last_error();
  // The message stays until the next failure, and the copy gives its full length.
  char small[8];
  const std::size_t n = nwpio_last_error_copy(small, sizeof small);
  EXPECT_EQ(n, std::strlen(nwpio_last_error()));
  EXPECT_EQ(std::strlen(small), 7u);
}

TEST(CApi, NullStreamIsInvalidArgument) {
  EXPECT_EQ(nwpio_def_var(nullptr, "T2", NWPIO_REAL4, "XY", "", "", ""), NWPIO_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(nwpio_last_error()).find("stream is NULL"), std::string::npos);
  nwpio_stream* s = nullptr;
  EXPECT_EQ(nwpio_close(&s), NWPIO_ERR_INVALID_ARGUMENT);
}

TEST(CApi, BadNames) {
  Opened o;
  EXPECT_EQ(nwpio_def_var(o.s, "  ", NWPIO_REAL4, "XY", "", "", ""), NWPIO_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(nwpio_last_error()).find("blank"), std::string::npos) << nwpio_last_error();
  const std::string long_name(257, 'A');
  EXPECT_EQ(nwpio_def_var(o.s, long_name.c_str(), NWPIO_REAL4, "XY", "", "", ""), NWPIO_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(nwpio_last_error()).find("NC_MAX_NAME"), std::string::npos) << nwpio_last_error();
  const std::string ok_name(256, 'B');
  EXPECT_EQ(nwpio_def_var(o.s, ok_name.c_str(), NWPIO_REAL4, "XY", "", "", ""), NWPIO_OK) << nwpio_last_error();
  // Not NUL-terminated within NC_MAX_NAME + 1 bytes.
  std::vector<char> unterminated(300, 'C');
  EXPECT_EQ(nwpio_def_dim(o.s, unterminated.data(), 3), NWPIO_ERR_INVALID_ARGUMENT);
  unterminated.back() = '\0';
  EXPECT_EQ(nwpio_put_global_att_text(o.s, unterminated.data(), "x"), NWPIO_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(nwpio_def_var(o.s, "T2", NWPIO_REAL4, "XQ", "", "", ""), NWPIO_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(nwpio_last_error()).find("memory order"), std::string::npos);
  EXPECT_EQ(nwpio_def_var(o.s, "T2", 7, "XY", "", "", ""), NWPIO_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(nwpio_def_var(o.s, "T2", NWPIO_REAL4, "XY", "W", "", ""), NWPIO_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(nwpio_last_error()).find("stagger 'W' is not one of '', 'X', 'Y', 'Z', 'XY'"),
            std::string::npos)
      << nwpio_last_error();
  EXPECT_EQ(nwpio_def_var(o.s, "T2", NWPIO_REAL4, "XY", "", "", ""), NWPIO_OK);
  EXPECT_EQ(nwpio_def_var(o.s, "T2", NWPIO_REAL4, "XY", "", "", ""), NWPIO_ERR_SCHEMA) << nwpio_last_error();
}

TEST(CApi, OrderOfCalls) {
  Opened o;
  ASSERT_EQ(nwpio_def_var(o.s, "T2", NWPIO_REAL4, "XY", "", "", ""), NWPIO_OK);
  std::vector<float> t2(static_cast<std::size_t>(o.ni() * o.nj()), 1.0f);
  const int lb[2] = {1, 1}, ub[2] = {o.ni(), o.nj()};
  EXPECT_EQ(nwpio_write(o.s, "T2", t2.data(), NWPIO_REAL4, 2, lb, ub), NWPIO_ERR_STATE);
  EXPECT_EQ(nwpio_end_frame(o.s), NWPIO_ERR_STATE);
  int due = -1;
  EXPECT_EQ(nwpio_output_due(o.s, "2019-06-01_00:30:00", &due), NWPIO_OK) << nwpio_last_error();
  EXPECT_EQ(due, 1);
  EXPECT_EQ(nwpio_output_due(o.s, "2019-06-01_00:31:00", &due), NWPIO_OK);
  EXPECT_EQ(due, 0);
  EXPECT_EQ(nwpio_output_due(o.s, "yesterday", &due), NWPIO_ERR_INVALID_ARGUMENT);
}

TEST(CApi, WriteChecksKindRankAndBoundsOnEveryRank) {
  Opened o;
  ASSERT_EQ(nwpio_def_var(o.s, "T2", NWPIO_REAL4, "XY", "", "TEMP at 2 M", "K"), NWPIO_OK);
  ASSERT_EQ(nwpio_begin_frame(o.s, "2019-06-01_00:00:00"), NWPIO_OK) << nwpio_last_error();
  std::vector<float> t2(static_cast<std::size_t>(o.ni() * o.nj()), 1.0f);
  const int lb[2] = {1, 1}, ub[2] = {o.ni(), o.nj()}, bad_ub[2] = {o.ni() + 1, o.nj()};
  EXPECT_EQ(nwpio_write(o.s, "T2", t2.data(), NWPIO_REAL8, 2, lb, ub), NWPIO_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(nwpio_last_error()).find("kind mismatch"), std::string::npos) << nwpio_last_error();
  EXPECT_EQ(nwpio_write(o.s, "T2", t2.data(), NWPIO_REAL4, 3, lb, ub), NWPIO_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(nwpio_write(o.s, "T2", t2.data(), NWPIO_REAL4, 2, lb, bad_ub), NWPIO_ERR_INVALID_ARGUMENT);
  const std::string msg = nwpio_last_error();
  EXPECT_NE(msg.find("disagree with the declared memory bounds"), std::string::npos) << msg;
  EXPECT_NE(msg.find("ims:ime"), std::string::npos) << msg;
  EXPECT_EQ(nwpio_write(o.s, "T2", t2.data(), NWPIO_REAL4, 2, lb, ub), NWPIO_OK) << nwpio_last_error();
  // The first bad write fails the frame on every rank, with its text, without a hang.
  EXPECT_EQ(nwpio_end_frame(o.s), NWPIO_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(nwpio_last_error()).find("kind mismatch"), std::string::npos) << nwpio_last_error();
}

TEST(CApi, OneRanksBadWriteFailsTheFrameEverywhere) {
  Opened o;
  ASSERT_EQ(nwpio_def_var(o.s, "T2", NWPIO_REAL4, "XY", "", "", ""), NWPIO_OK);
  ASSERT_EQ(nwpio_begin_frame(o.s, "2019-06-01_00:00:00"), NWPIO_OK) << nwpio_last_error();
  std::vector<float> t2(static_cast<std::size_t>(o.ni() * o.nj()), 1.0f);
  const int lb[2] = {1, 1}, ub[2] = {o.ni(), rank() == nranks() - 1 ? o.nj() - 1 : o.nj()};
  const int rc = nwpio_write(o.s, "T2", t2.data(), NWPIO_REAL4, 2, lb, ub);
  EXPECT_EQ(rc == NWPIO_OK, rank() != nranks() - 1);
  EXPECT_EQ(nwpio_end_frame(o.s), NWPIO_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(nwpio_last_error()).find("disagree"), std::string::npos) << nwpio_last_error();
}

TEST(CApi, WritesAFrameThatReadsBack) {
  std::string path;
  {
    Opened o(2);
    ASSERT_EQ(nwpio_def_var(o.s, "T2", NWPIO_REAL4, "XY", "", "TEMP at 2 M", "K"), NWPIO_OK);
    ASSERT_EQ(nwpio_def_var(o.s, "ITIMESTEP", NWPIO_INT4, "0", "", "", ""), NWPIO_OK);
    // Staggered along x and y (WRF's SPFORCC5): the spellings are those of every front end.
    ASSERT_EQ(nwpio_def_var(o.s, "SPF", NWPIO_REAL4, " xy", "Xy ", "", ""), NWPIO_OK) << nwpio_last_error();
    const int title_values[2] = {3, 4};
    ASSERT_EQ(nwpio_put_global_att_int(o.s, "PAIR", title_values, 2), NWPIO_OK);
    ASSERT_EQ(nwpio_begin_frame(o.s, "2019-06-01_00:00:00"), NWPIO_OK) << nwpio_last_error();
    std::vector<float> t2(static_cast<std::size_t>(o.ni() * o.nj()), -9999.0f);
    for (int j = o.b[14]; j <= std::min(o.b[15], o.b[3] - 1); ++j) {
      for (int i = o.b[12]; i <= std::min(o.b[13], o.b[1] - 1); ++i) {
        t2[static_cast<std::size_t>((j - o.b[8]) * o.ni() + (i - o.b[6]))] = static_cast<float>(100 * j + i);
      }
    }
    const int lb[2] = {1, 1}, ub[2] = {o.ni(), o.nj()};
    ASSERT_EQ(nwpio_write(o.s, "T2", t2.data(), NWPIO_REAL4, 2, lb, ub), NWPIO_OK) << nwpio_last_error();
    std::vector<float> spf(t2.size(), -9999.0f);  // the staggered patch: up to ide, jde on the last ranks
    for (int j = o.b[14]; j <= o.b[15]; ++j) {
      for (int i = o.b[12]; i <= o.b[13]; ++i) {
        spf[static_cast<std::size_t>((j - o.b[8]) * o.ni() + (i - o.b[6]))] = static_cast<float>(100 * j + i);
      }
    }
    ASSERT_EQ(nwpio_write(o.s, "SPF", spf.data(), NWPIO_REAL4, 2, lb, ub), NWPIO_OK) << nwpio_last_error();
    const int step = 42;  // a scalar is copied at write
    ASSERT_EQ(nwpio_write(o.s, "ITIMESTEP", &step, NWPIO_INT4, 0, nullptr, nullptr), NWPIO_OK);
    ASSERT_EQ(nwpio_end_frame(o.s), NWPIO_OK) << nwpio_last_error();
    ASSERT_EQ(nwpio_close(&o.s), NWPIO_OK) << nwpio_last_error();
    EXPECT_EQ(o.s, nullptr);
    path = nwpio::test::scratch_dir() + "/wrfout_d01_2019-06-01_00:00:00";
  }
  if (rank() != 0) return;
  int ncid = -1, varid = -1;
  ASSERT_EQ(nc_open(path.c_str(), NC_NOWRITE, &ncid), NC_NOERR) << path;
  ASSERT_EQ(nc_inq_varid(ncid, "T2", &varid), NC_NOERR);
  std::vector<float> all(12 * 8);
  ASSERT_EQ(nc_get_var_float(ncid, varid, all.data()), NC_NOERR);
  for (int j = 1; j <= 8; ++j) {
    for (int i = 1; i <= 12; ++i) EXPECT_EQ(all[static_cast<std::size_t>((j - 1) * 12 + i - 1)], float(100 * j + i));
  }
  std::vector<float> staggered(13 * 9);
  ASSERT_EQ(nc_inq_varid(ncid, "SPF", &varid), NC_NOERR);
  ASSERT_EQ(nc_get_var_float(ncid, varid, staggered.data()), NC_NOERR);
  for (int j = 1; j <= 9; ++j) {
    for (int i = 1; i <= 13; ++i) {
      EXPECT_EQ(staggered[static_cast<std::size_t>((j - 1) * 13 + i - 1)], float(100 * j + i)) << i << "," << j;
    }
  }
  int step = 0, pair[2] = {0, 0};
  ASSERT_EQ(nc_inq_varid(ncid, "ITIMESTEP", &varid), NC_NOERR);
  ASSERT_EQ(nc_get_var_int(ncid, varid, &step), NC_NOERR);
  EXPECT_EQ(step, 42);
  ASSERT_EQ(nc_get_att_int(ncid, NC_GLOBAL, "PAIR", pair), NC_NOERR);
  EXPECT_EQ(pair[1], 4);
  nc_close(ncid);
}

TEST(CApi, DecomposeAndDates) {
  int nx = 0, ny = 3, b[18];
  EXPECT_EQ(nwpio_wrf_decompose(13, 9, 4, 4, 0, 2, &nx, &ny, b), NWPIO_ERR_DECOMPOSITION);
  EXPECT_NE(std::string(nwpio_last_error()).find("does not divide"), std::string::npos) << nwpio_last_error();
  nx = -1;
  ny = -1;
  ASSERT_EQ(nwpio_wrf_decompose(13, 9, 4, 2, 1, 2, &nx, &ny, b), NWPIO_OK);
  EXPECT_EQ(nx * ny, 2);
  char out[NWPIO_DATE_LEN + 1];
  ASSERT_EQ(nwpio_date_add_seconds("2019-12-31_23:59:30", 45, out), NWPIO_OK);
  EXPECT_STREQ(out, "2020-01-01_00:00:15");
  EXPECT_EQ(nwpio_date_add_seconds("2019-13-01_00:00:00", 1, out), NWPIO_ERR_INVALID_ARGUMENT);
}

}  // namespace

namespace {

// A namelist with one more line in &nwpio (or &time_control) than write_namelist's.
std::string namelist_with(const std::string& name, const std::string& time_control, const std::string& nwpio) {
  const std::string path = nwpio::test::scratch_dir() + "/" + name;
  if (rank() == 0) {
    std::ofstream f(path);
    f << " &time_control\n start_year = 2019, start_month = 6, start_day = 1, start_hour = 0,\n"
         " end_year = 2019, end_month = 6, end_day = 1, end_hour = 1,\n history_interval = 30, history_begin_m = 45,\n"
         " io_form_history = " << kIoForm << ",\n use_netcdf_classic = .true.,\n" << time_control << " /\n"
         " &domains\n time_step = 60, e_we = 13, e_sn = 9, e_vert = 4, dx = 1000, dy = 1000,\n /\n"
         " &nwpio\n" << nwpio << " /\n";
  }
  MPI_Barrier(MPI_COMM_WORLD);
  return path;
}

}  // namespace

// A bad hints profile, a missing output directory, a bad iofields file fail in
// nwpio_open itself (history_begin = 45 minutes: the first frame would come much later), on
// every rank, and nothing is created.
TEST(CApi, ConfigurationErrorsFailAtOpen) {
  const std::string dir = nwpio::test::scratch_dir() + "/open_errors";
  const std::string profile = dir + "/bad.toml", fields = dir + "/fields.txt";
  if (rank() == 0) {
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    std::ofstream(profile) << "[profile.default]\naggregators = -3\n";
    std::ofstream(fields) << "-:h:0:T2\n-:h:0 T\n";
  }
  MPI_Barrier(MPI_COMM_WORLD);
  struct Case {
    std::string time_control, nwpio, needle;
    int status;
  };
  const std::vector<Case> cases = {
      {"", " hints_file = '" + profile + "',\n", "bad.toml:2", NWPIO_ERR_CONFIG},
      {" iofields_filename = '" + fields + "',\n", "", "fields.txt:2", NWPIO_ERR_CONFIG},
      {"", " output_dir = '" + dir + "/missing',\n", "No such file or directory", NWPIO_ERR_IO},
  };
  for (const Case& c : cases) {
    const std::string nl = namelist_with("namelist.open_errors", c.time_control, c.nwpio);
    nwpio_stream* s = nullptr;
    const int rc = nwpio_open(&s, MPI_COMM_WORLD, nl.c_str(), 1, nullptr);
    EXPECT_EQ(rc, c.status) << nwpio_last_error();
    EXPECT_EQ(s, nullptr);
    const std::string msg = nwpio_last_error();
    EXPECT_NE(msg.find(c.needle), std::string::npos) << msg;
    int same = 1, len = static_cast<int>(msg.size()), max_len = 0;
    MPI_Allreduce(&len, &max_len, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    same = len == max_len ? 1 : 0;
    MPI_Allreduce(MPI_IN_PLACE, &same, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    EXPECT_EQ(same, 1) << "every rank reports the same error: " << msg;
  }
  if (rank() == 0) {
    for (const auto& e : std::filesystem::directory_iterator(dir)) {
      const std::string f = e.path().filename().string();
      EXPECT_TRUE(f == "bad.toml" || f == "fields.txt") << "left behind: " << f;
    }
  }
}
