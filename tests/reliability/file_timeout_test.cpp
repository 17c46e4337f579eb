// options.file_timeout_seconds: a file's collective create that outlives the limit, because one
// rank does not come (rank 0 held back by a test hook, as a rank stuck in a library would be),
// is named on every rank that waits, with the file and the setting. The test hook takes the
// place of the default action (ending the process, unit-tested in tests/unit/test_deadline.cpp),
// so that the run goes on when rank 0 comes after all and the file is checked.
#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "api/stream_context.hpp"
#include "core/test_hooks.hpp"
#include "reliability_support.hpp"

namespace nwpio::test::rel {
namespace {

// The messages the watchdog gave this rank, from its thread.
struct Seen {
  std::mutex mutex;
  std::vector<std::string> messages;
  void add(const std::string& m) {
    std::lock_guard<std::mutex> lock(mutex);
    messages.push_back(m);
  }
  std::vector<std::string> all() {
    std::lock_guard<std::mutex> lock(mutex);
    return messages;
  }
};

// A stream whose file steps run under `limit` seconds, the watchdog's messages kept in `seen`.
struct TimedRun {
  std::string dir;
  ModelShape shape;
  Model model{world(), shape};
  std::shared_ptr<detail::TestHooks> hooks = std::make_shared<detail::TestHooks>();
  Seen seen;
  Writer writer;

  TimedRun(const std::string& name, int limit, int frames_per_file)
      : dir(fresh_dir(name)), writer(make(limit, frames_per_file)) {}

  Writer make(int limit, int frames_per_file) {
    OutputOptions o = options_for(dir);
    o.frames_per_file = frames_per_file;
    o.file_timeout_seconds = limit;
    hooks->file_timeout = [this](const std::string& m) { seen.add(m); };
    return detail::make_writer(model.decomposition(), model.schema(), o, {hooks, nullptr, nullptr});
  }
};

TEST(FileTimeout, ACreateWaitingPastTheLimitIsNamedOnEveryRank) {
  TimedRun run("file_timeout_create", 1, 1);
  run.hooks->before_create = [] { std::this_thread::sleep_for(std::chrono::seconds(4)); };  // rank 0 only
  write_frame(run.writer, run.model, 0);
  run.hooks->before_create = nullptr;
  run.writer.close();
  const auto messages = run.seen.all();
  ASSERT_EQ(messages.size(), 1u);
  const std::string expected = "nwpio: rank " + std::to_string(my_rank()) + ": the create of " + file_at(run.dir, 0) +
                               " has not returned after 1 s (file_timeout_seconds)";
  EXPECT_EQ(messages[0].rfind(expected, 0), 0u) << messages[0];
  MPI_Barrier(world());
  expect_complete(file_at(run.dir, 0), {0}, run.model, run.shape);
}

TEST(FileTimeout, StepsWithinTheLimitNameNothing) {
  TimedRun run("file_timeout_none", 30, 2);
  for (int t = 0; t < 3; ++t) write_frame(run.writer, run.model, t);
  run.writer.close();
  EXPECT_TRUE(run.seen.all().empty());
  MPI_Barrier(world());
  expect_complete(file_at(run.dir, 0), {0, 1}, run.model, run.shape);
  expect_complete(file_at(run.dir, 2), {2}, run.model, run.shape);
}

}  // namespace
}  // namespace nwpio::test::rel
