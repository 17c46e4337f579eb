#include "core/frame_plan.hpp"

namespace nwpio::detail {

WriteRequest& RequestList::add(int var, const void* data) {
  if (size_ == slots_.size()) slots_.emplace_back();
  WriteRequest& r = slots_[size_++];
  r.var = var;
  r.data = data;
  r.mem_type = MPI_DATATYPE_NULL;
  r.start.clear();
  r.count.clear();
  return r;
}

WriteRequest& add_box_request(RequestList& out, const FieldGeometry& g, int record, const Box& box, const void* data) {
  WriteRequest& r = out.add(g.varid, data);
  if (g.record) {
    r.start.push_back(record);
    r.count.push_back(1);
  }
  const bool has_k = is_3d(g.order) || g.order == MemoryOrder::Z;
  if (has_k) {
    r.start.push_back(box.lo[kAxisK]);
    r.count.push_back(box.extent(kAxisK));
  }
  if (g.decomposed) {
    r.start.push_back(box.lo[kAxisJ]);
    r.count.push_back(box.extent(kAxisJ));
    r.start.push_back(box.lo[kAxisI]);
    r.count.push_back(box.extent(kAxisI));
  }
  return r;
}

void add_row_requests(RequestList& out, const FieldGeometry& g, int record, std::int64_t ra, std::int64_t rb,
                      const std::byte* data) {
  if (ra >= rb) return;
  const std::int64_t nj = g.nj;
  const std::int64_t plane_bytes = nj * g.row_bytes();
  auto rows_box = [&](std::int64_t k0, std::int64_t k1, std::int64_t j0, std::int64_t j1) {
    Box b;
    b.lo = {0, j0, k0};
    b.hi = {g.ni, j1, k1};
    return b;
  };
  std::int64_t k = ra / nj;
  const std::int64_t ja = ra % nj;
  const std::int64_t k_last = (rb - 1) / nj;
  const std::int64_t j_end = (rb - 1) % nj + 1;
  if (k == k_last) {
    add_box_request(out, g, record, rows_box(k, k + 1, ja, j_end), data);
    return;
  }
  if (ja > 0) {  // partial first plane
    add_box_request(out, g, record, rows_box(k, k + 1, ja, nj), data);
    data += (nj - ja) * g.row_bytes();
    ++k;
  }
  const std::int64_t k_whole_end = j_end == nj ? k_last + 1 : k_last;
  if (k_whole_end > k) {  // whole planes
    add_box_request(out, g, record, rows_box(k, k_whole_end, 0, nj), data);
    data += (k_whole_end - k) * plane_bytes;
  }
  if (j_end < nj) add_box_request(out, g, record, rows_box(k_last, k_last + 1, 0, j_end), data);  // partial last
}

}  // namespace nwpio::detail
