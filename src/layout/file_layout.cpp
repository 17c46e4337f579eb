#include "layout/file_layout.hpp"

namespace nwpio::detail {

std::int64_t record_bytes(const FileLayout& layout, const FileLayout::Var& var) {
  std::int64_t bytes = static_cast<std::int64_t>(size_of(var.type));
  for (std::size_t d = var.record ? 1 : 0; d < var.dims.size(); ++d) {
    bytes *= layout.dims[static_cast<std::size_t>(var.dims[d])].length;
  }
  return bytes;
}

VarRows var_rows(const FileLayout& layout, const FileLayout::Var& var) {
  std::vector<std::int64_t> ext;
  for (std::size_t d = var.record ? 1 : 0; d < var.dims.size(); ++d) {
    ext.push_back(layout.dims[static_cast<std::size_t>(var.dims[d])].length);
  }
  VarRows r;
  // A variable of rank 0 or 1 (Z, scalar, Times) has rows of one element, as in the row space.
  if (ext.size() <= 1) {
    r.nk = ext.empty() ? 1 : ext[0];
    return r;
  }
  r.ni = ext[ext.size() - 1];
  r.nj = ext[ext.size() - 2];
  for (std::size_t d = 0; d + 2 < ext.size(); ++d) r.nk *= ext[d];
  return r;
}

}  // namespace nwpio::detail
