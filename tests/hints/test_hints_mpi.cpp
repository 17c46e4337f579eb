// HintSession with real MPI-IO and PnetCDF: the keys reach the implementation that opens the
// file (compared with what ROMIO / OMPIO print they read), alignment is verified through the
// real header extent and variable offsets, ROMIO keys are dropped under OMPIO, every rank
// passes identical values, and a bad profile fails on every rank with file:line.
// Registered twice (tests/hints/CMakeLists.txt). Open MPI: under OMPIO with
// OMPI_MCA_io_ompio_verbose_info_parsing=1, and under ROMIO (romio321) with ROMIO_PRINT_HINTS=1.
// MPICH (ROMIO only): with ROMIO_PRINT_HINTS=1, once plain and once with Open MPI's
// OMPI_MCA_io=ompio set, which must change nothing.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <mpi.h>
#include <netcdf.h>
#include <pnetcdf.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "hints/hint_session.hpp"
#include "hints/hints_translate.hpp"
#include "nwpio/error.hpp"
#include "mpi_support.hpp"

using nwpio::detail::HintPlan;
using nwpio::detail::HintSession;
using nwpio::detail::LayoutFacts;
using json = nlohmann::json;

namespace {

int rank() { return nwpio::test::my_rank(); }
int nprocs() { return nwpio::test::nranks(); }

// The MPI this test is compiled against, from its mpi.h (not from nwpio's run-time detection).
#if defined(OPEN_MPI)
constexpr bool kMpichFamily = false;
#elif defined(MPICH_VERSION)
constexpr bool kMpichFamily = true;
#else
#error "hints_mpi knows Open MPI and MPICH"
#endif

// Which layer this run should get: MPICH has ROMIO only; Open MPI has what the ctest
// registration asked for through OMPI_MCA_io.
bool romio_expected() {
  if (kMpichFamily) return true;
  const char* io = std::getenv("OMPI_MCA_io");
  return io != nullptr && std::string(io).rfind("romio", 0) == 0;
}

// Redirects this process's stdout to a file while alive (ROMIO and OMPIO print with printf).
class StdoutCapture {
 public:
  explicit StdoutCapture(std::string path) : path_(std::move(path)) {
    std::fflush(stdout);
    saved_ = dup(1);
    const int fd = open(path_.c_str(), O_CREAT | O_TRUNC | O_WRONLY, 0644);
    dup2(fd, 1);
    close(fd);
  }
  std::string finish() {
    std::fflush(stdout);
    dup2(saved_, 1);
    close(saved_);
    saved_ = -1;
    std::ifstream in(path_);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }
  ~StdoutCapture() {
    if (saved_ >= 0) finish();
  }

