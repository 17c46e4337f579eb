#include "backend/netcdf/cdf2_limits.hpp"

#include <cstdint>
#include <cstdio>

namespace nwpio::detail {

namespace {

// CDF-2 limit as netCDF-C checks it (X_UINT_MAX - 3: the "-3" covers rounding up to 4 bytes).
constexpr std::int64_t kCdf2VarLimit = std::int64_t{4294967295} - 3;

}  // namespace

std::vector<std::string> cdf2_oversize_variables(const FileLayout& layout) {
  std::vector<std::string> out;
  for (const auto& var : layout.vars) {
    const std::int64_t bytes = record_bytes(layout, var);
    if (bytes <= kCdf2VarLimit) continue;
    char text[64];
    std::snprintf(text, sizeof text, " (%.2f GB%s)", static_cast<double>(bytes) / 1e9, var.record ? " per record" : "");
    out.push_back(var.name + text);
  }
  return out;
}

}  // namespace nwpio::detail
