// IoServers: the split at start (roles from &namelist_quilt, communicators), the service loop
// on the servers, the compute ranks' link for the streams.
#include "nwpio/io_servers.hpp"

#include <cstdio>
#include <utility>

#include "config/namelist_file.hpp"
#include "config/quilt_settings.hpp"
#include "servers/server_link.hpp"
#include "servers/service_loop.hpp"
#include "util/agree.hpp"
#include "util/mpi_call.hpp"

namespace nwpio {

IoServers::IoServers(MPI_Comm world, const std::string& namelist_path, std::shared_ptr<detail::TestHooks> hooks) {
  const detail::Namelist nl = detail::load_namelist(namelist_path, world);
  detail::QuiltSizes q;
  detail::run_and_agree(world, [&] { q = detail::quilt_sizes_from(nl); });
  start(world, q.tasks_per_group, q.groups, q.where_tasks, q.where_groups, std::move(hooks));
}

IoServers::IoServers(MPI_Comm world, int tasks, int groups, std::shared_ptr<detail::TestHooks> hooks) {
  start(world, tasks, groups, {}, {}, std::move(hooks));
}

void IoServers::start(MPI_Comm world, int tasks, int groups, const std::string& where_tasks,
                      const std::string& where_groups, std::shared_ptr<detail::TestHooks> hooks) {
  int rank = 0, size = 1;
  detail::mpi_check(MPI_Comm_rank(world, &rank), "MPI_Comm_rank");
  detail::mpi_check(MPI_Comm_size(world, &size), "MPI_Comm_size");
  detail::ServerRoles roles;
  detail::run_and_agree(world, [&] {
    roles = detail::assign_server_roles(detail::QuiltSizes{tasks, groups, where_tasks, where_groups}, size);
  });
  compute_ranks_ = roles.compute_ranks;
  groups_ = roles.groups;
  per_group_ = roles.per_group;
  if (roles.groups == 0) {
    compute_ = world;
    return;
  }
  detail::ServerComms comms = detail::make_server_comms(world, roles);
  if (comms.server) {
    server_ = true;
    {
      detail::ServiceLoop loop(comms, std::move(hooks));
      loop.run();
    }
    comms.release();
    return;
  }
  if (rank == 0) {
    std::printf("nwpio: quilting with %d group%s of %d I/O server rank%s (%d compute rank%s)\n", groups_,
                groups_ == 1 ? "" : "s", per_group_, per_group_ == 1 ? "" : "s", compute_ranks_,
                compute_ranks_ == 1 ? "" : "s");
    std::fflush(stdout);
  }
  link_ = std::make_shared<detail::ServerLink>(std::move(comms));
  compute_ = link_->compute_comm();
}

IoServers::~IoServers() {
  if (!link_ || link_->stopped()) return;
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized) return;
  // Not collective here (the destructor may run on some ranks only, e.g. while an exception
  // unwinds): rank 0 stops the servers, the other ranks do not wait for them.
  try {
    link_->stop(false);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "nwpio: stopping the I/O servers failed: %s\n", e.what());
  }
}

IoServers::IoServers(IoServers&& o) noexcept
    : link_(std::move(o.link_)),
      compute_(o.compute_),
      server_(o.server_),
      compute_ranks_(o.compute_ranks_),
      groups_(o.groups_),
      per_group_(o.per_group_) {
  o.compute_ = MPI_COMM_NULL;
}

IoServers& IoServers::operator=(IoServers&& o) noexcept {
  if (this != &o) {
    IoServers previous(std::move(*this));  // stops this object's servers, if any, on return
    link_ = std::move(o.link_);
    compute_ = std::exchange(o.compute_, MPI_COMM_NULL);
    server_ = o.server_;
    compute_ranks_ = o.compute_ranks_;
    groups_ = o.groups_;
    per_group_ = o.per_group_;
  }
  return *this;
}

bool IoServers::running() const noexcept { return link_ && !link_->stopped(); }

void IoServers::stop() {
  if (!link_ || link_->stopped()) return;
  detail::run_and_agree(compute_, [&] {
    if (link_->attached() > 0) {
      throw Error(ErrorKind::State, "stop(): " + std::to_string(link_->attached()) +
                                        " stream(s) on the I/O servers are still open; close them first");
    }
  });
  link_->stop();
}

}  // namespace nwpio
