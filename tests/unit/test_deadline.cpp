// util/deadline.hpp: a step that outlives its limit ends the process with the message and status
// 124; one that returns in time, or has no limit, ends nothing.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>

#include "util/deadline.hpp"

namespace nwpio::detail {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

TEST(Deadline, AStepPastItsLimitEndsTheProcessWithTheMessage) {
  EXPECT_EXIT(
      {
        const Deadline limit(seconds(1), "nwpio: rank 0: the create of /x/wrfout has not returned after 1 s");
        std::this_thread::sleep_for(seconds(30));
      },
      testing::ExitedWithCode(124), "rank 0: the create of /x/wrfout has not returned after 1 s");
}

TEST(Deadline, AStepThatReturnsInTimeEndsNothing) {
  EXPECT_EXIT(
      {
        { const Deadline limit(seconds(1), "must not be printed"); }
        std::this_thread::sleep_for(milliseconds(2500));
        std::exit(0);
      },
      testing::ExitedWithCode(0), "^$");
}

TEST(Deadline, NoLimitWatchesNothing) {
  std::atomic<int> fired{0};
  {
    const Deadline limit(seconds(0), "no limit", [&](const std::string&) { ++fired; });
    std::this_thread::sleep_for(milliseconds(1500));
  }
  EXPECT_EQ(fired.load(), 0);
}

TEST(Deadline, TheEarliestOfSeveralFiresFirstAndOnlyOnce) {
  std::atomic<int> short_fired{0}, long_fired{0};
  std::string seen;
  {
    const Deadline longer(seconds(30), "long", [&](const std::string&) { ++long_fired; });
    const Deadline shorter(seconds(1), "short one", [&](const std::string& m) {
      seen = m;
      ++short_fired;
    });
    for (int i = 0; i < 60 && short_fired.load() == 0; ++i) std::this_thread::sleep_for(milliseconds(100));
    std::this_thread::sleep_for(milliseconds(1200));
  }
  EXPECT_EQ(short_fired.load(), 1);
  EXPECT_EQ(long_fired.load(), 0);
  EXPECT_EQ(seen, "short one");
}

}  // namespace
}  // namespace nwpio::detail
