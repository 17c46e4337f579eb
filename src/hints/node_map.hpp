// Which ranks of a file's communicator share a node, and which of them are nwpio's writers: for
// the hint report (per node: its name, its ranks, its writers, and the MPI-IO aggregators the
// layer reports) and for the hints that spread aggregators over the nodes
// (aggregators_per_node).
//
// Gathered once per file, at its open, on rank 0: every rank sends 12 bytes (its node key, its
// writer flag, the length of its host name) and its host name (MPI_Get_processor_name), nothing
// per frame. Ranks with the same host name share a node, unless the test hook groups them into
// "nodes" of k consecutive ranks (core/test_hooks.hpp), as the writers' slabs do.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace nwpio::detail::hints {

// This rank's part: whether it is one of nwpio's writers, and the test hook's node size.
struct NodePlacement {
  bool writer = false;
  int test_ranks_per_node = 0;  // > 0: nodes of that many consecutive ranks (tests only)
};

// What each rank sent (pure input of group_nodes, so the grouping is tested without MPI).
struct RankRecord {
  int node_key = -1;  // >= 0: the test hook's node (first rank of the group); -1: by host name
  bool writer = false;
  std::string host;   // MPI_Get_processor_name
};

struct NodeRanks {
  std::string name;         // the host name of the node's first rank
  std::vector<int> ranks;   // ascending
  std::vector<int> writers; // nwpio's writer ranks on it, ascending
};

struct NodeMap {
  bool known = false;             // rank 0 after gather_node_map
  std::vector<NodeRanks> nodes;   // in the order of their first ranks
  std::string split;              // how ranks were grouped
  std::int64_t bytes_per_rank = 0;  // the most one rank sent (12 + its host name)
  int node_of(int rank) const;    // index into nodes, -1 when unknown
  int writer_count() const;
};

// Groups ranks (index = rank) into nodes: by the test key where it is set, else by host name.
NodeMap group_nodes(const std::vector<RankRecord>& ranks, int test_ranks_per_node);

// Collective over comm: rank 0 gets the map, the other ranks an empty one.
NodeMap gather_node_map(MPI_Comm comm, const NodePlacement& placement);

// ROMIO's romio_aggregator_list ("0 4 8 ", the ranks of cb_nodes aggregators in order), as
// ranks; empty when the text holds none.
std::vector<int> parse_rank_list(const std::string& text);

}  // namespace nwpio::detail::hints
