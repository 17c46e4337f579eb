// WRF's &namelist_quilt: how many I/O server ranks a run has (nio_tasks_per_group per group,
// nio_groups groups). Read with WRF's defaults (0 tasks, 1 group); other keys of the group
// (poll_servers) are WRF's own and ignored.
#pragma once

#include <string>

#include "config/namelist_parser.hpp"

namespace nwpio::detail {

struct QuiltSizes {
  int tasks_per_group = 0;  // nio_tasks_per_group
  int groups = 1;           // nio_groups
  // "file:line:column: " of each key when read from a namelist (for messages), else empty.
  std::string where_tasks, where_groups;
};

// Pure. Throws Error(Config) with file:line:column for a value that is not an integer or does
// not fit 32 bits, and for a bad &nwpio group (unknown key, wrong type), which the servers'
// streams read too: a typo there fails at the split, on every rank, not at the first stream.
QuiltSizes quilt_sizes_from(const Namelist& nl);

}  // namespace nwpio::detail
