// The hint report's per-node part: which ranks run on which node, which of them are nwpio's
// writers, and the collective-buffering aggregators as the MPI-IO layer reports them (its
// MPI_File_get_info, read back by the backend). JSON for the statistics, one clause for the
// summary line, a few lines for the full table.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "hints/node_map.hpp"
#include "layout/layout_facts.hpp"
#include "mpiio/mpiio_layer.hpp"

namespace nwpio::detail::hints {

// {"nodes": {...}, "aggregators": {...}} members of the report; `mpi_io`: the file is opened
// through MPI-IO (else there are no aggregators to report).
void add_nodes_json(nlohmann::json& report, const NodeMap& nodes, const LayoutFacts& layout, const MpiIo& io,
                    bool mpi_io);

// "writers 2 on 2 nodes (1 per node)"; empty without node facts.
std::string nodes_summary(const nlohmann::json& report);
// The full table's lines (without the leading newline), one per node (the first few) and one
// for the aggregators.
std::vector<std::string> nodes_text(const nlohmann::json& report);

// "0-3,6,8-9" for ascending ranks.
std::string rank_ranges(const std::vector<int>& ranks);

}  // namespace nwpio::detail::hints
