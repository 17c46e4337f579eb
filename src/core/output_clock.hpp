// Output timing of a stream: is a model date an output time (history_begin, history_interval
// after start_date)? Writer::output_due() calls it.
//
// A date is due when  date - start = history_begin + n * history_interval  for some n >= 0.
// history_interval 0 turns the stream off (enabled() is false, no date is due); -1 (the
// OutputOptions default, "not set") makes every date due. Without a start_date in the
// options, the first date asked about is taken as the start.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "nwpio/options.hpp"

namespace nwpio::detail {

inline constexpr std::int64_t kIntervalNotSet = -1;

class OutputClock {
 public:
  // Throws Error(InvalidArgument) for a negative interval (other than kIntervalNotSet) or
  // begin, or a malformed start_date.
  explicit OutputClock(const OutputOptions& options);
  bool enabled() const noexcept;              // false when history_interval is 0
  bool due(std::string_view date) const;      // throws Error(InvalidArgument) for a malformed date

  // n of a due date (0 for the first output time), empty when the date is not due.
  std::optional<std::int64_t> output_number(std::string_view date) const;
  // The date of output n (n >= 0). Throws Error(State) before the start is known.
  std::string output_date(std::int64_t n) const;

 private:
  mutable std::int64_t start_ = 0;
  std::int64_t interval_ = 0, begin_ = 0;
  mutable bool has_start_ = false;
};

}  // namespace nwpio::detail
