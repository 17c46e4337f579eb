// Output timing of a stream: is a model date an output time (history_begin, history_interval
// after start_date)? Owned by the namelist work (issue 3); Writer::output_due() calls it.
#pragma once

#include <cstdint>
#include <string_view>

#include "nwpio/options.hpp"

namespace nwpio::detail {

class OutputClock {
 public:
  explicit OutputClock(const OutputOptions& options);
  bool enabled() const noexcept;              // false when history_interval is 0
  bool due(std::string_view date) const;      // throws Error(InvalidArgument) for a malformed date

 private:
  std::int64_t start_ = 0, interval_ = 0, begin_ = 0;
  bool has_start_ = false;
};

}  // namespace nwpio::detail
