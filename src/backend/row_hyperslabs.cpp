#include "backend/row_hyperslabs.hpp"

namespace nwpio::detail {

std::vector<Hyperslab> row_hyperslabs(const FileLayout& layout, const FileLayout::Var& var, std::int64_t record,
                                      std::int64_t ra, std::int64_t rb) {
  std::vector<Hyperslab> out;
  if (ra >= rb) return out;
  const VarRows r = var_rows(layout, var);
  const std::size_t spatial = var.dims.size() - (var.record ? 1 : 0);
  const std::int64_t row_bytes = r.ni * static_cast<std::int64_t>(size_of(var.type));
  std::int64_t offset = 0;
  // Rows (k, j) for k in [k0, k1), j in [j0, j1).
  auto add = [&](std::int64_t k0, std::int64_t k1, std::int64_t j0, std::int64_t j1) {
    Hyperslab h;
    if (var.record) {
      h.start.push_back(record);
      h.count.push_back(1);
    }
    if (spatial == 1) {  // rows of one element along the only dimension
      h.start.push_back(k0);
      h.count.push_back(k1 - k0);
    } else if (spatial >= 2) {
      if (spatial == 3) {
        h.start.push_back(k0);
        h.count.push_back(k1 - k0);
      }
      h.start.push_back(j0);
      h.count.push_back(j1 - j0);
      h.start.push_back(0);
      h.count.push_back(r.ni);
    }
    h.offset = offset;
    h.elements = (k1 - k0) * (j1 - j0) * r.ni;
    offset += (k1 - k0) * (j1 - j0) * row_bytes;
    out.push_back(std::move(h));
  };
  const std::int64_t nj = r.nj;
  std::int64_t k = ra / nj;
  const std::int64_t ja = ra % nj;
  const std::int64_t k_last = (rb - 1) / nj;
  const std::int64_t j_end = (rb - 1) % nj + 1;
  if (k == k_last) {
    add(k, k + 1, ja, j_end);
    return out;
  }
  if (ja > 0) {  // partial first plane
    add(k, k + 1, ja, nj);
    ++k;
  }
  const std::int64_t k_whole_end = j_end == nj ? k_last + 1 : k_last;
  if (k_whole_end > k) add(k, k_whole_end, 0, nj);                // whole planes
  if (j_end < nj) add(k_last, k_last + 1, 0, j_end);              // partial last plane
  return out;
}

}  // namespace nwpio::detail
