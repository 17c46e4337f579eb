// Atomic commit: a file is written under a temporary name in the user's private folder
// (<dir>/.nwpio-tmp-<uid>/<final>.nwpio-tmp) and takes its final name only when it is complete. An existing file at the final name is replaced by
// default (as WRF does); with noclobber it is an error on every rank that leaves the existing
// file untouched. (fsync before the rename: fsync_commit.sh; kills: killed_run.sh; failures
// during a frame: disk_failure_test.cpp and agreement_test.cpp.)
#include <filesystem>
#include <fstream>
#include <iterator>

#include "reliability_support.hpp"

namespace nwpio::test::rel {
namespace {

namespace fs = std::filesystem;

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void put_old_file(const std::string& path, const std::string& content) {
  if (my_rank() == 0) std::ofstream(path, std::ios::binary) << content;
  MPI_Barrier(world());
}

TEST(AtomicCommit, ExistingFileIsReplacedByDefault) {
  const std::string dir = fresh_dir("replace");
  ModelShape shape;
  Model model(world(), shape);
  put_old_file(file_at(dir, 0), "an older run's file\n");
  OutputOptions o = options_for(dir);
  o.frames_per_file = 2;
  Writer w(model.decomposition(), model.schema(), o);
  write_frame(w, model, 0);
  // Until the new file is complete, the old one is still there, whole.
  MPI_Barrier(world());
  if (my_rank() == 0) {
    EXPECT_TRUE(read_all(file_at(dir, 0)) == "an older run's file\n") << "the old file changed before the commit";
    EXPECT_TRUE(fs::exists(temp_of(file_at(dir, 0))));
  }
  w.close();  // after one frame of two: the file is complete as it is and replaces the old one
  expect_complete(file_at(dir, 0), {0}, model, shape);
  if (my_rank() == 0) {
    EXPECT_FALSE(fs::exists(temp_of(file_at(dir, 0))));
  }
}

TEST(AtomicCommit, NoclobberRefusesAnExistingFileEverywhere) {
  const std::string dir = fresh_dir("noclobber");
  ModelShape shape;
  Model model(world(), shape);
  const std::string old = "an older run's file, to be kept\n";
  put_old_file(file_at(dir, 1), old);
  OutputOptions o = options_for(dir);
  o.noclobber = true;
  Writer w(model.decomposition(), model.schema(), o);
  write_frame(w, model, 0);  // no file there: fine
  model.fill(1);
  const auto e = expect_same_error([&] { w.begin_frame(date_at(1)); });
  if (e) {
    EXPECT_EQ(e->kind(), ErrorKind::Io) << e->what();
    EXPECT_TRUE(contains(e->what(), file_at(dir, 1))) << e->what();
    EXPECT_TRUE(contains(e->what(), "noclobber")) << e->what();
  }
  // The stream goes on with the next output time.
  write_frame(w, model, 2);
  w.close();
  MPI_Barrier(world());
  if (my_rank() == 0) {
    EXPECT_TRUE(read_all(file_at(dir, 1)) == old) << "noclobber touched the existing file";
    EXPECT_FALSE(fs::exists(temp_of(file_at(dir, 1))));
  }
  expect_complete(file_at(dir, 0), {0}, model, shape);
  expect_complete(file_at(dir, 2), {2}, model, shape);
  expect_no_incomplete_final_file(dir, {file_at(dir, 1)});
}

TEST(AtomicCommit, FileAppearingDuringTheWriteIsNotClobberedWithNoclobber) {
  // noclobber is checked when the file is opened AND at the rename: a file that appears under
  // the final name while nwpio writes (another job, a restarted run) is not replaced.
  const std::string dir = fresh_dir("noclobber_race");
  ModelShape shape;
  Model model(world(), shape);
  OutputOptions o = options_for(dir);
  o.noclobber = true;
  o.frames_per_file = 2;
  Writer w(model.decomposition(), model.schema(), o);
  write_frame(w, model, 0);
  const std::string other = "written by someone else meanwhile\n";
  put_old_file(file_at(dir, 0), other);
  model.fill(1);
  w.begin_frame(date_at(1));
  put_all(w, model);
  w.end_frame();  // the file is full: committed behind the model, where the rename refuses
  // The failure reaches every rank at the stream's next collective call.
  const auto e = expect_same_error([&] { w.close(); });
  if (e) {
    EXPECT_EQ(e->kind(), ErrorKind::Io) << e->what();
    EXPECT_TRUE(contains(e->what(), file_at(dir, 0))) << e->what();
  }
  MPI_Barrier(world());
  if (my_rank() == 0) {
    EXPECT_TRUE(read_all(file_at(dir, 0)) == other) << "noclobber replaced a file that appeared meanwhile";
    // The complete file nwpio wrote is kept under its temporary name, not lost.
    EXPECT_TRUE(fs::exists(temp_of(file_at(dir, 0))));
  }
}

TEST(AtomicCommit, FileUnderTemporaryNameIsNeverFinalBeforeClose) {
  const std::string dir = fresh_dir("before_close");
  ModelShape shape;
  Model model(world(), shape);
  OutputOptions o = options_for(dir);
  o.frames_per_file = 3;
  Writer w(model.decomposition(), model.schema(), o);
  for (int t = 0; t < 3; ++t) {
    MPI_Barrier(world());
    if (my_rank() == 0) {
      EXPECT_FALSE(fs::exists(file_at(dir, 0))) << "final name before frame " << t;
    }
    write_frame(w, model, t);
  }
  // Complete: it takes its final name behind the model, without another call into nwpio.
  if (my_rank() == 0) {
    EXPECT_TRUE(appears_within(file_at(dir, 0), 60));
  }
  expect_complete(file_at(dir, 0), {0, 1, 2}, model, shape);
}

}  // namespace
}  // namespace nwpio::test::rel
