#include "wrf/wrf_chunking.hpp"

#include "nwpio/wrf_conventions.hpp"

namespace nwpio::detail {
namespace {

bool is_one_of(const std::string& name, std::string_view a, std::string_view b) { return name == a || name == b; }

}  // namespace

bool is_horizontal_field(const FileLayout& layout, const FileLayout::Var& var) {
  const std::size_t n = var.dims.size();
  if (n < 2) return false;
  const std::string& y = layout.dims[static_cast<std::size_t>(var.dims[n - 2])].name;
  const std::string& x = layout.dims[static_cast<std::size_t>(var.dims[n - 1])].name;
  return is_one_of(y, wrf::kSouthNorth, wrf::kSouthNorthStag) && is_one_of(x, wrf::kWestEast, wrf::kWestEastStag);
}

std::vector<std::size_t> wrf_chunk_sizes(const FileLayout& layout, const FileLayout::Var& var) {
  if (!is_horizontal_field(layout, var)) return {};
  std::vector<std::size_t> chunks;
  chunks.reserve(var.dims.size());
  for (std::size_t d = 0; d < var.dims.size(); ++d) {
    const std::int64_t len = layout.dims[static_cast<std::size_t>(var.dims[d])].length;
    // The unlimited dimension (length 0 in FileLayout) gets one record per chunk.
    chunks.push_back(len == 0 ? 1 : static_cast<std::size_t>(len));
  }
  const std::size_t iy = chunks.size() - 2;
  const std::size_t ix = chunks.size() - 1;
  auto halve = [](std::size_t v) { return (v + 1) / 2; };
  chunks[iy] = halve(chunks[iy]);
  chunks[ix] = halve(chunks[ix]);
  auto elements = [&] {
    std::int64_t p = 1;
    for (std::size_t c : chunks) p *= static_cast<std::int64_t>(c);
    return p;
  };
  // Stop at 1x1 as well: WRF's loop would spin forever on a column of over 32 M levels.
  while (elements() > kWrfChunkElementLimit && (chunks[iy] > 1 || chunks[ix] > 1)) {
    chunks[iy] = halve(chunks[iy]);
    chunks[ix] = halve(chunks[ix]);
  }
  return chunks;
}

}  // namespace nwpio::detail
