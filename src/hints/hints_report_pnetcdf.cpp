#include "hints/hints_report_pnetcdf.hpp"

#include <array>

namespace nwpio::detail::hints {

namespace {

using nlohmann::json;

// What GIO decides when nothing is passed (cb_nodes from the nodes and the ranks per node,
// striping at create); read back from GIO's own info, which holds the values it took.
constexpr std::array<const char*, 6> kGioKeys = {"cb_nodes",        "cb_buffer_size",  "striping_factor",
                                                 "striping_unit",   "cb_write",        "overstriping_ratio"};

}  // namespace

bool gio_opened(const LayoutFacts& layout) {
  const auto it = layout.pnetcdf_choices.find("nc_driver");
  return it != layout.pnetcdf_choices.end() && it->second == "gio";
}

void add_pnetcdf_json(json& report, const LayoutFacts& layout) {
  if (layout.pnetcdf_choices.empty()) return;
  json chose(layout.pnetcdf_choices);
  if (gio_opened(layout)) {
    for (const char* key : kGioKeys) {
      if (const auto it = layout.mpiio_info.find(key); it != layout.mpiio_info.end()) chose[key] = it->second;
    }
  }
  report["pnetcdf"] = {{"driver", layout.pnetcdf_choices.count("nc_driver") ? layout.pnetcdf_choices.at("nc_driver") : ""},
                       {"chose", std::move(chose)},
                       {"source", layout.mpiio_info_source}};
}

std::vector<std::string> pnetcdf_text(const json& report) {
  if (!report.contains("pnetcdf")) return {};
  std::string line = "PnetCDF chose:";
  for (const auto& [k, v] : report["pnetcdf"]["chose"].items()) line += " " + k + "=" + v.get<std::string>();
  return {line + " (" + report["pnetcdf"]["source"].get<std::string>() + ")"};
}

}  // namespace nwpio::detail::hints
