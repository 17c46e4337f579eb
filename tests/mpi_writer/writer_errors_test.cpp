// Bad input: every error is a clear nwpio::Error with the same kind and text on every rank,
// nobody hangs, and files closed before the error stay intact.
#include <gtest/gtest.h>
#include <mpi.h>
#include <netcdf.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <stdexcept>
#include <string>

#include "nwpio/error.hpp"
#include "nwpio/writer.hpp"
#include "nwpio/wrf_date.hpp"
#include "mpi_support.hpp"
#include "test_model.hpp"
#include "temp_paths.hpp"

namespace nwpio::test {
namespace {

std::string fresh_dir(const std::string& name) { return test::fresh_dir("errors_" + name); }

OutputOptions options_for(const std::string& dir) {
  OutputOptions o;
  o.output_dir = dir;
  o.print_timing = false;
  return o;
}

std::string date_at(int t) { return wrf::add_seconds("2019-06-01_00:00:00", 3600 * t); }
std::string file_at(const std::string& dir, int t) {
  std::string d = date_at(t);
  for (char& c : d) c = c == ':' ? '_' : c;
  return dir + "/wrfout_d01_" + d;
}

void put_all(Writer& w, const Model& m, const std::vector<std::string>& skip = {}) {
  m.put_all([&](const std::string& n, const void* p, DataType t) { w.put(n, p, t); }, skip);
}

TEST(WriterErrors, PutOfUndefinedVariableFailsEverywhere) {
  const std::string dir = fresh_dir("undefined");
  ModelShape shape;
  Model model(world(), shape);
  Writer w(model.decomposition(), model.schema(), options_for(dir));
  model.fill(0);
  w.begin_frame(date_at(0));
  put_all(w, model);
  const float x = 1.f;
  if (my_rank() == nranks() - 1) {
    EXPECT_THROW(w.put("NO_SUCH_VAR", &x), Error);
  }
  const Error e = expect_error([&] { w.end_frame(); });
  EXPECT_EQ(e.kind(), ErrorKind::Schema);
  EXPECT_NE(std::string(e.what()).find("NO_SUCH_VAR"), std::string::npos) << e.what();
  // The stream goes on: the same date again, complete this time.
  w.begin_frame(date_at(0));
  put_all(w, model);
  w.end_frame();
  w.close();
  if (my_rank() == 0) {
    check_file({file_at(dir, 0), {0}, {date_at(0)}}, model.schema(), shape, NC_FORMAT_64BIT_OFFSET);
    EXPECT_TRUE(ncvalidator_ok(file_at(dir, 0)));
  }
}

// history_interval = 0: the stream is off. Frames cost nothing and no file appears, with no
// backend and no staging behind the Writer.
TEST(WriterErrors, StreamOffWritesNothing) {
  const std::string dir = fresh_dir("stream_off");
  Model model(world(), ModelShape{});
  OutputOptions o = options_for(dir);
  o.history_interval_seconds = 0;
  o.stats_json = dir + "/stats.json";
  {
    Writer w(model.decomposition(), model.schema(), o);
    EXPECT_FALSE(w.stream_enabled());
    EXPECT_FALSE(w.output_due(date_at(0)));
    model.fill(0);
    for (int t = 0; t < 2; ++t) {
      w.begin_frame(date_at(t));
      put_all(w, model);
      w.end_frame();
    }
    EXPECT_TRUE(w.current_file().empty());
    w.close();
    EXPECT_TRUE(w.statistics().frames.empty());
  }
  MPI_Barrier(world());
  if (my_rank() == 0) {
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
      EXPECT_EQ(entry.path().filename(), "stats.json") << "a stream that is off wrote " << entry.path();
    }
  }
}

// A statistics path that cannot be written (its folder missing, a folder in its place) is
// refused when the stream opens, on every rank, naming the path and the cause: no file is
// written first (the statistics are written at the close, after every file).
TEST(WriterErrors, UnwritableStatsJsonFailsAtOpen) {
  const std::string dir = fresh_dir("stats_path");
  if (my_rank() == 0) std::filesystem::create_directories(dir + "/a_folder");
  MPI_Barrier(world());
  Model model(world(), ModelShape{});
  const std::vector<std::pair<std::string, std::string>> cases = {
      {dir + "/no_such_folder/stats.json", "No such file or directory"}, {dir + "/a_folder", "Is a directory"}};
  for (const auto& [path, cause] : cases) {
    SCOPED_TRACE(path);
    OutputOptions o = options_for(dir);
    o.stats_json = path;
    const auto e = expect_same_error([&] {
      Writer w(model.decomposition(), model.schema(), o);
      model.fill(0);
      w.begin_frame(date_at(0));
      put_all(w, model);
      w.end_frame();
      w.close();
    });
    if (!e) continue;
    EXPECT_EQ(e->kind(), ErrorKind::Io) << e->what();
    EXPECT_NE(std::string(e->what()).find(path), std::string::npos) << e->what();
    EXPECT_NE(std::string(e->what()).find(cause), std::string::npos) << e->what();
  }
  MPI_Barrier(world());
  if (my_rank() == 0) {
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
      EXPECT_EQ(entry.path().filename(), "a_folder") << "written before the refusal: " << entry.path();
    }
  }
}

