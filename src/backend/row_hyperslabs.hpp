// Rows of a variable (see var_rows) as hyperslabs of its own dimensions: what a backend that
// writes through a hyperslab API (netCDF-C, PnetCDF) makes of a slab piece.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "layout/file_layout.hpp"

namespace nwpio::detail {

struct Hyperslab {
  std::vector<std::int64_t> start, count;  // record dimension included for record variables
  std::int64_t offset = 0;                 // bytes from the piece's first row to this slab's data
  std::int64_t elements = 0;
};

// Rows [ra, rb) of record `record` of `var`, contiguous in file order: at most three
// hyperslabs (a partial first k-plane, whole planes, a partial last plane).
std::vector<Hyperslab> row_hyperslabs(const FileLayout& layout, const FileLayout::Var& var, std::int64_t record,
                                      std::int64_t ra, std::int64_t rb);

}  // namespace nwpio::detail
