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

namespace {

// The allowed cut of field `f` (rows [0, rows)) nearest to `target`, not below `lo`: a row
// where (row % period) % step == 0, or the field's end.
std::int64_t snap_cut(const FieldGeometry& g, std::int64_t target, std::int64_t lo) {
  const std::int64_t rows = g.rows();
  const std::int64_t period = std::max<std::int64_t>(1, g.cut_period), step = std::max<std::int64_t>(1, g.cut_step);
  target = std::clamp(target, lo, rows);
  const std::int64_t base = target - target % period, within = target % period;
  const std::int64_t down = base + within / step * step;
  const std::int64_t up = std::min({base + (within + step - 1) / step * step, base + period, rows});
  const std::int64_t best = (target - down <= up - target) ? down : up;
  return best < lo ? std::min(up, rows) : best;
}

}  // namespace

int RowSpace::split_shared(int writers, std::int64_t limit) {
  const std::int64_t nw = std::max(1, writers);
  limit = std::max<std::int64_t>(1, limit);
  std::vector<std::int64_t> b;
  std::int64_t round_start = 0;  // first row of the next round (the small fields before it included)
  for (const Field& f : fields_) {
    const FieldGeometry& g = *f.g;
    if (g.ni == 1 && g.nj == 1) continue;  // rides along with the next round
    const std::int64_t parts = std::max<std::int64_t>(1, (g.bytes() + nw * limit - 1) / (nw * limit));
    std::int64_t part_begin = 0;
    for (std::int64_t p = 0; p < parts; ++p) {
      const std::int64_t part_end = p + 1 == parts ? g.rows() : snap_cut(g, g.rows() * (p + 1) / parts, part_begin);
      b.push_back(p == 0 ? round_start : f.row0 + part_begin);
      std::int64_t cut = part_begin;
      for (std::int64_t w = 1; w < nw; ++w) {
        cut = snap_cut(g, part_begin + (part_end - part_begin) * w / nw, cut);
        b.push_back(f.row0 + std::min(cut, part_end));
      }
      part_begin = part_end;
    }
    round_start = f.row0 + g.rows();
  }
  if (b.empty()) {  // nothing with i and j: one round, all in writer 0's piece
    b.push_back(0);
    for (std::int64_t w = 1; w < nw; ++w) b.push_back(total_rows_);
  }
  b.push_back(total_rows_);
  bounds_ = std::move(b);
  return static_cast<int>((bounds_.size() - 1) / static_cast<std::size_t>(nw));
}

}  // namespace nwpio::detail