TEST(WriterErrors, PutTwiceAndWrongTypeFailEverywhere) {
  const std::string dir = fresh_dir("twice");
  Model model(world(), ModelShape{});
  Writer w(model.decomposition(), model.schema(), options_for(dir));
  model.fill(0);
  w.begin_frame(date_at(0));
  put_all(w, model);
  std::vector<float> t(100000);
  if (my_rank() == 0) {
    EXPECT_THROW(w.put("T", t.data()), Error);
  }
  Error e = expect_error([&] { w.end_frame(); });
  EXPECT_EQ(e.kind(), ErrorKind::State);
  EXPECT_NE(std::string(e.what()).find("put(T): already put"), std::string::npos) << e.what();

  std::vector<double> d(100000);
  w.begin_frame(date_at(0));
  if (my_rank() == 0) {
    EXPECT_THROW(w.put("T", d.data()), Error);  // T is float
  }
  put_all(w, model, {"T"});
  if (my_rank() != 0) w.put("T", t.data());
  e = expect_error([&] { w.end_frame(); });
  EXPECT_EQ(e.kind(), ErrorKind::InvalidArgument);
  EXPECT_NE(std::string(e.what()).find("kind mismatch: the variable is float, the array holds double"), std::string::npos) << e.what();
}

TEST(WriterErrors, MissingVariablesAreNamed) {
  const std::string dir = fresh_dir("missing");
  ModelShape shape;
  Model model(world(), shape);
  OutputOptions o = options_for(dir);
  o.frames_per_file = 1;
  Writer w(model.decomposition(), model.schema(), o);
  model.fill(0);
  w.begin_frame(date_at(0));
  put_all(w, model);
  w.end_frame();  // file 0 complete and closed

  model.fill(1);
  w.begin_frame(date_at(1));
  if (my_rank() == nranks() - 1) {
    put_all(w, model, {"U", "W"});
  } else {
    put_all(w, model);
  }
  const Error e = expect_error([&] { w.end_frame(); });
  EXPECT_EQ(e.kind(), ErrorKind::State);
  EXPECT_NE(std::string(e.what()).find("variables not put: U, W"), std::string::npos) << e.what();
  MPI_Barrier(world());
  if (my_rank() == 0) {  // the closed file is intact (committed behind the model)
    ASSERT_TRUE(test::appears_within(file_at(dir, 0), 60));
    check_file({file_at(dir, 0), {0}, {date_at(0)}}, model.schema(), shape, NC_FORMAT_64BIT_OFFSET);
    EXPECT_TRUE(ncvalidator_ok(file_at(dir, 0)));
  }
  w.begin_frame(date_at(1));  // retry, complete
  put_all(w, model);
  w.end_frame();
  w.close();
  if (my_rank() == 0) {
    check_file({file_at(dir, 1), {1}, {date_at(1)}}, model.schema(), shape, NC_FORMAT_64BIT_OFFSET);
    EXPECT_TRUE(ncvalidator_ok(file_at(dir, 1)));
  }
}

TEST(WriterErrors, BadDatesFailEverywhere) {
  const std::string dir = fresh_dir("dates");
  Model model(world(), ModelShape{});
  Writer w(model.decomposition(), model.schema(), options_for(dir));
  for (const std::string bad : {"2019-06-01 00:00:00", "2019-13-01_00:00:00", "2019-06-01_00:00", ""}) {
    const Error e = expect_error([&] { w.begin_frame(bad); });
    EXPECT_EQ(e.kind(), ErrorKind::InvalidArgument) << e.what();
    EXPECT_NE(std::string(e.what()).find("begin_frame"), std::string::npos) << e.what();
  }
  model.fill(1);
  w.begin_frame(date_at(1));
  put_all(w, model);
  w.end_frame();
  for (int t : {1, 0}) {
    const Error e = expect_error([&] { w.begin_frame(date_at(t)); });
    EXPECT_EQ(e.kind(), ErrorKind::State);
    EXPECT_NE(std::string(e.what()).find("not after the previous frame's date " + date_at(1)), std::string::npos)
        << e.what();
  }
  // Ranks that disagree on the date.
  if (nranks() > 1) {
    const Error e = expect_error([&] { w.begin_frame(date_at(my_rank() == 0 ? 2 : 3)); });
    EXPECT_NE(std::string(e.what()).find("different dates"), std::string::npos) << e.what();
  }
  // put/end_frame without a frame.
  const float x = 0;
  EXPECT_THROW(w.put("T2", &x), Error);
  const Error e = expect_error([&] { w.end_frame(); });
  EXPECT_EQ(e.kind(), ErrorKind::State);
}

