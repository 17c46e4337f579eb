#include "layout/storage_report.hpp"

#include <nlohmann/json.hpp>

namespace nwpio::detail {

std::string storage_report_json(const FileLayout& layout) {
  static const char* const kQuantize[] = {"none", "bitgroom", "granularbr", "bitround"};
  nlohmann::json vars = nlohmann::json::array();
  for (const FileLayout::Var& v : layout.vars) {
    if (v.chunks.empty()) continue;
    const auto& f = v.filters;
    const int q = f.quantize >= 0 && f.quantize <= 3 ? f.quantize : 0;
    vars.push_back({{"name", v.name},
                    {"chunks", v.chunks},
                    {"shuffle", f.shuffle},
                    {"deflate_level", f.deflate_level},
                    {"quantize", kQuantize[q]},
                    {"quantize_digits", f.quantize_digits}});
  }
  if (vars.empty()) return {};
  return nlohmann::json{{"format", "netcdf4"}, {"variables", vars}}.dump();
}

}  // namespace nwpio::detail
