// Memory the history stream is about to take, compared with what the job may still take on each
// node (util/memory_room.hpp), when a stream is built: a run that cannot fit is refused with the
// numbers on every rank, instead of being killed by the kernel (no message) or failing at its
// first frame. And the allocations that can still fail say what they were for.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <memory>
#include <string>

namespace nwpio::detail {

// Collective over comm: every rank passes the bytes it is about to allocate for `what`; the ranks
// of each node together must fit in that node's room. Throws the same Error(Config) on every
// rank when some node's do not, naming the node, the need, the limit and where it comes from,
// then `remedy` (what the user can change).
void check_memory_fits(MPI_Comm comm, std::int64_t rank_bytes, const std::string& what, const std::string& remedy);

// The Error for a failed allocation (std::bad_alloc) of `bytes` for `what`.
[[noreturn]] void throw_out_of_memory(std::int64_t bytes, const std::string& what);

// new std::byte[bytes] (uninitialised), or throw_out_of_memory.
std::unique_ptr<std::byte[]> allocate_bytes(std::int64_t bytes, const std::string& what);

}  // namespace nwpio::detail