 private:
  std::string path_;
  int saved_ = -1;
};

// "key = cb_nodes   value = 2" (ROMIO_PRINT_HINTS) or "File: f info: cb_nodes value 2"
// (OMPIO verbose_info_parsing): the first value printed for every key.
std::map<std::string, std::string> parse_printout(const std::string& text) {
  std::map<std::string, std::string> out;
  static const std::regex romio(R"(key = (\S+)\s+value = (.*\S)\s*$)");
  static const std::regex ompio(R"(info: (\S+) value (\S+))");
  std::stringstream ss(text);
  std::string line;
  std::smatch m;
  while (std::getline(ss, line)) {
    if (std::regex_search(line, m, romio) || std::regex_search(line, m, ompio)) out.emplace(m[1], m[2]);
  }
  return out;
}

void nc_ok(int rc, const char* what) {
  if (rc != NC_NOERR) throw std::runtime_error(std::string(what) + ": " + ncmpi_strerror(rc));
}

double field(int var, int rec, int j, int i) { return var * 1000.0 + rec * 100.0 + j + i * 0.01; }

// Creates a small WRF-like file with the session's hints, writes an analytic field over an
// uneven row split, and returns the real layout (rank 0).
LayoutFacts write_file(const std::string& path, const HintSession& s, int ny = 7, int nx = 5) {
  int nc = 0, dims[3], vars[3];
  nc_ok(ncmpi_create(MPI_COMM_WORLD, path.c_str(), NC_CLOBBER | NC_64BIT_OFFSET, s.info(), &nc), "ncmpi_create");
  nc_ok(ncmpi_def_dim(nc, "Time", NC_UNLIMITED, &dims[0]), "def_dim");
  nc_ok(ncmpi_def_dim(nc, "south_north", ny, &dims[1]), "def_dim");
  nc_ok(ncmpi_def_dim(nc, "west_east", nx, &dims[2]), "def_dim");
  nc_ok(ncmpi_def_var(nc, "XLAT", NC_DOUBLE, 2, dims + 1, &vars[0]), "def_var");
  nc_ok(ncmpi_def_var(nc, "T", NC_DOUBLE, 3, dims, &vars[1]), "def_var");
  nc_ok(ncmpi_def_var(nc, "U", NC_DOUBLE, 3, dims, &vars[2]), "def_var");
  nc_ok(ncmpi_enddef(nc), "enddef");
  LayoutFacts f;
  MPI_Offset v = 0;
  f.known = true;
  nc_ok(ncmpi_inq_header_size(nc, &v), "inq_header_size");
  f.header_size = v;
  nc_ok(ncmpi_inq_header_extent(nc, &v), "inq_header_extent");
  f.header_extent = v;
  const char* names[] = {"XLAT", "T", "U"};
  for (int k = 0; k < 3; ++k) {
    nc_ok(ncmpi_inq_varoffset(nc, vars[k], &v), "inq_varoffset");
    f.var_offsets[names[k]] = v;
  }
  // Rows split unevenly: the first `extra` ranks get one more row.
  const int n = nprocs(), r = rank(), base = ny / n, extra = ny % n;
  const int j0 = r * base + std::min(r, extra), rows = base + (r < extra ? 1 : 0);
  std::vector<double> buf(static_cast<std::size_t>(rows * nx));
  for (int k = 0; k < 3; ++k) {
    for (int j = 0; j < rows; ++j) {
      for (int i = 0; i < nx; ++i) buf[static_cast<std::size_t>(j * nx + i)] = field(k, 0, j0 + j, i);
    }
    if (k == 0) {
      MPI_Offset start[2] = {j0, 0}, count[2] = {rows, nx};
      nc_ok(ncmpi_put_vara_double_all(nc, vars[k], start, count, buf.data()), "put_vara");
    } else {
      MPI_Offset start[3] = {0, j0, 0}, count[3] = {1, rows, nx};
      nc_ok(ncmpi_put_vara_double_all(nc, vars[k], start, count, buf.data()), "put_vara");
    }
  }
  nc_ok(ncmpi_close(nc), "ncmpi_close");
  return f;
}

// Rank 0: every value read back through netCDF-C, and ncvalidator on the file.
void check_file(const std::string& path, int ny = 7, int nx = 5) {
  if (rank() != 0) return;
  int nc = 0;
  ASSERT_EQ(nc_open(path.c_str(), NC_NOWRITE, &nc), NC_NOERR);
  const char* names[] = {"XLAT", "T", "U"};
  std::vector<double> got(static_cast<std::size_t>(ny * nx));
  for (int k = 0; k < 3; ++k) {
    int id = 0;
    ASSERT_EQ(nc_inq_varid(nc, names[k], &id), NC_NOERR);
    ASSERT_EQ(nc_get_var_double(nc, id, got.data()), NC_NOERR);
    for (int j = 0; j < ny; ++j) {
      for (int i = 0; i < nx; ++i) ASSERT_EQ(got[static_cast<std::size_t>(j * nx + i)], field(k, 0, j, i)) << names[k];
    }
  }
  nc_close(nc);
  const std::string validator = NWPIO_NCVALIDATOR;
  if (!validator.empty() && validator.find("NOTFOUND") == std::string::npos) {
    EXPECT_EQ(std::system((validator + " -q " + path + " > /dev/null").c_str()), 0) << "ncvalidator " << path;
  }
}

const json& setting(const json& report, const std::string& name) {
  for (const auto& s : report["settings"]) {
    if (s["name"] == name) return s;
  }
  throw std::runtime_error("no setting " + name);
}

}  // namespace

TEST(HintSessionMpi, DetectsTheLayerThisRunUses) {
  const auto io = nwpio::detail::detect_mpiio();
  EXPECT_EQ(io.layer == nwpio::detail::IoLayer::Romio, romio_expected()) << io.how;
  if (kMpichFamily) {
    EXPECT_EQ(io.vendor, "MPICH") << io.library;
    EXPECT_EQ(io.component, "ROMIO");
  } else {
    EXPECT_EQ(io.vendor, "Open MPI") << io.library;
    EXPECT_EQ(io.component, romio_expected() ? "romio321" : "ompio");
  }
}