TEST(WriterErrors, OutputDirectoryMissingOrNotADirectory) {
  const std::string dir = fresh_dir("outdir");
  Model model(world(), ModelShape{});
  const std::string missing = dir + "/does/not/exist";
  Error e = expect_error([&] { Writer w(model.decomposition(), model.schema(), options_for(missing)); });
  EXPECT_EQ(e.kind(), ErrorKind::Io);
  EXPECT_NE(std::string(e.what()).find(missing), std::string::npos) << e.what();
  EXPECT_NE(std::string(e.what()).find("No such file or directory"), std::string::npos) << e.what();

  const std::string file = dir + "/plain_file";
  if (my_rank() == 0) std::ofstream(file) << "x";
  MPI_Barrier(world());
  e = expect_error([&] { Writer w(model.decomposition(), model.schema(), options_for(file)); });
  EXPECT_EQ(e.kind(), ErrorKind::Io);
  EXPECT_NE(std::string(e.what()).find("Not a directory"), std::string::npos) << e.what();

  if (::geteuid() != 0) {  // root writes anywhere; permission bits only bind other users
    const std::string ro = dir + "/read_only";
    if (my_rank() == 0) {
      std::filesystem::create_directories(ro);
      std::filesystem::permissions(ro, std::filesystem::perms::owner_read | std::filesystem::perms::owner_exec);
    }
    MPI_Barrier(world());
    e = expect_error([&] { Writer w(model.decomposition(), model.schema(), options_for(ro)); });
    EXPECT_EQ(e.kind(), ErrorKind::Io);
    EXPECT_NE(std::string(e.what()).find("not writable"), std::string::npos) << e.what();
  }
}

TEST(WriterErrors, BadOptionsFailEverywhere) {
  const std::string dir = fresh_dir("options");
  Model model(world(), ModelShape{});
  OutputOptions o = options_for(dir);
  o.frames_per_file = 0;
  Error e = expect_error([&] { Writer w(model.decomposition(), model.schema(), o); });
  EXPECT_EQ(e.kind(), ErrorKind::InvalidArgument);

  o = options_for(dir);
  o.e_we = 99;
  e = expect_error([&] { Writer w(model.decomposition(), model.schema(), o); });
  EXPECT_EQ(e.kind(), ErrorKind::Decomposition);
  EXPECT_NE(std::string(e.what()).find("e_we = 99"), std::string::npos) << e.what();

  o = options_for(dir);
  o.io_form = static_cast<IoForm>(5);
  e = expect_error([&] { Writer w(model.decomposition(), model.schema(), o); });
  EXPECT_EQ(e.kind(), ErrorKind::Unsupported);
  EXPECT_NE(std::string(e.what()).find("io_form 5 is not supported; supported: 0"), std::string::npos) << e.what();
}

TEST(WriterErrors, UnwindingLeavesOnlyTheTemporaryFile) {
  const std::string dir = fresh_dir("unwind");
  Model model(world(), ModelShape{});
  OutputOptions o = options_for(dir);
  o.frames_per_file = 3;
  try {
    Writer w(model.decomposition(), model.schema(), o);
    model.fill(0);
    w.begin_frame(date_at(0));
    put_all(w, model);
    w.end_frame();
    throw std::runtime_error("model failed");  // the Writer dies during unwinding
  } catch (const std::runtime_error&) {
  }
  MPI_Barrier(world());
  if (my_rank() == 0) {
    EXPECT_FALSE(std::filesystem::exists(file_at(dir, 0)));
    EXPECT_TRUE(std::filesystem::exists(test::temp_of(file_at(dir, 0))));
  }
}

TEST(WriterErrors, ClosedFilesCommitAndOpenOnesKeepTheirTemporaryName) {
  const std::string dir = fresh_dir("commit");
  ModelShape shape;
  Model model(world(), shape);
  OutputOptions o = options_for(dir);
  o.frames_per_file = 2;
  Writer w(model.decomposition(), model.schema(), o);
  for (int t = 0; t < 3; ++t) {
    model.fill(t);
    w.begin_frame(date_at(t));
    put_all(w, model);
    w.end_frame();
    MPI_Barrier(world());
    if (my_rank() == 0) {
      // A complete file gets its final name behind the model, with no further call into nwpio.
      const bool first_complete = t >= 1;
      if (first_complete) {
        EXPECT_TRUE(test::appears_within(file_at(dir, 0), 60)) << "after frame " << t;
      }
      EXPECT_EQ(std::filesystem::exists(file_at(dir, 0)), first_complete) << "after frame " << t;
      EXPECT_EQ(std::filesystem::exists(test::temp_of(file_at(dir, 0))), !first_complete) << "after frame " << t;
    }
  }
  EXPECT_EQ(w.current_file(), file_at(dir, 2));
  w.close();
  EXPECT_EQ(w.current_file(), "");
  if (my_rank() == 0) {
    check_file({file_at(dir, 2), {2}, {date_at(2)}}, model.schema(), shape, NC_FORMAT_64BIT_OFFSET);
    EXPECT_FALSE(std::filesystem::exists(test::temp_of(file_at(dir, 2))));
  }
}

}  // namespace
}  // namespace nwpio::test
