// IoServers: output the model does not wait for. A collective call at start turns the LAST
// nio_groups x nio_tasks_per_group ranks of the world communicator into I/O servers (WRF's
// &namelist_quilt and its convention) and gives the others the compute communicator. Streams
// built on it (StreamBuilder with `servers`) hand each frame to the servers at end_frame and
// return while the servers write it, through the same backends, into the same files.
//
//   nwpio::IoServers servers(MPI_COMM_WORLD, "namelist.input");  // servers serve in here
//   if (servers.is_server()) { MPI_Finalize(); return 0; }         // ... until stop()
//   MPI_Comm comm = servers.compute_comm();                         // the model's world
//   nwpio::StreamBuilder b(comm, nwpio::OutputOptions::from_namelist("namelist.input", 1, comm), servers);
//   ... b.build(), frames, close() ...
//   servers.stop();                                                 // collective, compute ranks
//
// With nio_tasks_per_group = 0 (or no &namelist_quilt) there are no servers: compute_comm()
// is the world communicator and streams write as they always do. See docs/IO_SERVERS.md.
#pragma once

#include <mpi.h>

#include <memory>
#include <string>

namespace nwpio {

namespace detail {
class ServerLink;
struct TestHooks;  // nwpio's own tests only
}

class IoServers {
 public:
  // Collective over world. Reads &namelist_quilt (nio_tasks_per_group, nio_groups; WRF's
  // defaults 0 and 1) from namelist_path on rank 0 and checks &nwpio. Throws the same
  // Error(Config) on every rank, with file:line:column, for sizes that make no sense: negative
  // counts, nio_groups > 1 without nio_tasks_per_group, or more servers than ranks (no compute
  // rank left). On a server rank it runs the service loop and returns only when the compute
  // ranks called stop() (every stream closed), so that the program can finalize.
  // `server_test_hooks` (tests only): hooks every stream on this rank's servers gets.
  IoServers(MPI_Comm world, const std::string& namelist_path,
            std::shared_ptr<detail::TestHooks> server_test_hooks = nullptr);
  // The same with the sizes given in code.
  IoServers(MPI_Comm world, int nio_tasks_per_group, int nio_groups,
            std::shared_ptr<detail::TestHooks> server_test_hooks = nullptr);
  // Compute ranks: stops the servers if stop() was not called (never throws).
  ~IoServers();
  IoServers(IoServers&&) noexcept;
  IoServers& operator=(IoServers&&) noexcept;
  IoServers(const IoServers&) = delete;
  IoServers& operator=(const IoServers&) = delete;

  bool enabled() const noexcept { return groups_ > 0; }  // the run has servers
  bool is_server() const noexcept { return server_; }     // this rank served (and is done)
  bool running() const noexcept;                          // compute ranks: servers not stopped yet
  // The model's communicator: the compute ranks; the world itself without servers;
  // MPI_COMM_NULL on servers. Valid until MPI_Finalize.
  MPI_Comm compute_comm() const noexcept { return compute_; }
  int compute_ranks() const noexcept { return compute_ranks_; }
  int groups() const noexcept { return groups_; }
  int servers_per_group() const noexcept { return per_group_; }

  // Collective over the compute ranks: every stream built on the servers must be closed
  // (else Error(State) on every rank). The servers leave their loop. A second call does nothing.
  void stop();

  // For StreamBuilder: the compute ranks' end of the servers (null without servers).
  const std::shared_ptr<detail::ServerLink>& link() const noexcept { return link_; }

 private:
  void start(MPI_Comm world, int tasks, int groups, const std::string& where_tasks, const std::string& where_groups,
             std::shared_ptr<detail::TestHooks> hooks);

  std::shared_ptr<detail::ServerLink> link_;
  MPI_Comm compute_ = MPI_COMM_NULL;
  bool server_ = false;
  int compute_ranks_ = 0, groups_ = 0, per_group_ = 0;
};

}  // namespace nwpio
