// STUB until the namelist work (issue 3) lands: every date is due when the stream is on.
#include "core/output_clock.hpp"

namespace nwpio::detail {

OutputClock::OutputClock(const OutputOptions& options)
    : interval_(options.history_interval_seconds), begin_(options.history_begin_seconds) {}
bool OutputClock::enabled() const noexcept { return true; }
bool OutputClock::due(std::string_view) const { return true; }

}  // namespace nwpio::detail
