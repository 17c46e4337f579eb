// The hint report's per-node part for a real stream: which ranks run on which node (the test
// hook splits this machine into nodes of k consecutive ranks, as the writers' slabs do), which of
// them are nwpio's writers, the aggregators_per_node hint derived from the node count, and what
// the MPI-IO layer reports of its aggregators. Every expected value is computed here from the
// rank count, the split and each rank's own MPI_Get_processor_name, not taken from nwpio.
// Run at 1 and 3 ranks, under the build's default MPI-IO layer and under ROMIO.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "api/stream_context.hpp"
#include "core/test_hooks.hpp"
#include "hints/hints_report.hpp"
#include "mpi_support.hpp"
#include "nwpio/writer.hpp"
#include "test_model.hpp"

namespace nwpio::test {
namespace {

using nlohmann::json;

// Every rank's processor name, on every rank (the test's own gather).
std::vector<std::string> host_names() {
  char name[MPI_MAX_PROCESSOR_NAME] = {};
  int length = 0;
  MPI_Get_processor_name(name, &length);
  std::vector<char> all(static_cast<std::size_t>(nranks()) * MPI_MAX_PROCESSOR_NAME);
  MPI_Allgather(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, all.data(), MPI_MAX_PROCESSOR_NAME, MPI_CHAR, world());
  std::vector<std::string> out;
  for (int r = 0; r < nranks(); ++r) out.emplace_back(all.data() + static_cast<std::size_t>(r) * MPI_MAX_PROCESSOR_NAME);
  return out;
}

struct Case {
  int ranks_per_node;  // the test hook's node size
  int writer_ranks;    // &nwpio writer_ranks
  int aggregators;     // the aggregators hint (collective buffering is on, so they are used)
};

// Writes one file of two frames with the case's split and returns rank 0's hint report (an
// empty object on the other ranks).
json report_of(const Case& c, const std::string& name) {
  const std::string dir = fresh_dir(name);
  const ModelShape shape;
  Model model(world(), shape);
  OutputOptions o;
  o.output_dir = dir;
  o.print_timing = false;
  o.frames_per_file = 2;
  o.writer_ranks = c.writer_ranks;
  o.hints.report = HintReport::Off;
  o.hints.overrides = {{"aggregators", std::to_string(c.aggregators)}, {"collective_write", "true"}};
  auto hooks = std::make_shared<detail::TestHooks>();
  hooks->ranks_per_node = c.ranks_per_node;
  Writer w = detail::make_writer(model.decomposition(), model.schema(), o, {hooks, nullptr, nullptr});
  write_hourly_frames(w, model, 2);
  json report = json::object();
  for (const auto& [key, text] : w.statistics().attachments) {
    if (key.rfind("hints:", 0) == 0 && my_rank() == 0) report = json::parse(text);
  }
  return report;
}

class HintNodes : public ::testing::TestWithParam<Case> {};

TEST_P(HintNodes, ReportNamesEveryNodeItsRanksWritersAndAggregators) {
  const Case c = GetParam();
  const std::vector<std::string> hosts = host_names();
  const json j = report_of(c, "hint_nodes_" + std::to_string(c.ranks_per_node) + "_" + std::to_string(c.writer_ranks));
  if (my_rank() != 0) return;
  ASSERT_TRUE(j.contains("nodes")) << j.dump();
  const int size = nranks(), k = c.ranks_per_node;
  const int nodes = (size + k - 1) / k;
  // The writers: writer_ranks spread evenly over the ranks, rank i * size / n (docs/NAMELIST.md).
  const int n = std::min(c.writer_ranks, size);
  std::vector<int> writers;
  for (int i = 0; i < n; ++i) writers.push_back(i * size / n);
  const json& jn = j["nodes"];
  ASSERT_EQ(jn["count"], nodes);
  ASSERT_EQ(jn["list"].size(), static_cast<std::size_t>(nodes));
  EXPECT_EQ(jn["writers"], n);
  std::size_t longest = 0;
  for (const auto& h : hosts) longest = std::max(longest, h.size());
  EXPECT_EQ(jn["gathered_bytes_per_rank"], 3 * sizeof(int) + longest) << "12 bytes and the host name, once per file";
  int with_writers = 0, most = 0, least = size;
  for (int node = 0; node < nodes; ++node) {
    const json& got = jn["list"][static_cast<std::size_t>(node)];
    std::vector<int> ranks, here;
    for (int r = node * k; r < std::min(size, (node + 1) * k); ++r) ranks.push_back(r);
    for (int w : writers) {
      if (w / k == node) here.push_back(w);
    }
    EXPECT_EQ(got["name"], hosts[static_cast<std::size_t>(node * k)]);
    EXPECT_EQ(got["ranks"].get<std::vector<int>>(), ranks) << got.dump();
    EXPECT_EQ(got["writers"].get<std::vector<int>>(), here) << got.dump();
    if (!here.empty()) {
      ++with_writers;
      most = std::max(most, static_cast<int>(here.size()));
      least = std::min(least, static_cast<int>(here.size()));
    }
  }
  EXPECT_EQ(jn["nodes_with_writers"], with_writers);
  // The default summary line carries the count; the full table one line per node.
  const std::string phrase = std::to_string(n) + (n == 1 ? " writer on " : " writers on ") +
                             (with_writers == nodes ? "" : std::to_string(with_writers) + " of ") + std::to_string(nodes) +
                             (nodes == 1 ? " node (" : " nodes (") +
                             (least == most ? std::to_string(most) : std::to_string(least) + "-" + std::to_string(most)) +
                             " per node)";
  const std::string summary = detail::hints::report_summary(j.dump());
  EXPECT_NE(summary.find(phrase), std::string::npos) << summary;
  const std::string full = detail::hints::report_text(j.dump());
  for (int node = 0; node < nodes; ++node) {
    EXPECT_NE(full.find("  node " + hosts[static_cast<std::size_t>(node * k)] + ": ranks " + std::to_string(node * k)),
              std::string::npos)
        << full;
  }

  // aggregators_per_node spreads the aggregators over the nodes: ROMIO gets cb_config_list.
  const bool romio = j["mpi"]["io_layer"] == "ROMIO";
  const std::string per_node = "*:" + std::to_string((c.aggregators + nodes - 1) / nodes);
  if (romio) {
    EXPECT_EQ(j["info"]["cb_config_list"], per_node);
  } else {
    EXPECT_FALSE(j["info"].contains("cb_config_list"));
  }
  EXPECT_EQ(j["info"]["cb_nodes"], std::to_string(c.aggregators));
  // What the layer says of its aggregators: Open MPI echoes what was passed (both layers);
  // MPICH's ROMIO reports the values it took and the aggregator ranks.
  ASSERT_TRUE(j.contains("aggregators")) << j.dump();
  const json& a = j["aggregators"];
  EXPECT_EQ(a["layer"], j["mpi"]["io_layer"]);
  if (j["mpi"]["library"].get<std::string>().rfind("Open MPI", 0) == 0) {
    for (const auto& [key, value] : a["read_back"].items()) {
      if (j["info"].contains(key)) {
        EXPECT_EQ(value, j["info"][key]) << key;
      }
    }
    // PnetCDF's GIO driver (1.14 and later) opens the file itself and reports its own values.
    const bool gio = j.contains("pnetcdf") && j["pnetcdf"]["driver"] == "gio";
    const char* what = gio     ? "GIO's own values"
                       : romio ? "echoes the keys, not the values ROMIO took"
                               : "not reported by OMPIO";
    EXPECT_NE(a["what"].get<std::string>().find(what), std::string::npos) << a.dump();
    EXPECT_FALSE(jn["list"][0].contains("aggregators"));
  } else {
    ASSERT_TRUE(a["read_back"].contains("romio_aggregator_list")) << a.dump();
    std::vector<int> listed;
    std::istringstream in(a["read_back"]["romio_aggregator_list"].get<std::string>());
    for (int r = 0; in >> r;) listed.push_back(r);
    EXPECT_EQ(a["read_back"]["cb_nodes"], std::to_string(listed.size()));
    for (int node = 0; node < nodes; ++node) {
      std::vector<int> here;
      for (int r : listed) {
        if (r / k == node) here.push_back(r);
      }
      std::sort(here.begin(), here.end());
      EXPECT_EQ(jn["list"][static_cast<std::size_t>(node)]["aggregators"].get<std::vector<int>>(), here);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Splits, HintNodes,
                         ::testing::Values(Case{2, 2, 2}, Case{1, 3, 2}, Case{2, 1, 3}),
                         [](const auto& param_info) {
                           return "nodes_of_" + std::to_string(param_info.param.ranks_per_node) + "_writers_" +
                                  std::to_string(param_info.param.writer_ranks);
                         });

}  // namespace
}  // namespace nwpio::test
