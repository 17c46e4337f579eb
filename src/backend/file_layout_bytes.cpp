#include "backend/backend.hpp"

namespace nwpio::detail {

std::int64_t record_bytes(const FileLayout& layout, const FileLayout::Var& var) {
  std::int64_t bytes = static_cast<std::int64_t>(size_of(var.type));
  for (std::size_t d = var.record ? 1 : 0; d < var.dims.size(); ++d) {
    bytes *= layout.dims[static_cast<std::size_t>(var.dims[d])].length;
  }
  return bytes;
}

}  // namespace nwpio::detail
