// The communicators of a run with I/O servers, made once at the split (collective over the
// world communicator):
//   compute   the compute ranks (world ranks 0 .. C-1): the model's communicator
//   servers   the servers of one group among themselves: their Writers' communicator
//   link[g]   the compute ranks and group g's servers, compute rank r = link rank r, server s of
//             the group = link rank C + s: controls, frame data and acks travel here
#pragma once

#include <mpi.h>

#include <vector>

#include "servers/server_roles.hpp"

namespace nwpio::detail {

struct ServerComms {
  ServerRoles roles;
  bool server = false;
  int group = -1;   // servers: their group
  int index = -1;   // servers: their index in the group
  MPI_Comm compute = MPI_COMM_NULL;
  MPI_Comm servers = MPI_COMM_NULL;
  std::vector<MPI_Comm> links;  // by group (a server holds only its own group's)

  int link_rank_of_server(int s) const noexcept { return roles.compute_ranks + s; }
  // Frees every communicator (local; never after MPI_Finalize).
  void release() noexcept;
};

// Collective over world. `roles` must have servers.
ServerComms make_server_comms(MPI_Comm world, const ServerRoles& roles);

}  // namespace nwpio::detail
