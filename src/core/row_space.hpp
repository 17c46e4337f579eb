// RowSpace: the rows of one frame's variables as ONE sequence in file order, which the
// rearranger cuts into contiguous chunks (one per writer and round). A row is one (k, j) row
// of i of one variable; a variable without i and j (Z, scalar, Times) has one element per row.
// Chunks hold whole rows and are balanced by bytes, so a chunk is one contiguous stretch of
// the file (up to netCDF's padding between variables).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/stream_layout.hpp"

namespace nwpio::detail {

class RowSpace {
 public:
  struct Field {
    const FieldGeometry* g;
    std::int64_t row0;   // first row of the field in the row space
    std::int64_t byte0;  // its first byte, fields packed without gaps
  };

  explicit RowSpace(std::vector<const FieldGeometry*> fields);

  // Cuts the rows into `chunks` contiguous chunks of whole rows; chunk c starts at the row
  // nearest to byte c * total_bytes / chunks (monotone, possibly empty chunks), never inside a
  // variable without i and j.
  void split(std::int64_t chunks);
  std::int64_t chunk_begin(std::int64_t c) const noexcept { return bounds_[static_cast<std::size_t>(c)]; }
  std::int64_t chunk_end(std::int64_t c) const noexcept { return bounds_[static_cast<std::size_t>(c + 1)]; }

  // Calls fn(field index, ra, rb) for every field overlapping global rows [a, b), with ra/rb the
  // field's own rows, in row order.
  template <class F>
  void for_each_overlap(std::int64_t a, std::int64_t b, F&& fn) const {
    if (a >= b) return;
    std::size_t f = field_at(a);
    for (; f < fields_.size() && fields_[f].row0 < b; ++f) {
      const std::int64_t r0 = fields_[f].row0, r1 = r0 + fields_[f].g->rows();
      const std::int64_t ra = std::max(a, r0), rb = std::min(b, r1);
      if (ra < rb) fn(f, ra - r0, rb - r0);
    }
  }
  // Index of the field holding global row `row` (the last field for row == total_rows()).
  std::size_t field_at(std::int64_t row) const noexcept;

  std::size_t size() const noexcept { return fields_.size(); }
  const Field& operator[](std::size_t f) const noexcept { return fields_[f]; }
  std::int64_t total_rows() const noexcept { return total_rows_; }
  std::int64_t total_bytes() const noexcept { return total_bytes_; }
  std::int64_t max_row_bytes() const noexcept { return max_row_bytes_; }

 private:
  std::vector<Field> fields_;
  std::vector<std::int64_t> bounds_;
  std::int64_t total_rows_ = 0, total_bytes_ = 0, max_row_bytes_ = 1;
};

}  // namespace nwpio::detail
