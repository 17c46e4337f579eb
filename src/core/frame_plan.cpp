#include "core/frame_plan.hpp"

namespace nwpio::detail {

WriteRequest& RoundOutput::add(int var, const void* data) {
  if (size_ == slots_.size()) slots_.emplace_back();
  WriteRequest& r = slots_[size_++];
  r.var = var;
  r.data = data;
  r.mem_type = MPI_DATATYPE_NULL;
  r.start.clear();
  r.count.clear();
  return r;
}

WriteRequest& add_box_request(RoundOutput& out, const FieldGeometry& g, int record, const Box& box, const void* data) {
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

}  // namespace nwpio::detail
