// NodeSlabs: the writers' slabs in MPI-3 shared memory, one window per node, so that a rank on
// the same node as a writer packs its pieces straight into that writer's slab: no send
// buffer, no message, no unpack pass (what PnetCDF's and ROMIO's intra-node aggregation aim
// at). Pieces for writers on other nodes still travel as messages (Rearranger).
//
// With `shared` false every rank is a node of its own: only its own slab is reachable, which is
// exactly the multi-node case, so one code path serves both (and tests can force it).
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/buffer_in_use.hpp"

namespace nwpio::detail {

class NodeSlabs {
 public:
  struct Options {
    // false: every rank is a node of its own (every piece travels as a message).
    bool shared = true;
    // Where the MPI keeps shared windows (Open MPI: a sparse file there), for the room check;
    // resolved with the configuration (empty: /dev/shm).
    std::string shared_memory_dir;
    // Tests only: group the ranks into "nodes" of k consecutive ranks instead of asking MPI
    // which share memory (0 = ask MPI), so that one machine runs the mixed case of several
    // nodes. The ranks of such a group really share memory, so the window works as on a node.
    int ranks_per_node = 0;
  };
  // Collective over comm.
  NodeSlabs(MPI_Comm comm, const Options& options);
  // Frees the window and the node communicator (collective over the node) unless abandoned or
  // MPI is finalized.
  ~NodeSlabs();
  NodeSlabs(const NodeSlabs&) = delete;
  NodeSlabs& operator=(const NodeSlabs&) = delete;

  // Node of any rank of comm (the comm rank of the node's first rank).
  int node_of(int rank) const noexcept { return node_of_[static_cast<std::size_t>(rank)]; }
  bool same_node(int rank) const noexcept { return node_of(rank) == node_of(rank_); }
  int nodes() const noexcept { return nodes_; }

  // Collective over comm: this rank's slab holds at least `bytes` afterwards. The windows are
  // reallocated (on every node, together) only when some rank needs more than it has, after
  // every background write from them finished.
  void reserve(std::int64_t bytes);
  // The slab of `rank` when it lies on this node (this rank's own included), else nullptr.
  std::byte* slab(int rank) const noexcept { return peer_[static_cast<std::size_t>(rank)]; }
  std::int64_t capacity() const noexcept { return capacity_; }

  // Collective over the node: every write into any slab of this node before the call is
  // visible to every rank of the node after it (MPI_Win_sync, barrier, MPI_Win_sync). This
  // rank's own slab is free first: a background write of it (write-behind) is waited for, so
  // no rank of the node packs into a slab that is still on its way to a file.
  void sync();

  // This rank's slab while a background writer reads it (write-behind); sync() and reserve()
  // wait for it.
  BufferInUse& own_slab_in_use() noexcept { return in_use_; }

  // Local: forget the window without freeing it (other ranks may not join a collective any more).
  void abandon() noexcept { abandoned_ = true; }

 private:
  void release() noexcept;
  // Collective over comm: the node's slabs of `size` bytes each fit into /dev/shm, else every
  // rank throws Error(Io).
  void check_room(std::int64_t size);
  // Local: allocates the pages of this rank's segment at once (see node_slabs.cpp).
  static void populate(std::byte* segment, std::int64_t bytes) noexcept;

  MPI_Comm comm_ = MPI_COMM_NULL;
  MPI_Comm node_ = MPI_COMM_NULL;
  MPI_Win win_ = MPI_WIN_NULL;
  int rank_ = 0, size_ = 1, node_size_ = 1, nodes_ = 1;
  std::vector<int> node_of_;     // by comm rank
  std::vector<int> node_rank_;   // by comm rank: its rank in its node communicator
  std::vector<std::byte*> peer_; // by comm rank: its slab if on this node
  std::int64_t capacity_ = 0;
  std::string shm_dir_;
  BufferInUse in_use_;
  bool abandoned_ = false;
};

}  // namespace nwpio::detail
