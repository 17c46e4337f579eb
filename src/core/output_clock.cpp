#include "core/output_clock.hpp"

#include "nwpio/error.hpp"
#include "nwpio/wrf_date.hpp"

namespace nwpio::detail {

OutputClock::OutputClock(const OutputOptions& options)
    : interval_(options.history_interval_seconds), begin_(options.history_begin_seconds) {
  if (interval_ < 0 && interval_ != kIntervalNotSet) {
    throw Error(ErrorKind::InvalidArgument,
                "history interval must be >= 0 seconds (0 turns the stream off), got " + std::to_string(interval_));
  }
  if (begin_ < 0) {
    throw Error(ErrorKind::InvalidArgument, "history begin must be >= 0 seconds, got " + std::to_string(begin_));
  }
  if (!options.start_date.empty()) {
    start_ = wrf::date_to_seconds(options.start_date);
    has_start_ = true;
  }
}

bool OutputClock::enabled() const noexcept { return interval_ != 0; }

std::optional<std::int64_t> OutputClock::output_number(std::string_view date) const {
  const std::int64_t t = wrf::date_to_seconds(date);  // validates the date even when off
  if (!enabled()) return std::nullopt;
  if (interval_ == kIntervalNotSet) return 0;  // no interval given: every date is an output time
  if (!has_start_) {
    start_ = t;
    has_start_ = true;
  }
  const std::int64_t since_begin = t - start_ - begin_;
  if (since_begin < 0 || since_begin % interval_ != 0) return std::nullopt;
  return since_begin / interval_;
}

bool OutputClock::due(std::string_view date) const { return output_number(date).has_value(); }

std::string OutputClock::output_date(std::int64_t n) const {
  if (!has_start_) throw Error(ErrorKind::State, "output times are unknown before the start date is known");
  if (interval_ == kIntervalNotSet) throw Error(ErrorKind::State, "output times are unknown: no history interval set");
  if (n < 0) throw Error(ErrorKind::InvalidArgument, "output number must be >= 0, got " + std::to_string(n));
  return wrf::seconds_to_date(start_ + begin_ + n * interval_);
}

}  // namespace nwpio::detail
