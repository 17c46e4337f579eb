#include "layout/writer_chunks.hpp"

#include <algorithm>

#include "nwpio/error.hpp"

namespace nwpio::detail {

namespace {

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

}  // namespace

std::string chunk_text(const std::vector<std::size_t>& chunks) {
  std::string out;
  for (std::size_t c : chunks) {
    if (!out.empty()) out += 'x';
    out += std::to_string(c);
  }
  return out;
}

std::vector<std::size_t> writer_chunk_shape(const FileLayout& layout, const FileLayout::Var& var, int writers,
                                            std::int64_t max_chunk_bytes) {
  std::vector<std::size_t> chunks;
  for (int d : var.dims) {
    const std::int64_t len = layout.dims[static_cast<std::size_t>(d)].length;
    chunks.push_back(len == 0 ? 1 : static_cast<std::size_t>(len));  // the unlimited dimension: one record
  }
  const std::size_t spatial = var.dims.size() - (var.record ? 1 : 0);
  if (spatial < 2) return chunks;  // no i and j: the whole record in one chunk
  const VarRows r = var_rows(layout, var);
  const std::int64_t plane_bytes = r.nj * r.ni * static_cast<std::int64_t>(size_of(var.type));
  const std::int64_t stripes = std::min<std::int64_t>(
      r.nj, std::max({std::int64_t{1}, ceil_div(plane_bytes, std::max<std::int64_t>(1, max_chunk_bytes)),
                      ceil_div(std::max(1, writers), r.nk)}));
  for (std::size_t d = var.record ? 1 : 0; d + 2 < var.dims.size(); ++d) chunks[d] = 1;  // one plane
  chunks[chunks.size() - 2] = static_cast<std::size_t>(ceil_div(r.nj, stripes));
  return chunks;
}

RowCut row_cut_of(const FileLayout& layout, const FileLayout::Var& var, const std::string& origin) {
  const std::vector<std::size_t>& c = var.chunks;
  if (c.empty()) return {};
  auto fail = [&](const std::string& why) -> RowCut {
    throw Error(ErrorKind::Config, origin + ": chunk shape " + chunk_text(c) + " of " + var.name +
                                       " cannot be honoured: " + why +
                                       " (each chunk must be a stretch of whole rows of the last dimension: 1x..x1xJx" +
                                       "I or 1x..xKxJxI with J and I the whole plane)");
  };
  if (c.size() != var.dims.size()) {
    return fail("it has " + std::to_string(c.size() - (var.record ? 1 : 0)) + " lengths, the variable " +
                std::to_string(var.dims.size() - (var.record ? 1 : 0)) + " dimensions besides Time");
  }
  std::vector<std::int64_t> len;
  for (std::size_t d = 0; d < var.dims.size(); ++d) {
    const std::int64_t n = layout.dims[static_cast<std::size_t>(var.dims[d])].length;
    len.push_back(n);
    if (c[d] < 1) return fail("a chunk length is 0");
    if (n == 0 && c[d] != 1) return fail("one record per chunk (Time 1), not " + std::to_string(c[d]));
    if (n > 0 && static_cast<std::int64_t>(c[d]) > n) {
      return fail("length " + std::to_string(c[d]) + " is over the dimension's " + std::to_string(n));
    }
  }
  const std::size_t first = var.record ? 1 : 0;
  const std::size_t spatial = var.dims.size() - first;
  if (spatial <= 1) {  // a variable without i and j stays whole: one chunk per record
    if (spatial == 1 && static_cast<std::int64_t>(c[first]) != len[first]) {
      return fail("a variable without i and j is written by one rank, in one chunk per record");
    }
    return {1, 1};
  }
  const std::size_t ij = c.size() - 2, ii = c.size() - 1;
  if (static_cast<std::int64_t>(c[ii]) != len[ii]) return fail("a chunk holds part of a row");
  const VarRows r = var_rows(layout, var);
  // Dimensions outside j: all 1 (one plane), or the innermost of them > 1 with whole planes.
  std::int64_t planes = 1;
  for (std::size_t d = first; d < ij; ++d) {
    if (c[d] == 1) continue;
    if (d + 1 != ij) return fail("a chunk spans an outer dimension but not the whole of the ones inside it");
    planes = static_cast<std::int64_t>(c[d]);
  }
  if (planes > 1 && static_cast<std::int64_t>(c[ij]) != r.nj) return fail("a chunk of several planes holds partial planes");
  if (planes > 1) return {len[ij - 1] * r.nj, planes * r.nj};  // within each run of the innermost outer dimension
  return {r.nj, static_cast<std::int64_t>(c[ij])};
}

}  // namespace nwpio::detail
