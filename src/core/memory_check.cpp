// memory_check.hpp.
#include "core/memory_check.hpp"

#include <new>
#include <optional>

#include "nwpio/error.hpp"
#include "util/agree.hpp"
#include "util/memory_room.hpp"
#include "util/mpi_call.hpp"

namespace nwpio::detail {

namespace {

std::string mib(std::int64_t bytes) { return std::to_string((bytes + (1 << 20) - 1) >> 20) + " MiB"; }

std::string host_name() {
  char host[MPI_MAX_PROCESSOR_NAME] = {};
  int length = 0;
  if (MPI_Get_processor_name(host, &length) != MPI_SUCCESS) return "this node";
  return std::string(host, static_cast<std::size_t>(length));
}

}  // namespace

void check_memory_fits(MPI_Comm comm, std::int64_t rank_bytes, const std::string& what, const std::string& remedy) {
  MPI_Comm node = MPI_COMM_NULL;
  mpi_check(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node), "MPI_Comm_split_type(node)");
  std::int64_t node_bytes = 0;
  int node_ranks = 0;
  const int rc = MPI_Allreduce(&rank_bytes, &node_bytes, 1, MPI_INT64_T, MPI_SUM, node);
  MPI_Comm_size(node, &node_ranks);
  MPI_Comm_free(&node);
  mpi_check(rc, "MPI_Allreduce(memory of the node)");
  std::optional<Error> local;
  const MemoryRoom room = memory_room();
  if (room.available >= 0 && node_bytes > room.available) {
    local = Error(ErrorKind::Config, "not enough memory on " + host_name() + " for " + what + ": its " +
                                         std::to_string(node_ranks) + " rank(s) there need " + mib(node_bytes) +
                                         " more (this rank " + mib(rank_bytes) + "), but the job may take only " +
                                         mib(room.available) + " more there: limit " + mib(room.limit) + ", " +
                                         mib(room.used) + " in use (" + room.source + "). " + remedy);
  }
  agree(comm, local);
}

void throw_out_of_memory(std::int64_t bytes, const std::string& what) {
  const MemoryRoom room = memory_room();
  std::string context;
  if (room.available >= 0) {
    context = "; the job may take " + mib(room.available) + " more on this node (limit " + mib(room.limit) + ", " +
              room.source + ")";
  }
  throw Error(ErrorKind::Config, "out of memory: cannot allocate " + mib(bytes) + " for " + what + context);
}

std::unique_ptr<std::byte[]> allocate_bytes(std::int64_t bytes, const std::string& what) {
  try {
    return std::make_unique_for_overwrite<std::byte[]>(static_cast<std::size_t>(bytes));
  } catch (const std::bad_alloc&) {
    throw_out_of_memory(bytes, what);
  }
}

}  // namespace nwpio::detail
