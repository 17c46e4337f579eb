// The hint report's per-node part (src/hints/node_map.hpp, hints_report_nodes.hpp) from made-up
// ranks: grouping by host name or by the test hook, writers per node, and the aggregators as
// each MPI reports them (MPICH's ROMIO names its aggregator ranks; Open MPI echoes the keys).
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "hints/hints_report_nodes.hpp"
#include "hints/node_map.hpp"

using namespace nwpio::detail;
using namespace nwpio::detail::hints;
using nlohmann::json;

namespace {

// Ranks on hosts given by name, writers every `writer_every` ranks (rank % writer_every == 0).
std::vector<RankRecord> ranks_on(const std::vector<std::string>& hosts, int writer_every) {
  std::vector<RankRecord> out;
  for (std::size_t r = 0; r < hosts.size(); ++r) {
    out.push_back({-1, static_cast<int>(r) % writer_every == 0, hosts[r]});
  }
  return out;
}

MpiIo mpi(const std::string& vendor, IoLayer layer) {
  MpiIo io;
  io.vendor = vendor;
  io.layer = layer;
  return io;
}

}  // namespace

TEST(NodeMap, GroupsByHostNameInOrderOfFirstRanks) {
  // Block and round-robin placements, as Slurm's two distributions give them.
  const std::vector<std::string> hosts = {"n1", "n1", "n2", "n2", "n3", "n1", "n3"};
  const NodeMap map = group_nodes(ranks_on(hosts, 2), 0);
  ASSERT_TRUE(map.known);
  std::map<std::string, std::vector<int>> want_ranks, want_writers;
  std::vector<std::string> order;
  for (std::size_t r = 0; r < hosts.size(); ++r) {
    if (!want_ranks.count(hosts[r])) order.push_back(hosts[r]);
    want_ranks[hosts[r]].push_back(static_cast<int>(r));
    if (r % 2 == 0) want_writers[hosts[r]].push_back(static_cast<int>(r));
  }
  ASSERT_EQ(map.nodes.size(), order.size());
  for (std::size_t n = 0; n < order.size(); ++n) {
    EXPECT_EQ(map.nodes[n].name, order[n]);
    EXPECT_EQ(map.nodes[n].ranks, want_ranks[order[n]]);
    EXPECT_EQ(map.nodes[n].writers, want_writers[order[n]]);
  }
  for (std::size_t r = 0; r < hosts.size(); ++r) {
    EXPECT_EQ(map.nodes[static_cast<std::size_t>(map.node_of(static_cast<int>(r)))].name, hosts[r]);
  }
  EXPECT_EQ(map.writer_count(), static_cast<int>((hosts.size() + 1) / 2));
}

TEST(NodeMap, TheTestHookSplitsOneHostIntoNodes) {
  std::vector<RankRecord> ranks;
  const int k = 2;
  for (int r = 0; r < 5; ++r) ranks.push_back({r / k * k, r == 1 || r == 4, "host"});
  const NodeMap map = group_nodes(ranks, k);
  ASSERT_EQ(map.nodes.size(), 3u);
  for (int r = 0; r < 5; ++r) EXPECT_EQ(map.node_of(r), r / k);
  EXPECT_NE(map.split.find(std::to_string(k)), std::string::npos) << map.split;
}

TEST(NodeReport, SummaryCountsWritersPerNode) {
  const NodeMap even = group_nodes(ranks_on({"a", "a", "b", "b"}, 2), 0);  // writers 0, 2
  json j;
  add_nodes_json(j, even, {}, mpi("Open MPI", IoLayer::Ompio), true);
  EXPECT_EQ(nodes_summary(j), "2 writers on 2 nodes (1 per node)");
  const NodeMap uneven = group_nodes(ranks_on({"a", "a", "a", "b", "c"}, 1), 0);  // every rank writes
  json u;
  add_nodes_json(u, uneven, {}, mpi("Open MPI", IoLayer::Ompio), true);
  EXPECT_EQ(nodes_summary(u), "5 writers on 3 nodes (1-3 per node)");
  const NodeMap some = group_nodes(ranks_on({"a", "b", "c"}, 3), 0);  // writer 0 only
  json s;
  add_nodes_json(s, some, {}, mpi("Open MPI", IoLayer::Ompio), true);
  EXPECT_EQ(nodes_summary(s), "1 writer on 1 of 3 nodes (1 per node)");
  EXPECT_EQ(nodes_summary(json::object()), "");
  // A file opened outside a stream (a tool) has no writers: no clause rather than "0 writers".
  json none;
  add_nodes_json(none, group_nodes({{-1, false, "a"}, {-1, false, "b"}}, 0), {}, mpi("Open MPI", IoLayer::Ompio), true);
  EXPECT_EQ(nodes_summary(none), "");
  EXPECT_EQ(nodes_text(none).front().rfind("nodes: 2 nodes; ", 0), 0u) << nodes_text(none).front();
}

