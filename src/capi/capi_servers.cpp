// C API (L4): I/O servers, a thin translation onto IoServers. The process's one IoServers lives
// here (L4 is the only layer with global state); nwpio_open hands it to the streams opened on
// its compute communicator.
#include "capi/capi_servers.hpp"

#include <memory>

#include "capi/capi_error.hpp"
#include "nwpio/nwpio.h"

namespace nwpio::capi {

namespace {

std::unique_ptr<IoServers>& running() {
  static std::unique_ptr<IoServers> servers;
  return servers;
}

int start(MPI_Comm world, const char* namelist_file, int* is_server, MPI_Comm* compute_comm) {
  if (is_server != nullptr) *is_server = 0;
  if (compute_comm != nullptr) *compute_comm = MPI_COMM_NULL;
  return guard("nwpio_servers_start", [&] {
    if (is_server == nullptr || compute_comm == nullptr) {
      throw Error(ErrorKind::InvalidArgument, "is_server or compute_comm is NULL");
    }
    if (namelist_file == nullptr) throw Error(ErrorKind::InvalidArgument, "namelist file name is NULL");
    if (world == MPI_COMM_NULL) throw Error(ErrorKind::InvalidArgument, "communicator is MPI_COMM_NULL");
    std::unique_ptr<IoServers>& current = running();
    if (current && current->running()) {
      throw Error(ErrorKind::State, "nwpio_servers_start: I/O servers are running already (nwpio_servers_stop first)");
    }
    auto servers = std::make_unique<IoServers>(world, namelist_file);
    *is_server = servers->is_server() ? 1 : 0;
    *compute_comm = servers->compute_comm();
    current = std::move(servers);
  });
}

}  // namespace

const IoServers* servers_for(MPI_Comm comm) {
  const std::unique_ptr<IoServers>& s = running();
  if (!s || !s->running() || comm == MPI_COMM_NULL) return nullptr;
  int same = MPI_UNEQUAL;
  if (MPI_Comm_compare(comm, s->compute_comm(), &same) != MPI_SUCCESS) return nullptr;
  return same == MPI_IDENT || same == MPI_CONGRUENT ? s.get() : nullptr;
}

}  // namespace nwpio::capi

extern "C" {

int nwpio_servers_start(MPI_Comm world, const char* namelist_file, int* is_server, MPI_Comm* compute_comm) {
  return nwpio::capi::start(world, namelist_file, is_server, compute_comm);
}

int nwpio_servers_start_f(MPI_Fint world, const char* namelist_file, int* is_server, MPI_Fint* compute_comm) {
  MPI_Comm c = MPI_COMM_NULL;
  const int rc = nwpio::capi::start(MPI_Comm_f2c(world), namelist_file, is_server, &c);
  if (compute_comm != nullptr) *compute_comm = MPI_Comm_c2f(c);
  return rc;
}

int nwpio_servers_stop(void) {
  return nwpio::capi::guard("nwpio_servers_stop", [&] {
    std::unique_ptr<nwpio::IoServers>& s = nwpio::capi::running();
    if (s) s->stop();  // the compute communicator stays valid until MPI_Finalize
  });
}

}  // extern "C"
