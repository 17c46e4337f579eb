// What nwpio takes from a parsed namelist.input: the history stream's OutputOptions for one
// domain. Pure functions of a Namelist (no MPI), so they are unit-tested directly; the public
// collective functions read, broadcast and call these. The readers of single &time_control and
// &domains values are shared with the model settings of libnwpio_model (model/), which read
// the same namelist by the same rules.
#pragma once

#include <cstdint>

#include <string>

#include "config/namelist_parser.hpp"
#include "config/namelist_values.hpp"
#include "nwpio/options.hpp"

namespace nwpio::detail {

// WRF's rule (share/set_timekeeping.F): minutes = history_interval_m if nonzero, else
// history_interval; interval = days*86400 + hours*3600 + minutes*60 + seconds.
// history_begin likewise (history_begin_m over history_begin). Exposed for the tests.
struct HistoryTiming {
  std::int64_t interval_seconds = 0;
  std::int64_t begin_seconds = 0;
};
HistoryTiming history_timing_from(const Namelist& nl, int domain_id);

OutputOptions output_options_from(const Namelist& nl, int domain_id);

// max_dom (>= 1) after checking that domain_id names one of its domains: Error(InvalidArgument)
// for an id < 1, Error(Config) at max_dom for one above it.
int checked_max_dom(const NamelistReader& r, int domain_id);
// A duration part in seconds: `key` (>= 0, default 0) times `unit` seconds, at most 10000
// years; Error(Config) at the value otherwise.
std::int64_t duration_part(const NamelistReader& r, const char* group, const char* key, Columns c, std::int64_t unit);
// `v` as an int, or Error(Config) at the key's value when it does not fit 32 bits.
int int_value(const NamelistReader& r, const char* group, const std::string& key, Columns c, std::int64_t v);
// WRF's date of `prefix` ("start", "end") for the reader's domain from &time_control's
// <prefix>_year .. _second (year, month, day required); Error(Config) for a missing part or a
// date that names no real time.
std::string wrf_date_of(const NamelistReader& r, const std::string& prefix);

}  // namespace nwpio::detail