TEST(NodeReport, RomioAggregatorListIsMappedToNodesWhereRomioReportsIt) {
  const std::vector<std::string> hosts = {"a", "a", "b", "b", "c", "c"};
  const NodeMap map = group_nodes(ranks_on(hosts, 3), 0);
  LayoutFacts facts;
  facts.mpiio_info = {{"cb_nodes", "3"}, {"cb_config_list", "*:1"}, {"romio_aggregator_list", "0 2 4 "}};
  facts.mpiio_info_source = "test";
  json j;
  add_nodes_json(j, map, facts, mpi("MPICH", IoLayer::Romio), true);
  const std::vector<int> listed = parse_rank_list(facts.mpiio_info["romio_aggregator_list"]);
  std::set<std::string> hosts_with;
  for (int r : listed) hosts_with.insert(hosts[static_cast<std::size_t>(r)]);
  EXPECT_EQ(j["aggregators"]["count"], listed.size());
  EXPECT_EQ(j["aggregators"]["nodes_with_aggregators"], hosts_with.size());
  for (const auto& node : j["nodes"]["list"]) {
    std::vector<int> want;
    for (int r : listed) {
      if (hosts[static_cast<std::size_t>(r)] == node["name"]) want.push_back(r);
    }
    EXPECT_EQ(node["aggregators"].get<std::vector<int>>(), want) << node.dump();
  }
  EXPECT_EQ(j["aggregators"]["read_back"]["cb_config_list"], "*:1");
  // Open MPI answers MPI_File_get_info with what was passed: no per-node aggregators claimed.
  json echo;
  add_nodes_json(echo, map, facts, mpi("Open MPI", IoLayer::Romio), true);
  EXPECT_FALSE(echo["nodes"]["list"][0].contains("aggregators"));
  EXPECT_NE(echo["aggregators"]["what"].get<std::string>().find("echoes"), std::string::npos);
  json ompio;
  add_nodes_json(ompio, map, facts, mpi("Open MPI", IoLayer::Ompio), true);
  EXPECT_EQ(ompio["aggregators"]["what"].get<std::string>().rfind("not reported by OMPIO", 0), 0u);
  // The header on rank 0 alone: its open over MPI_COMM_SELF aggregates nothing, whatever it lists.
  LayoutFacts alone = facts;
  alone.mpiio_on_rank0_alone = true;
  for (const MpiIo& io : {mpi("MPICH", IoLayer::Romio), mpi("Open MPI", IoLayer::Ompio)}) {
    json header;
    add_nodes_json(header, map, alone, io, true);
    EXPECT_EQ(header["aggregators"]["what"].get<std::string>().rfind("none: ", 0), 0u) << header.dump();
    EXPECT_FALSE(header["nodes"]["list"][0].contains("aggregators")) << header.dump();
  }
  // No MPI-IO (io_form 2): nodes and writers, no aggregators.
  json serial;
  add_nodes_json(serial, map, facts, mpi("MPICH", IoLayer::Romio), false);
  EXPECT_TRUE(serial.contains("nodes"));
  EXPECT_FALSE(serial.contains("aggregators"));
}

TEST(NodeReport, FullTextListsNodesAndStopsAfterAFew) {
  std::vector<std::string> hosts;
  for (int n = 0; n < 20; ++n) hosts.push_back("node" + std::to_string(n));
  json j;
  add_nodes_json(j, group_nodes(ranks_on(hosts, 1), 0), {}, mpi("Open MPI", IoLayer::Ompio), true);
  const auto lines = nodes_text(j);
  ASSERT_GE(lines.size(), 3u);
  EXPECT_EQ(lines.front().rfind("nodes: 20 writers on 20 nodes", 0), 0u) << lines.front();
  EXPECT_LT(lines.size(), hosts.size()) << "one line per node for all 20";
  EXPECT_EQ(lines.back().rfind("aggregators (OMPIO):", 0), 0u) << lines.back();
  EXPECT_EQ(rank_ranges({0, 1, 2, 5, 7, 8}), "0-2,5,7-8");
  EXPECT_EQ(rank_ranges({}), "");
}
