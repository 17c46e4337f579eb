#include "hints/hints_report_nodes.hpp"

#include <algorithm>
#include <array>

#include "hints/hints_report_pnetcdf.hpp"

namespace nwpio::detail::hints {

namespace {

using nlohmann::json;

// The keys of the read-back info that say who aggregates and how much.
constexpr std::array<const char*, 6> kAggregatorKeys = {"cb_nodes",         "cb_config_list",        "cb_buffer_size",
                                                        "romio_cb_write",   "romio_aggregator_list", "collective_buffering"};

// What the read-back info is worth under this MPI (mpiio_layer.hpp: Open MPI 4.1 answers
// MPI_File_get_info from its own copy of what was passed, under both layers).
std::string what_was_read(const LayoutFacts& layout, const MpiIo& io, bool listed) {
  if (layout.mpiio_info_source.empty()) {
    return "not read back: this io_form's library does not hand out its MPI-IO file handle";
  }
  if (layout.mpiio_on_rank0_alone) {
    return "none: PnetCDF opened the file on rank 0 alone, for the header (over MPI_COMM_SELF); "
           "the writers write their own slabs with pwrite(2), so no collective write aggregates";
  }
  if (gio_opened(layout)) {
    return "GIO's own values: PnetCDF's GIO driver opened the file, not " + io.layer_name();
  }
  if (io.vendor == "Open MPI" && io.layer == IoLayer::Ompio) {
    return "not reported by OMPIO: Open MPI's MPI_File_get_info echoes the keys passed, and OMPIO picks its "
           "aggregators itself at each collective write (OMPI_MCA_io_ompio_verbose_info_parsing=1 shows what it read)";
  }
  if (io.vendor == "Open MPI") {
    return "as passed: Open MPI's MPI_File_get_info echoes the keys, not the values ROMIO took "
           "(ROMIO_PRINT_HINTS=1 prints those, with romio_aggregator_list)";
  }
  return std::string("ROMIO's own values") + (listed ? "; romio_aggregator_list names the aggregator ranks" : "");
}

std::string plural(std::size_t n, const char* one, const char* many) { return std::to_string(n) + " " + (n == 1 ? one : many); }

}  // namespace

std::string rank_ranges(const std::vector<int>& ranks) {
  std::string out;
  for (std::size_t i = 0; i < ranks.size();) {
    std::size_t j = i;
    while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1) ++j;
    if (!out.empty()) out += ',';
    out += std::to_string(ranks[i]);
    if (j > i) {
      out += '-';
      out += std::to_string(ranks[j]);
    }
    i = j + 1;
  }
  return out;
}

void add_nodes_json(json& report, const NodeMap& nodes, const LayoutFacts& layout, const MpiIo& io, bool mpi_io) {
  if (!nodes.known) return;
  // The aggregator ranks, where the layer names them itself (not an echo of what was passed).
  std::vector<int> aggregators;
  const auto listed = layout.mpiio_info.find("romio_aggregator_list");
  if (mpi_io && !layout.mpiio_on_rank0_alone && io.vendor != "Open MPI" && listed != layout.mpiio_info.end()) aggregators = parse_rank_list(listed->second);
  json list = json::array();
  int with_writers = 0, with_aggregators = 0;
  for (const NodeRanks& n : nodes.nodes) {
    json node = {{"name", n.name}, {"ranks", n.ranks}, {"writers", n.writers}};
    if (!aggregators.empty()) {
      std::vector<int> here;
      for (int r : aggregators) {
        if (std::binary_search(n.ranks.begin(), n.ranks.end(), r)) here.push_back(r);
      }
      std::sort(here.begin(), here.end());
      with_aggregators += here.empty() ? 0 : 1;
      node["aggregators"] = here;
    }
    with_writers += n.writers.empty() ? 0 : 1;
    list.push_back(std::move(node));
  }
  report["nodes"] = {{"count", nodes.nodes.size()},
                     {"split", nodes.split},
                     {"gathered_bytes_per_rank", nodes.bytes_per_rank},
                     {"writers", nodes.writer_count()},
                     {"nodes_with_writers", with_writers},
                     {"list", std::move(list)}};
  if (!mpi_io) return;
  json read = json::object();
  for (const char* key : kAggregatorKeys) {
    if (const auto it = layout.mpiio_info.find(key); it != layout.mpiio_info.end()) read[key] = it->second;
  }
  json a = {{"layer", io.layer_name()},
            {"read_back", std::move(read)},
            {"source", layout.mpiio_info_source},
            {"what", what_was_read(layout, io, !aggregators.empty())}};
  if (!aggregators.empty()) {
    a["count"] = aggregators.size();
    a["nodes_with_aggregators"] = with_aggregators;
  }
  report["aggregators"] = std::move(a);
}

std::string nodes_summary(const json& report) {
  if (!report.contains("nodes")) return {};
  const json& n = report["nodes"];
  const std::size_t count = n["count"], writers = n["writers"], with = n["nodes_with_writers"];
  if (writers == 0) return {};  // a file opened outside a stream (tools): no writers to count
  std::size_t least = writers, most = 0;
  for (const auto& node : n["list"]) {
    const std::size_t w = node["writers"].size();
    if (w == 0) continue;
    least = std::min(least, w);
    most = std::max(most, w);
  }
  std::string out = plural(writers, "writer", "writers") + " on ";
  out += with == count ? plural(count, "node", "nodes") : std::to_string(with) + " of " + plural(count, "node", "nodes");
  return out + " (" + (least == most ? std::to_string(most) : std::to_string(least) + "-" + std::to_string(most)) +
         " per node)";
}

std::vector<std::string> nodes_text(const json& report) {
  std::vector<std::string> lines;
  if (!report.contains("nodes")) return lines;
  const json& n = report["nodes"];
  const std::string writers = nodes_summary(report);
  lines.push_back("nodes: " + (writers.empty() ? plural(n["count"].get<std::size_t>(), "node", "nodes") : writers) + "; " +
                  n["split"].get<std::string>() + ", gathered once at open (" +
                  std::to_string(n["gathered_bytes_per_rank"].get<long long>()) + " bytes per rank at most)");
  constexpr std::size_t kShown = 8;  // the statistics JSON has every node
  std::size_t shown = 0;
  for (const auto& node : n["list"]) {
    if (shown++ == kShown) {
      lines.push_back("  ... " + std::to_string(n["list"].size() - kShown) + " more nodes in the statistics JSON");
      break;
    }
    std::string line = "  node " + node["name"].get<std::string>() + ": ranks " +
                       rank_ranges(node["ranks"].get<std::vector<int>>()) + ", writers " +
                       (node["writers"].empty() ? "none" : rank_ranges(node["writers"].get<std::vector<int>>()));
    if (node.contains("aggregators")) {
      line += ", aggregators " +
              (node["aggregators"].empty() ? "none" : rank_ranges(node["aggregators"].get<std::vector<int>>()));
    }
    lines.push_back(std::move(line));
  }
  if (report.contains("aggregators")) {
    const json& a = report["aggregators"];
    std::string line = "aggregators (" + a["layer"].get<std::string>() + "):";
    for (const auto& [k, v] : a["read_back"].items()) line += " " + k + "=" + v.get<std::string>();
    lines.push_back(line + " -- " + a["what"].get<std::string>());
  }
  return lines;
}

}  // namespace nwpio::detail::hints
