// The hint report's PnetCDF part: what PnetCDF 1.14 and later choose by themselves and say in
// ncmpi_inq_file_info (its I/O driver, intra-node aggregation, striping at create) and, with its
// GIO driver, what GIO took (aggregators, striping). Empty for a PnetCDF that says none of it
// (1.12): the report is then what it was.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "layout/layout_facts.hpp"

namespace nwpio::detail::hints {

// {"pnetcdf": {"driver": ..., "chose": {key: value}, "source": ...}} when the backend read
// PnetCDF's own choices; nothing otherwise.
void add_pnetcdf_json(nlohmann::json& report, const LayoutFacts& layout);

// "PnetCDF chose: nc_driver=gio nc_num_aggrs_per_node=0 ..." for the full table; empty
// without the JSON member.
std::vector<std::string> pnetcdf_text(const nlohmann::json& report);

// Whether PnetCDF's GIO driver, not the MPI-IO layer, opened the file (its info is then GIO's own).
bool gio_opened(const LayoutFacts& layout);

}  // namespace nwpio::detail::hints
