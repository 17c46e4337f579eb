// Collective reading: rank 0 reads, every rank gets the same settings, and a bad file gives the
// same Error on every rank (run with 1, 2 and 3 ranks).
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdlib>
#include <fstream>
#include <functional>

#include "config/iofields.hpp"
#include "nwpio/error.hpp"
#include "nwpio_model/model_settings.hpp"
#include "nwpio/options.hpp"
#include "mpi_support.hpp"

namespace nwpio {
namespace {

int rank() { return test::my_rank(); }

// Rank 0 writes `text` to the scratch file `name`; everybody gets the path.
std::string write_on_root(const std::string& name, const std::string& text) {
  const std::string path = test::scratch_dir(name);
  if (rank() == 0) std::ofstream(path) << text;
  MPI_Barrier(MPI_COMM_WORLD);
  return path;
}

// True on every rank when `s` is the same on every rank.
bool same_everywhere(const std::string& s) {
  int len = static_cast<int>(s.size());
  MPI_Bcast(&len, 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::string root(static_cast<std::size_t>(len), '\0');
  if (rank() == 0) root = s;
  MPI_Bcast(root.data(), len, MPI_CHAR, 0, MPI_COMM_WORLD);
  int mine = root == s ? 1 : 0, all = 0;
  MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  return all == 1;
}

struct Caught {
  ErrorKind kind = ErrorKind::Internal;
  std::string what = "no error";
};

Caught catch_error(const std::function<void()>& f) {
  Caught c;
  try {
    f();
  } catch (const Error& e) {
    c.kind = e.kind();
    c.what = e.what();
  }
  return c;
}

std::string fingerprint(const OutputOptions& o) {
  return o.outname + "|" + o.start_date + "|" + std::to_string(o.history_interval_seconds) + "|" +
         std::to_string(o.history_begin_seconds) + "|" + std::to_string(o.frames_per_file) + "|" +
         std::to_string(static_cast<int>(o.io_form)) + "|" + std::to_string(o.e_we) + "|" + o.output_dir + "|" +
         std::to_string(o.max_round_bytes);
}

TEST(NamelistMpi, FromNamelistIsReadOnRootAndBroadcast) {
  const std::string path = write_on_root(
      "bcast.nml",
      "&time_control\n start_year = 2019, 2019, start_month = 9, 9, start_day = 4, 4\n end_year = 2019, 2019, end_month = 9, 9, end_day = 5, 5\n history_interval = 60, 30\n"
      " history_begin_m = 0, 10\n io_form_history = 11\n/\n&domains\n max_dom = 2\n e_we = 426, 200\n e_sn = 301, 150\n"
      " e_vert = 36, 36\n dx = 12000, 4000\n dy = 12000, 4000\n time_step = 60\n parent_time_step_ratio = 1, 3\n/\n"
      "&nwpio\n output_dir = 'out', max_round_bytes = 4096\n/\n");
  // Only rank 0 opens the file: the other ranks pass a path that does not exist.
  const std::string mine = rank() == 0 ? path : path + ".not-there";
  const OutputOptions o = OutputOptions::from_namelist(mine, 2, MPI_COMM_WORLD);
  EXPECT_EQ(o.history_interval_seconds, 30 * 60);
  EXPECT_EQ(o.history_begin_seconds, 10 * 60);
  EXPECT_EQ(o.io_form, IoForm::Pnetcdf);
  EXPECT_EQ(o.e_we, 200);
  EXPECT_EQ(o.output_dir, "out");
  EXPECT_EQ(o.max_round_bytes, 4096);
  EXPECT_TRUE(same_everywhere(fingerprint(o)));

  const ModelSettings m = read_model_settings(mine, 2, MPI_COMM_WORLD);
  EXPECT_EQ(m.max_dom, 2);
  EXPECT_EQ(m.e_we, 200);
  EXPECT_EQ(m.e_sn, 150);
  EXPECT_DOUBLE_EQ(m.dx, 4000.0);
  EXPECT_DOUBLE_EQ(m.time_step, 20.0);
  EXPECT_TRUE(same_everywhere(m.start_date + "|" + std::to_string(m.e_we) + "|" + std::to_string(m.time_step)));
}

TEST(NamelistMpi, ConfigsReadOnEveryRank) {
  const OutputOptions o = OutputOptions::from_namelist(NWPIO_CONFIGS_DIR "/namelist.input.haps1km", 1, MPI_COMM_WORLD);
  EXPECT_EQ(o.history_interval_seconds, 1800);
  EXPECT_TRUE(same_everywhere(fingerprint(o)));
  const ModelSettings m = read_model_settings(NWPIO_CONFIGS_DIR "/namelist.input.demo", 1, MPI_COMM_WORLD);
  EXPECT_EQ(m.e_we, 426);
}

TEST(NamelistMpi, MalformedFileGivesTheSameErrorOnEveryRank) {
  const std::string path = write_on_root("bad.nml", "&time_control\n start_year = 2019,\n start_month = 'x\n/\n");
  const Caught c = catch_error([&] { OutputOptions::from_namelist(path, 1, MPI_COMM_WORLD); });
  EXPECT_EQ(c.kind, ErrorKind::Config);
  EXPECT_NE(c.what.find(path + ":3:18: expected a closing ' for the string opened at 3:16, found end of line"), std::string::npos)
      << c.what;
  EXPECT_TRUE(same_everywhere(c.what));

  const Caught m = catch_error([&] { read_model_settings(path, 1, MPI_COMM_WORLD); });
  EXPECT_EQ(m.what, c.what);
}

// $NAME in a path key takes rank 0's value on every rank, even where the ranks' environments
// differ; a variable unset on rank 0 is the same error on every rank.
TEST(NamelistMpi, PathVariablesComeFromRankZero) {
  const std::string path = write_on_root("paths.nml", "&time_control\n start_year = 2019, start_month = 9, start_day = 4\n/\n"
                                                      "&nwpio\n hints_file = '${NWPIO_TEST_ROOT}/h.toml'\n/\n");
  ::setenv("NWPIO_TEST_ROOT", ("/rank" + std::to_string(rank())).c_str(), 1);
  EXPECT_EQ(OutputOptions::from_namelist(path, 1, MPI_COMM_WORLD).hints.namelist.profile_file, "/rank0/h.toml");

  if (rank() == 0) ::unsetenv("NWPIO_TEST_ROOT");
  const Caught c = catch_error([&] { OutputOptions::from_namelist(path, 1, MPI_COMM_WORLD); });
  ::unsetenv("NWPIO_TEST_ROOT");
  EXPECT_EQ(c.kind, ErrorKind::Config);
  EXPECT_NE(c.what.find(path + ":5:15: cannot expand hints_file '${NWPIO_TEST_ROOT}/h.toml': environment variable "
                               "NWPIO_TEST_ROOT is not set or empty"), std::string::npos) << c.what;
  EXPECT_TRUE(same_everywhere(c.what));
}

TEST(NamelistMpi, MissingFileIsAnIoErrorOnEveryRank) {
  const std::string path = test::scratch_dir("no-such-namelist.input");
  const Caught c = catch_error([&] { read_model_settings(path, 1, MPI_COMM_WORLD); });
  EXPECT_EQ(c.kind, ErrorKind::Io);
  EXPECT_NE(c.what.find("cannot read namelist file '" + path + "': No such file or directory"), std::string::npos) << c.what;
  EXPECT_TRUE(same_everywhere(c.what));
}

TEST(NamelistMpi, DomainOutOfRangeOnEveryRank) {
  const Caught c = catch_error([&] { OutputOptions::from_namelist(NWPIO_CONFIGS_DIR "/namelist.input.demo", 2, MPI_COMM_WORLD); });
  EXPECT_EQ(c.kind, ErrorKind::Config);
  EXPECT_NE(c.what.find("domain 2 is out of range: max_dom = 1"), std::string::npos) << c.what;
  EXPECT_TRUE(same_everywhere(c.what));
}

TEST(NamelistMpi, IofieldsAppliedOnEveryRank) {
  Schema s;
  for (const char* name : {"U", "W", "PB", "T2"}) {
    VarSpec v;
    v.name = name;
    v.memory_order = std::string(name) == "T2" ? MemoryOrder::XY : MemoryOrder::XZY;
    s.add_variable(v);
  }
  OutputOptions o;
  o.iofields_file = write_on_root("fields.txt", "-:h:0:w,pb\n+:h:0:T2\n");
  const std::set<std::string> removed = detail::apply_iofields(s, detail::read_iofields(o, MPI_COMM_WORLD), o.ignore_iofields_warning, MPI_COMM_WORLD);
  EXPECT_EQ(removed, (std::set<std::string>{"PB", "W"}));
  EXPECT_EQ(s.variables().size(), 2u);
  EXPECT_TRUE(same_everywhere(s.variables().front().name + s.variables().back().name));

  o.iofields_file = write_on_root("bad-fields.txt", "-:h:0:W\n-:q:0:PB\n");
  Schema before = s;
  const Caught c = catch_error([&] { detail::apply_iofields(s, detail::read_iofields(o, MPI_COMM_WORLD), o.ignore_iofields_warning, MPI_COMM_WORLD); });
  EXPECT_EQ(c.kind, ErrorKind::Config);
  EXPECT_NE(c.what.find(o.iofields_file + ":2:3: expected a stream type"), std::string::npos) << c.what;
  EXPECT_TRUE(same_everywhere(c.what));
  EXPECT_EQ(s.variables().size(), before.variables().size());
}

}  // namespace
}  // namespace nwpio
