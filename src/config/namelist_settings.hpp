// What nwpio takes from a parsed namelist.input: the history stream's OutputOptions and the
// model's ModelSettings for one domain. Pure functions of a Namelist (no MPI), so they are
// unit-tested directly; the public collective functions read, broadcast and call these.
#pragma once

#include <cstdint>

#include "config/namelist_parser.hpp"
#include "nwpio/namelist.hpp"
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
ModelSettings model_settings_from(const Namelist& nl, int domain_id);

}  // namespace nwpio::detail
