#include "core/row_space.hpp"

namespace nwpio::detail {

RowSpace::RowSpace(std::vector<const FieldGeometry*> fields) {
  for (const FieldGeometry* g : fields) {
    fields_.push_back({g, total_rows_, total_bytes_});
    total_rows_ += g->rows();
    total_bytes_ += g->bytes();
    max_row_bytes_ = std::max(max_row_bytes_, g->row_bytes());
  }
  split(1);
}

std::size_t RowSpace::field_at(std::int64_t row) const noexcept {
  auto it = std::upper_bound(fields_.begin(), fields_.end(), row,
                             [](std::int64_t r, const Field& f) { return r < f.row0; });
  return static_cast<std::size_t>(std::max<std::ptrdiff_t>(0, (it - fields_.begin()) - 1));
}

void RowSpace::split(std::int64_t chunks) {
  bounds_.assign(static_cast<std::size_t>(chunks + 1), 0);
  const std::int64_t q = total_bytes_ / chunks, r = total_bytes_ % chunks;
  for (std::int64_t c = 1; c < chunks && !fields_.empty(); ++c) {
    const std::int64_t target = q * c + r * c / chunks;
    auto it = std::upper_bound(fields_.begin(), fields_.end(), target,
                               [](std::int64_t b, const Field& f) { return b < f.byte0; });
    const Field& f = *(it - 1);
    const std::int64_t rb = f.g->row_bytes();
    std::int64_t row = f.row0 + std::min(f.g->rows(), (target - f.byte0 + rb / 2) / rb);
    // A variable without i and j (Z, scalar, Times: rows of one element) stays whole in one
    // chunk: it is tiny, and Times' bytes must come from the one rank that also hands Times
    // to PnetCDF.
    if (f.g->ni == 1 && f.g->nj == 1 && row < f.row0 + f.g->rows()) row = f.row0;
    bounds_[static_cast<std::size_t>(c)] = std::max(bounds_[static_cast<std::size_t>(c - 1)], row);
  }
  bounds_[static_cast<std::size_t>(chunks)] = total_rows_;
}

}  // namespace nwpio::detail
