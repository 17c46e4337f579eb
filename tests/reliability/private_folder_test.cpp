// Streams of one user writing into the same output directory at once (two streams of a run, I/O
// server groups, two overlapping jobs) share the user's private folder <dir>/.nwpio-tmp-<uid>/,
// and each stream's close removes it when it finds it empty -- while another stream may be
// between rank 0's making the folder ready for a file and the library's create of it, the
// moment the folder is empty and the other ranks look it up by name.
//   - The world is split into two groups of uneven sizes that open a stream, write one frame and
//     close it, over and over, into one directory at the same time.
//   - Another stream's close runs at the worst moment, every time (a test hook): just after rank
//     0 made the folder ready for a file, before the other ranks join it and the library creates
//     the file.
// Every file of every stream must be written, complete and exact (nwpio-check, ncvalidator,
// every value through netCDF-C), and the folder is gone once the last stream closed.
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "api/stream_context.hpp"
#include "core/test_hooks.hpp"
#include "reliability_support.hpp"
#include "util/temp_files.hpp"

namespace nwpio::test::rel {
namespace {

namespace fs = std::filesystem;

// Streams per group: enough that one group's close falls into the other's open many times.
constexpr int kStreamsPerGroup = 60;

// Rank 0: every frame in `frames` is its own complete, exact file in `dir`, nothing else is, and
// the private folder was removed by the last close.
void expect_files_and_no_folder(const std::string& dir, const std::vector<int>& frames, const Model& model,
                                const ModelShape& shape) {
  for (int t : frames) expect_complete(file_at(dir, t), {t}, model, shape);
  expect_no_incomplete_final_file(dir);
  if (my_rank() != 0) return;
  EXPECT_EQ(files_in(dir).size(), frames.size());
  EXPECT_FALSE(fs::exists(test::private_dir_of(dir))) << "the private folder outlived the last stream";
}

TEST(PrivateFolder, TwoGroupsOpenAndCloseStreamsInOneDirectory) {
  if (nranks() < 2) GTEST_SKIP() << "two groups need two ranks";
  const std::string dir = fresh_dir("two_groups");
  // Ranks 0, 2, 4... and 1, 3, 5...: at 3 ranks a group of two (its decomposition uneven) and
  // one of one.
  const int group = my_rank() % 2;
  MPI_Comm comm = MPI_COMM_NULL;
  ASSERT_EQ(MPI_Comm_split(world(), group, my_rank(), &comm), MPI_SUCCESS);
  ModelShape shape;
  Model model(comm, shape);
  // Group g writes frames g, g + 2, g + 4...: one file each, names of its own.
  std::vector<std::string> failures;
  for (int i = 0; i < kStreamsPerGroup; ++i) {
    const int t = 2 * i + group;
    try {
      Writer w(model.decomposition(), model.schema(), options_for(dir));
      write_frame(w, model, t);
      w.close();
    } catch (const Error& e) {
      failures.push_back("frame " + std::to_string(t) + ": " + e.what());
    }
  }
  EXPECT_TRUE(failures.empty()) << failures.size() << " of " << kStreamsPerGroup << " streams of group " << group
                                << " failed; the first: " << failures.front();
  MPI_Comm_free(&comm);
  MPI_Barrier(world());
  std::vector<int> frames;
  for (int t = 0; t < 2 * kStreamsPerGroup; ++t) frames.push_back(t);
  Model checker(world(), shape);  // the values of a frame do not depend on the ranks
  expect_files_and_no_folder(dir, frames, checker, shape);
}

TEST(PrivateFolder, AnotherStreamClosingWhileTheRanksJoinTheFolder) {
  const std::string dir = fresh_dir("close_at_join");
  ModelShape shape;
  Model model(world(), shape);
  auto hooks = std::make_shared<detail::TestHooks>();
  // What another stream of the user does at its close, run on rank 0 for every file at the
  // moment the folder is ready for it and nothing is in it yet.
  hooks->folder_ready = [dir] { detail::remove_private_dir_if_empty(dir); };
  constexpr int kFiles = 4;
  std::vector<int> frames;
  {
    Writer w = detail::make_writer(model.decomposition(), model.schema(), options_for(dir), {hooks, nullptr, nullptr});
    for (int t = 0; t < kFiles; ++t) {
      write_frame(w, model, t);
      frames.push_back(t);
    }
    w.close();
  }
  MPI_Barrier(world());
  expect_files_and_no_folder(dir, frames, model, shape);
}

}  // namespace
}  // namespace nwpio::test::rel
