#include "servers/server_comms.hpp"

#include "util/mpi_call.hpp"

namespace nwpio::detail {

void ServerComms::release() noexcept {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized) return;
  for (MPI_Comm* c : {&compute, &servers}) {
    if (*c != MPI_COMM_NULL) MPI_Comm_free(c);
  }
  for (MPI_Comm& c : links) {
    if (c != MPI_COMM_NULL) MPI_Comm_free(&c);
  }
  links.clear();
}

ServerComms make_server_comms(MPI_Comm world, const ServerRoles& roles) {
  ServerComms c;
  c.roles = roles;
  int rank = 0;
  mpi_check(MPI_Comm_rank(world, &rank), "MPI_Comm_rank");
  c.server = roles.is_server(rank);
  if (c.server) {
    c.group = roles.group_of(rank);
    c.index = roles.index_in_group(rank);
  }
  // One split: the compute ranks (color 0) and each group's servers (color 1 + group).
  MPI_Comm part = MPI_COMM_NULL;
  mpi_check(MPI_Comm_split(world, c.server ? 1 + c.group : 0, rank, &part), "MPI_Comm_split(I/O servers)");
  (c.server ? c.servers : c.compute) = part;

  MPI_Group world_group = MPI_GROUP_NULL;
  mpi_check(MPI_Comm_group(world, &world_group), "MPI_Comm_group");
  c.links.assign(static_cast<std::size_t>(roles.groups), MPI_COMM_NULL);
  for (int g = 0; g < roles.groups; ++g) {
    int ranges[2][3] = {{0, roles.compute_ranks - 1, 1},
                        {roles.server_rank(g, 0), roles.server_rank(g, roles.per_group - 1), 1}};
    MPI_Group link_group = MPI_GROUP_NULL;
    mpi_check(MPI_Group_range_incl(world_group, 2, ranges, &link_group), "MPI_Group_range_incl");
    MPI_Comm link = MPI_COMM_NULL;
    mpi_check(MPI_Comm_create(world, link_group, &link), "MPI_Comm_create(I/O server link)");
    MPI_Group_free(&link_group);
    c.links[static_cast<std::size_t>(g)] = link;  // MPI_COMM_NULL on the other groups' servers
  }
  MPI_Group_free(&world_group);
  return c;
}

}  // namespace nwpio::detail
