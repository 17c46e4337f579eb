#include "hints/node_map.hpp"

#include <algorithm>
#include <array>
#include <sstream>

#include "util/mpi_call.hpp"

namespace nwpio::detail::hints {

int NodeMap::node_of(int rank) const {
  for (std::size_t n = 0; n < nodes.size(); ++n) {
    if (std::binary_search(nodes[n].ranks.begin(), nodes[n].ranks.end(), rank)) return static_cast<int>(n);
  }
  return -1;
}

int NodeMap::writer_count() const {
  int count = 0;
  for (const auto& n : nodes) count += static_cast<int>(n.writers.size());
  return count;
}

NodeMap group_nodes(const std::vector<RankRecord>& ranks, int test_ranks_per_node) {
  NodeMap map;
  map.known = true;
  if (test_ranks_per_node > 0) {
    map.split = "test hook: nodes of ";
    map.split += std::to_string(test_ranks_per_node);
    map.split += " consecutive ranks";
  } else {
    map.split = "MPI_Get_processor_name";
  }
  // The test key where it is set, else the host name.
  std::map<std::pair<int, std::string>, std::size_t> index;
  for (std::size_t r = 0; r < ranks.size(); ++r) {
    const RankRecord& rec = ranks[r];
    auto key = rec.node_key >= 0 ? std::make_pair(rec.node_key, std::string()) : std::make_pair(-1, rec.host);
    auto [it, added] = index.emplace(std::move(key), map.nodes.size());
    if (added) map.nodes.push_back(NodeRanks{rec.host, {}, {}});
    NodeRanks& node = map.nodes[it->second];
    node.ranks.push_back(static_cast<int>(r));
    if (rec.writer) node.writers.push_back(static_cast<int>(r));
  }
  return map;
}

NodeMap gather_node_map(MPI_Comm comm, const NodePlacement& placement) {
  int rank = 0, size = 1;
  mpi_check(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  mpi_check(MPI_Comm_size(comm, &size), "MPI_Comm_size");
  char host[MPI_MAX_PROCESSOR_NAME] = {};
  int host_length = 0;
  mpi_check(MPI_Get_processor_name(host, &host_length), "MPI_Get_processor_name");
  const int k = placement.test_ranks_per_node;
  const std::array<int, 3> mine = {k > 0 ? rank / k * k : -1, placement.writer ? 1 : 0, host_length};
  std::vector<int> all(rank == 0 ? 3 * static_cast<std::size_t>(size) : 0);
  mpi_check(MPI_Gather(mine.data(), 3, MPI_INT, all.data(), 3, MPI_INT, 0, comm), "MPI_Gather(node map)");
  std::vector<int> lengths, offsets;
  std::string names;
  if (rank == 0) {
    for (int r = 0; r < size; ++r) {
      offsets.push_back(static_cast<int>(names.size()));
      lengths.push_back(all[3 * static_cast<std::size_t>(r) + 2]);
      names.resize(names.size() + static_cast<std::size_t>(lengths.back()));
    }
  }
  mpi_check(MPI_Gatherv(host, host_length, MPI_CHAR, names.data(), lengths.data(), offsets.data(), MPI_CHAR, 0, comm),
            "MPI_Gatherv(host names)");
  if (rank != 0) return {};
  std::vector<RankRecord> records(static_cast<std::size_t>(size));
  std::int64_t most = 0;
  for (std::size_t r = 0; r < records.size(); ++r) {
    records[r].node_key = all[3 * r];
    records[r].writer = all[3 * r + 1] != 0;
    records[r].host = names.substr(static_cast<std::size_t>(offsets[r]), static_cast<std::size_t>(lengths[r]));
    most = std::max<std::int64_t>(most, 3 * sizeof(int) + static_cast<std::size_t>(lengths[r]));
  }
  NodeMap map = group_nodes(records, k);
  map.bytes_per_rank = most;
  return map;
}

std::vector<int> parse_rank_list(const std::string& text) {
  std::vector<int> out;
  std::istringstream in(text);
  for (int r = 0; in >> r;) out.push_back(r);
  return out;
}

}  // namespace nwpio::detail::hints
