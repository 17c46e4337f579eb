// Output timing over a simulated day with a 60 s time step (24*60 steps): a date is due when
// date - start = history_begin + n * history_interval, n >= 0.
#include <gtest/gtest.h>

#include "config/namelist_parser.hpp"
#include "config/namelist_settings.hpp"
#include "core/output_clock.hpp"
#include "nwpio/error.hpp"
#include "nwpio/wrf_date.hpp"

namespace nwpio::detail {
namespace {

OutputOptions options(const std::string& start, std::int64_t interval_s, std::int64_t begin_s) {
  OutputOptions o;
  o.start_date = start;
  o.history_interval_seconds = interval_s;
  o.history_begin_seconds = begin_s;
  return o;
}

// Steps through one day from `start`; returns the steps at which the clock said "due", checking
// output_number and output_date along the way. When every output time falls on a step
// (`consecutive`), the outputs are numbered 0, 1, 2, ...
std::vector<std::int64_t> due_steps(const OutputClock& clock, const std::string& start, std::int64_t dt,
                                    bool consecutive = true) {
  std::vector<std::int64_t> steps;
  std::int64_t last = -1;
  for (std::int64_t step = 0; step <= 86400 / dt; ++step) {
    const std::string date = wrf::add_seconds(start, step * dt);
    const auto n = clock.output_number(date);
    EXPECT_EQ(n.has_value(), clock.due(date)) << date;
    if (n) {
      if (consecutive) {
        EXPECT_EQ(*n, static_cast<std::int64_t>(steps.size())) << date;
      }
      EXPECT_GT(*n, last) << date;
      EXPECT_EQ(clock.output_date(*n), date);
      last = *n;
      steps.push_back(step);
    }
  }
  return steps;
}

TEST(OutputClock, SimulatedDayWith60sSteps) {
  const std::string start = "2019-09-30_12:00:00";  // the day crosses a month end
  const std::int64_t dt = 60;
  for (std::int64_t minutes : {30, 60, 180}) {
    for (std::int64_t begin_min : {0, 15, 90, 24 * 60}) {
      const std::int64_t interval = minutes * 60, begin = begin_min * 60;
      const OutputClock clock(options(start, interval, begin));
      ASSERT_TRUE(clock.enabled());
      const std::vector<std::int64_t> steps = due_steps(clock, start, dt);
      // Expected: every step whose elapsed time is begin + n * interval.
      std::vector<std::int64_t> expected;
      for (std::int64_t t = begin; t <= 86400; t += interval) expected.push_back(t / dt);
      EXPECT_EQ(steps, expected) << "interval " << minutes << " min, begin " << begin_min << " min";
      EXPECT_EQ(static_cast<std::int64_t>(steps.size()), (86400 - begin) / interval + 1);
    }
  }
}

TEST(OutputClock, IntervalNotAMultipleOfTheStepIsDueOnlyWhereTheyMeet) {
  const std::string start = "2020-02-28_00:00:00";  // crosses the leap day
  const OutputClock clock(options(start, 90, 0));    // history_interval_s = 90 with a 60 s step
  const std::vector<std::int64_t> steps = due_steps(clock, start, 60, false);
  std::vector<std::int64_t> expected;
  for (std::int64_t step = 0; step <= 1440; ++step) {
    if ((step * 60) % 90 == 0) expected.push_back(step);
  }
  EXPECT_EQ(steps, expected);
}

TEST(OutputClock, ZeroIntervalTurnsTheStreamOff) {
  const OutputClock clock(options("2019-09-04_12:00:00", 0, 0));
  EXPECT_FALSE(clock.enabled());
  EXPECT_TRUE(due_steps(clock, "2019-09-04_12:00:00", 60).empty());
}

TEST(OutputClock, BeforeTheStartNothingIsDue) {
  const OutputClock clock(options("2019-09-04_12:00:00", 3600, 0));
  EXPECT_FALSE(clock.due("2019-09-04_11:00:00"));
  EXPECT_TRUE(clock.due("2019-09-04_12:00:00"));
}

TEST(OutputClock, WithoutStartDateTheFirstDateAskedIsTheStart) {
  const OutputClock clock(options("", 1800, 600));
  EXPECT_THROW(clock.output_date(0), Error);
  EXPECT_FALSE(clock.due("2019-09-04_12:00:00"));  // becomes the start; begin is 10 minutes later
  EXPECT_TRUE(clock.due("2019-09-04_12:10:00"));
  EXPECT_TRUE(clock.due("2019-09-04_12:40:00"));
  EXPECT_EQ(clock.output_date(2), "2019-09-04_13:10:00");
}

TEST(OutputClock, BadInput) {
  EXPECT_THROW(OutputClock(options("2019-09-04_12:00:00", -60, 0)), Error);
  EXPECT_THROW(OutputClock(options("2019-09-04_12:00:00", 60, -1)), Error);
  const OutputClock clock(options("2019-09-04_12:00:00", 3600, 0));
  try {
    clock.due("2019-13-04_12:00:00");
    ADD_FAILURE() << "a malformed date was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::InvalidArgument);
  }
}

TEST(OutputClock, FromANamelist) {
  const Namelist nl = Namelist::parse(
      "&time_control\n start_year = 2019, start_month = 9, start_day = 4, start_hour = 12\n"
      " history_interval = 60\n history_begin_m = 30\n/\n",
      "t.nml");
  const OutputClock clock(output_options_from(nl, 1));
  EXPECT_FALSE(clock.due("2019-09-04_12:00:00"));
  EXPECT_TRUE(clock.due("2019-09-04_12:30:00"));
  EXPECT_FALSE(clock.due("2019-09-04_13:00:00"));
  EXPECT_TRUE(clock.due("2019-09-04_13:30:00"));
}

}  // namespace
}  // namespace nwpio::detail
