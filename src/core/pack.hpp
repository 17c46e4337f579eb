// The one place where data changes order: from the model's memory (halo, i-k-j or i-j-k) to
// file order (k, j, i). Both candidates live here: a pack into a contiguous buffer (one pass,
// one memcpy per row of i) and an MPI derived datatype over the memory array for PnetCDF's
// flexible API. Rows are addressed as (k, j) pairs of one variable, row = k * nj + j.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "core/stream_layout.hpp"

namespace nwpio::detail {

// Calls f(k, j) for every row r = k * nj + j with ra <= r < rb inside `box` (k and j ranges),
// in increasing row order.
template <class F>
void for_each_row(const FieldGeometry& g, const Box& box, std::int64_t ra, std::int64_t rb, F&& f) {
  if (box.empty() || ra >= rb) return;
  const std::int64_t nj = g.nj;
  const std::int64_t k_first = std::max(box.lo[kAxisK], ra / nj);
  const std::int64_t k_last = std::min(box.hi[kAxisK] - 1, (rb - 1) / nj);
  for (std::int64_t k = k_first; k <= k_last; ++k) {
    const std::int64_t j0 = std::max(box.lo[kAxisJ], ra - k * nj);
    const std::int64_t j1 = std::min(box.hi[kAxisJ], rb - k * nj);
    for (std::int64_t j = j0; j < j1; ++j) f(k, j);
  }
}

// Number of rows for_each_row visits (O(k levels), no row loop).
std::int64_t count_rows(const FieldGeometry& g, const Box& box, std::int64_t ra, std::int64_t rb) noexcept;

// Bytes of `box`'s rows in [ra, rb).
inline std::int64_t box_bytes(const FieldGeometry& g, const Box& box, std::int64_t ra, std::int64_t rb) noexcept {
  return count_rows(g, box, ra, rb) * box.extent(kAxisI) * static_cast<std::int64_t>(g.elem);
}

// Copies `bytes` bytes of elements of `elem` bytes from src to dst; with `big_endian` the
// elements are byte-swapped on a little-endian host (netCDF files are big-endian), so the
// conversion costs no pass of its own.
void copy_elements(std::byte* dst, const std::byte* src, std::size_t bytes, std::size_t elem, bool big_endian) noexcept;

// Copies this rank's rows [ra, rb) of `box` from the array `src` into `out`, in file order,
// halo skipped, back to back. Returns the end of what was written.
std::byte* pack_rows(const FieldGeometry& g, const FieldSource& src, const Box& box, std::int64_t ra, std::int64_t rb,
                     std::byte* out, bool big_endian = false) noexcept;

// Copies the same rows to where they lie in a slab holding the field's WHOLE rows [ra, rb) in
// file order (`slab` = the start of row ra): each piece lands beside the other ranks' pieces
// of the same row, so the slab needs no unpack pass.
void scatter_rows(const FieldGeometry& g, const FieldSource& src, const Box& box, std::int64_t ra, std::int64_t rb,
                  std::byte* slab, bool big_endian) noexcept;

// An MPI datatype that walks `box` of an array laid out as `map` in file order (k, j, i), to be
// used with count 1 at `data + datatype_origin_bytes(g, map, box)`. The caller frees it.
MPI_Datatype make_box_datatype(const FieldGeometry& g, const MemoryMap& map, const Box& box);
std::int64_t datatype_origin_bytes(const FieldGeometry& g, const MemoryMap& map, const Box& box) noexcept;

// MPI's element type for a DataType.
MPI_Datatype mpi_type_of(DataType type) noexcept;

}  // namespace nwpio::detail
