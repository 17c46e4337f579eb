// The MPI-IO settings a run's file would get, from the hint layer itself (src/config:
// merge_levels: built-in < profile < namelist < environment; derive: stripe count by the
// expected file size, aggregators = stripe count, ...), for the plan to print and to size with.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "hints/hints_merge.hpp"
#include "plan_inputs.hpp"

namespace nwpio::check {

struct HintView {
  std::map<std::string, detail::hints::Setting> settings;  // every logical setting, derived
  std::vector<std::string> warnings;
  int stripe_count = 0;             // 0: the directory's (not set)
  std::int64_t stripe_size = 0;     // 0: not set
  int aggregators = 0;              // 0: MPI-IO's default
  std::int64_t cb_buffer_size = 0;  // 0: MPI-IO's default
  bool collective_write = false;    // the slabs go through MPI-IO's two-phase collective buffering
};

// `contiguous_writers`: the frame is rearranged into contiguous slabs per writer (what the
// Writer passes the hint layer for its default gathering); `nodes`: the run's nodes (over which
// aggregators_per_node spreads the aggregators).
HintView plan_hints(const DomainInputs& d, std::int64_t expected_file_bytes, bool contiguous_writers, int nodes);

}  // namespace nwpio::check