// Opens a file with `overrides`, returns rank 0's report (empty JSON elsewhere) and the facts.
std::pair<json, LayoutFacts> open_with(const std::map<std::string, std::string>& overrides, const std::string& name) {
  nwpio::HintOptions o;
  o.report = nwpio::HintReport::Off;
  o.overrides = overrides;
  HintSession s = HintSession::resolve(o, nwpio::IoForm::Pnetcdf, MPI_COMM_WORLD, 0);
  const std::string path = nwpio::test::scratch_dir(name);
  const LayoutFacts f = write_file(path, s);
  check_file(path);
  s.set_record_variables({"T", "U"});
  return {json::parse(s.verify_and_report(path, f)), f};
}

// Whether a writer's slab may go out as an independent write (io_form 11's write-behind) is the
// hint layer's answer from what it passes, the same on every rank, under ROMIO and OMPIO alike.
TEST(HintSessionMpi, IndependentWritesFollowWhatIsPassed) {
  const auto independent = [](const std::map<std::string, std::string>& overrides, bool contiguous) {
    nwpio::HintOptions o;
    o.report = nwpio::HintReport::Off;
    o.overrides = overrides;
    const bool mine = HintSession::resolve(o, nwpio::IoForm::Pnetcdf, MPI_COMM_WORLD, 0, contiguous).independent_writes();
    int lo = mine ? 1 : 0, hi = lo;
    MPI_Allreduce(MPI_IN_PLACE, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    EXPECT_EQ(lo, hi) << "ranks disagree";
    return mine;
  };
  EXPECT_TRUE(independent({}, true));    // contiguous slabs: collective_write derived false
  EXPECT_FALSE(independent({}, false));  // nothing passed: the implementation's collective buffering
  EXPECT_TRUE(independent({{"collective_write", "false"}}, false));
  EXPECT_FALSE(independent({{"collective_write", "true"}}, true));
  // ROMIO defers the open to the aggregators with romio_no_indep_rw; OMPIO has no such key.
  EXPECT_EQ(independent({{"collective_write", "false"}, {"no_indep_rw", "true"}}, true), !romio_expected());
  // A file not opened through MPI-IO passes nothing.
  nwpio::HintOptions o;
  o.report = nwpio::HintReport::Off;
  const HintPlan plan = HintPlan::resolve(o, MPI_COMM_WORLD);
  EXPECT_FALSE(HintSession::for_file(plan, MPI_COMM_WORLD, nwpio::IoForm::NetcdfSerial, false, 0, true).independent_writes());
}

TEST(HintSessionMpi, AlignmentVerifiedThroughTheRealHeaderExtent) {
  // Multiples of 4 KiB that no default produces, so a pass cannot be luck.
  const std::int64_t h = 12 * 1024, v = 20 * 1024, r = 48 * 1024;
  auto [rep1, f1] = open_with({{"header_align", std::to_string(h)}}, "align_header.nc");
  auto [rep2, f2] = open_with({{"var_align", std::to_string(v)}, {"record_align", std::to_string(r)}}, "align_vars.nc");
  // Both: 20 KiB is not a multiple of 12 KiB, so PnetCDF's var alignment decides.
  auto [rep3, f3] = open_with({{"header_align", std::to_string(h)}, {"var_align", std::to_string(v)}}, "align_both.nc");
  if (rank() != 0) return;
  EXPECT_EQ(setting(rep1, "header_align")["status"], "verified") << setting(rep1, "header_align")["why"];
  EXPECT_EQ(setting(rep2, "var_align")["status"], "verified") << setting(rep2, "var_align")["why"];
  EXPECT_EQ(setting(rep2, "record_align")["status"], "verified") << setting(rep2, "record_align")["why"];
  EXPECT_EQ(setting(rep3, "header_align")["status"], "overridden") << setting(rep3, "header_align")["why"];
  EXPECT_EQ(setting(rep3, "var_align")["status"], "verified");
  // And independently of the report, from the facts themselves.
  EXPECT_EQ(f1.header_extent % h, 0);
  EXPECT_EQ(f2.var_offsets.at("XLAT") % v, 0);
  EXPECT_EQ(std::min(f2.var_offsets.at("T"), f2.var_offsets.at("U")) % r, 0);
  EXPECT_NE(f3.header_extent % h, 0);
  EXPECT_EQ(rep1["layout"]["header_extent"], f1.header_extent);
}

TEST(HintSessionMpi, ReportAgreesWithWhatTheImplementationPrinted) {
  nwpio::HintOptions o;
  o.report = rank() == 0 ? nwpio::HintReport::Full : nwpio::HintReport::Off;
  o.overrides = {{"aggregators", "2"},      {"cb_buffer_size", "4MiB"},    {"collective_write", "true"},
                 {"stripe_count", "4"},     {"stripe_size", "1MiB"},       {"lustre_ds_in_coll", "false"},
                 {"lustre_lockahead", "true"}, {"romio_cb_read", "disable"}};
  HintSession s = HintSession::resolve(o, nwpio::IoForm::Pnetcdf, MPI_COMM_WORLD, 0);
  const std::string path = nwpio::test::scratch_dir("printed.nc");
  std::string printed;
  LayoutFacts f;
  {
    StdoutCapture cap(nwpio::test::scratch_dir("stdout." + std::to_string(rank())));
    f = write_file(path, s);
    printed = cap.finish();
  }
  check_file(path);
  const std::string text = s.verify_and_report(path, f);
  if (rank() != 0) return;
  const auto seen = parse_printout(printed);
  ASSERT_FALSE(seen.empty()) << "the implementation printed no hints; output was:\n" << printed;
  const json report = json::parse(text);
  const bool romio = romio_expected();
  EXPECT_EQ(report["mpi"]["io_layer"], romio ? "ROMIO" : "OMPIO");
  int compared = 0;
  for (const auto& st : report["settings"]) {
    if (st["target"] != "MPI-IO") continue;
    const std::string status = st["status"];
    for (const auto& [key, value] : st["keys"].items()) {
      if (status == "passed" || status == "verified") {
        auto it = seen.find(key);
        // OMPIO prints only the keys it acts on in set_view; every one of those must agree.
        if (!romio && it == seen.end()) continue;
        ASSERT_NE(it, seen.end()) << key << " reported passed but " << (romio ? "ROMIO" : "OMPIO") << " did not print it";
        std::string want = value.get<std::string>();
        // ROMIO caps cb_nodes at the number of processes (all on one host, cb_config_list *:N).
        if (romio && key == "cb_nodes") want = std::to_string(std::min(std::stoi(want), nprocs()));
        EXPECT_EQ(it->second, want) << key;
        ++compared;
      } else if (status == "ignored" && romio) {
        // Keys for a driver other than the file's: ROMIO's generic layer may record a value
        // (it prints striping_unit on UFS), but the Lustre driver's own keys are not taken.
        if (key.rfind("romio_lustre_", 0) == 0) {
          EXPECT_EQ(seen.count(key), 0u) << key << " printed by ROMIO";
        } else if (seen.count(key)) {
          EXPECT_EQ(seen.at(key), value.get<std::string>()) << key;
        }
      }
    }
  }
  EXPECT_GE(compared, romio ? 5 : 2);
  // "ignored" for striping rests on the file system: ROMIO agrees it used its generic driver.
  if (romio && report["file_system"]["type"] != "lustre") {
    ASSERT_TRUE(seen.count("romio_filesystem_type"));
    EXPECT_EQ(seen.at("romio_filesystem_type").rfind("UFS", 0), 0u) << seen.at("romio_filesystem_type");
    EXPECT_EQ(setting(report, "stripe_count")["status"], "ignored");
  }
  // Under OMPIO every romio_* setting and key is reported dropped and is not in the info.
  if (!romio) {
    EXPECT_EQ(setting(report, "lustre_ds_in_coll")["status"], "dropped");
    EXPECT_EQ(setting(report, "data_sieving_write")["status"], "dropped");
    EXPECT_EQ(setting(report, "raw:romio_cb_read")["status"], "dropped");
    char value[64];
    int flag = 0;
    for (const char* key : {"romio_cb_read", "romio_ds_write", "romio_lustre_ds_in_coll", "cb_config_list"}) {
      MPI_Info_get(s.info(), key, 63, value, &flag);
      EXPECT_EQ(flag, 0) << key;
    }
    for (const auto& [k, v] : seen) EXPECT_NE(k.rfind("romio_", 0), 0u) << k;
  }
  if (kMpichFamily) {
    // MPICH's ROMIO (>= 3.3) has lockahead, read by its Lustre driver alone.
    const bool lustre = report["file_system"]["type"] == "lustre";
    EXPECT_EQ(setting(report, "lustre_lockahead")["status"], lustre ? "passed" : "ignored");
    if (!lustre) {
      EXPECT_EQ(seen.count("romio_lustre_cb_lock_ahead_write"), 0u);
    }
  } else {
    EXPECT_EQ(setting(report, "lustre_lockahead")["status"], "dropped");  // neither romio321 nor OMPIO has it
  }
}

TEST(HintSessionMpi, NoIndepRwReenablesCollectiveBuffering) {
  nwpio::HintOptions o;
  o.report = nwpio::HintReport::Off;
  o.overrides = {{"collective_write", "false"}, {"no_indep_rw", "true"}};
  HintSession s = HintSession::resolve(o, nwpio::IoForm::Pnetcdf, MPI_COMM_WORLD, 0);
  const std::string path = nwpio::test::scratch_dir("noindep.nc");
  std::string printed;
  LayoutFacts f;
  {
    StdoutCapture cap(nwpio::test::scratch_dir("stdout2." + std::to_string(rank())));
    f = write_file(path, s);
    printed = cap.finish();
  }
  check_file(path);
  const std::string text = s.verify_and_report(path, f);
  if (rank() != 0) return;
  const json report = json::parse(text);
  const auto seen = parse_printout(printed);
  if (romio_expected()) {
    EXPECT_EQ(setting(report, "collective_write")["status"], "overridden");
    ASSERT_TRUE(seen.count("romio_cb_write")) << printed;
    EXPECT_EQ(seen.at("romio_cb_write"), "enable");  // what ROMIO really did
    EXPECT_EQ(seen.at("romio_no_indep_rw"), "true");
  } else {
    EXPECT_EQ(setting(report, "no_indep_rw")["status"], "dropped");
    EXPECT_EQ(setting(report, "collective_write")["status"], "passed");
    EXPECT_EQ(seen.at("collective_buffering"), "false");
  }
}

TEST(HintSessionMpi, EveryRankPassesWhatRankZeroResolved) {
  // Only rank 0's environment counts: set NWPIO_HINTS there alone.
  if (rank() == 0) setenv("NWPIO_HINTS", "aggregators=3;raw.my_site_key=on", 1);
  nwpio::HintOptions o;
  o.overrides["cb_buffer_size"] = "2MiB";
  HintSession s = HintSession::resolve(o, nwpio::IoForm::Pnetcdf, MPI_COMM_WORLD, 0);
  if (rank() == 0) unsetenv("NWPIO_HINTS");
  std::string mine;
  int nkeys = 0;
  MPI_Info_get_nkeys(s.info(), &nkeys);
  for (int i = 0; i < nkeys; ++i) {
    char key[MPI_MAX_INFO_KEY + 1], value[256];
    int flag = 0;
    MPI_Info_get_nthkey(s.info(), i, key);
    MPI_Info_get(s.info(), key, 255, value, &flag);
    mine += std::string(key) + "=" + value + ";";
  }
  EXPECT_NE(mine.find("cb_nodes=3;"), std::string::npos) << mine;
  EXPECT_NE(mine.find("my_site_key=on;"), std::string::npos) << mine;
  EXPECT_NE(mine.find("cb_buffer_size=" + std::to_string(2 << 20) + ";"), std::string::npos) << mine;
  int len = static_cast<int>(mine.size()), len0 = len;
  MPI_Bcast(&len0, 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::string theirs = mine;
  theirs.resize(static_cast<std::size_t>(len0));
  MPI_Bcast(theirs.data(), len0, MPI_CHAR, 0, MPI_COMM_WORLD);
  EXPECT_EQ(mine, theirs);
}

TEST(HintSessionMpi, BadProfileFailsOnEveryRankWithFileLine) {
  const std::string path = nwpio::test::scratch_dir("bad.toml");
  if (rank() == 0) std::ofstream(path) << "[profile.default]\naggregators = 2\nstripe_size = \"4 bananas\"\n";
  MPI_Barrier(MPI_COMM_WORLD);
  nwpio::HintOptions o;
  o.profile_file = path;
  try {
    HintSession::resolve(o, nwpio::IoForm::Pnetcdf, MPI_COMM_WORLD, 0);
    FAIL() << "no error";
  } catch (const nwpio::Error& e) {
    EXPECT_EQ(e.kind(), nwpio::ErrorKind::Config);
    EXPECT_NE(std::string(e.what()).find(path + ":3:"), std::string::npos) << e.what();
  }
}
