// Chunk shapes that follow the writers' shares (io_form 13), so that every chunk of a netCDF-4
// file is written, and compressed, by exactly one rank, and the rule that keeps the shares on
// chunk boundaries. Pure functions of the layout (no MPI, no netCDF), unit-tested.
//
// The rearranger gives every writer whole rows of i (rows as in var_rows: (k, j) rows, outer
// dimensions flattened into k), a contiguous stretch of each variable. A chunk can lie inside
// one stretch only if it is itself a contiguous stretch of rows: either cj whole rows of one
// plane (1 .. 1, cj, ni), or ck whole planes (1 .. ck, nj, ni).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "layout/file_layout.hpp"

namespace nwpio::detail {

// The rule: one record, one plane (one value of every dimension outside the last two), cj whole
// rows of i, with cj = ceil(nj / s) and s = max(ceil(plane bytes / max_chunk_bytes),
// ceil(writers / planes)): a whole horizontal plane per chunk, cut into row stripes only when the
// plane is larger than max_chunk_bytes or the variable has fewer planes than there are writers
// (a 2-D field among 4 writers: 4 stripes, so that all four compress it). A variable without i
// and j (Z, scalar, Times) is one chunk per record.
std::vector<std::size_t> writer_chunk_shape(const FileLayout& layout, const FileLayout::Var& var, int writers,
                                            std::int64_t max_chunk_bytes);

// Where a writer's share of a variable may begin without splitting a chunk: at row r (of
// var_rows, 0-based within one record) when (r % period) % step == 0, and at the variable's end.
struct RowCut {
  std::int64_t period = 1, step = 1;
  bool allows(std::int64_t row) const noexcept { return (row % period) % step == 0; }
};

// The cut rule of `var`'s chunk shape (var.chunks, file order, Time included; empty: any row).
// Throws Error(Config), naming `origin` (where the shape was written), the variable and the
// shape, when a chunk is not a contiguous stretch of whole rows: a chunk narrower than the
// row (the last dimension), several planes of partial rows, a length over its dimension's, or a
// rank that differs from the variable's.
RowCut row_cut_of(const FileLayout& layout, const FileLayout::Var& var, const std::string& origin);

// "1x1x150x425" -- for reports and messages.
std::string chunk_text(const std::vector<std::size_t>& chunks);

}  // namespace nwpio::detail
