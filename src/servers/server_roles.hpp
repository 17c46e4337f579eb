// Which ranks of the world communicator become I/O servers, as WRF's quilting decides it
// (frame/module_io_quilt_old.F, setup_quilt_servers): the LAST nio_groups x nio_tasks_per_group
// ranks are servers, group g holding ranks C + g * n .. C + (g + 1) * n - 1 (C compute ranks,
// n = nio_tasks_per_group); the first C ranks compute. Pure arithmetic, unit-tested.
//
// Unlike WRF, sizes that make no sense are errors instead of a warning ("Not enough tasks ...
// No quilting.") or a silent hang (nio_groups > 1 without tasks, WRF issue #1943).
#pragma once

#include <string>

#include "config/quilt_settings.hpp"

namespace nwpio::detail {

struct ServerRoles {
  int world_size = 1;
  int compute_ranks = 1;   // ranks 0 .. compute_ranks - 1
  int groups = 0;          // 0: no servers
  int per_group = 0;
  int servers() const noexcept { return groups * per_group; }
  bool is_server(int world_rank) const noexcept { return world_rank >= compute_ranks; }
  // For a server: its group and its index inside the group.
  int group_of(int world_rank) const noexcept { return (world_rank - compute_ranks) / per_group; }
  int index_in_group(int world_rank) const noexcept { return (world_rank - compute_ranks) % per_group; }
  // World rank of server `index` of group `group`.
  int server_rank(int group, int index) const noexcept { return compute_ranks + group * per_group + index; }
};

// Throws Error(Config) naming the keys (with file:line:column when known) and the numbers for:
// negative nio_tasks_per_group, nio_groups < 1, nio_groups > 1 with nio_tasks_per_group = 0,
// and servers that leave no compute rank (or overflow).
ServerRoles assign_server_roles(const QuiltSizes& sizes, int world_size);

}  // namespace nwpio::detail
