#include "servers/server_roles.hpp"

#include <cstdint>

#include "nwpio/error.hpp"

namespace nwpio::detail {

namespace {

std::string key_text(const std::string& where, const char* key, std::int64_t value) {
  return where + key + " = " + std::to_string(value);
}

}  // namespace

ServerRoles assign_server_roles(const QuiltSizes& q, int world_size) {
  const std::string tasks = key_text(q.where_tasks, "nio_tasks_per_group", q.tasks_per_group);
  const std::string groups = key_text(q.where_groups, "nio_groups", q.groups);
  if (q.tasks_per_group < 0) throw Error(ErrorKind::Config, tasks + ": expected an integer >= 0 (0: no I/O servers)");
  if (q.groups < 1) throw Error(ErrorKind::Config, groups + ": expected an integer >= 1");
  if (q.tasks_per_group == 0 && q.groups > 1) {
    throw Error(ErrorKind::Config, groups + " with nio_tasks_per_group = 0: groups of no I/O server make no sense "
                                            "(WRF hangs on this, WRF issue #1943); set nio_tasks_per_group > 0 or "
                                            "nio_groups = 1");
  }
  ServerRoles r;
  r.world_size = world_size;
  r.compute_ranks = world_size;
  if (q.tasks_per_group == 0) return r;
  const std::int64_t servers = std::int64_t{q.tasks_per_group} * q.groups;
  if (servers >= world_size) {
    throw Error(ErrorKind::Config,
                tasks + " x nio_groups = " + std::to_string(q.groups) + " asks for " + std::to_string(servers) +
                    " I/O server ranks, which leaves no compute rank among the " + std::to_string(world_size) +
                    " ranks of the run; start at least " + std::to_string(servers + 1) +
                    " ranks (compute + servers) or lower the server counts");
  }
  r.groups = q.groups;
  r.per_group = q.tasks_per_group;
  r.compute_ranks = world_size - static_cast<int>(servers);
  return r;
}

}  // namespace nwpio::detail
