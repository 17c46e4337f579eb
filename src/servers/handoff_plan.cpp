#include "servers/handoff_plan.hpp"

#include "nwpio/error.hpp"
#include "nwpio/wrf_decompose.hpp"

namespace nwpio::detail {

WrfBounds server_band_bounds(const Box& domain, int nservers, int index) {
  const auto e_we = static_cast<int>(domain.extent(kAxisI));
  const auto e_sn = static_cast<int>(domain.extent(kAxisJ));
  const auto e_vert = static_cast<int>(domain.extent(kAxisK));
  if (nservers > e_sn - 1) {
    throw Error(ErrorKind::Config, "nio_tasks_per_group = " + std::to_string(nservers) +
                                       ": the I/O servers of a group split the domain in bands of rows, and the "
                                       "domain has only " + std::to_string(e_sn - 1) + " rows (e_sn - 1)");
  }
  return wrf::split_domain(e_we, e_sn, e_vert, 1, nservers, index, 0);
}

Box server_band(const Box& domain, int nservers, int index) {
  const WrfBounds b = server_band_bounds(domain, nservers, index);
  Box box;
  box.lo = {b.ips - 1, b.jps - 1, b.kps - 1};
  box.hi = {b.ipe, b.jpe, b.kpe};
  return box;
}

Grid server_grid(const Box& domain, int nservers, int index) {
  Grid g;
  g.domain = domain;
  for (int s = 0; s < nservers; ++s) g.patches.push_back(server_band(domain, nservers, s));
  g.memory = g.patches[static_cast<std::size_t>(index)];
  return g;
}

std::vector<std::size_t> frame_fields(const StreamLayout& layout, bool opens_file) {
  std::vector<std::size_t> out;
  for (std::size_t f = 0; f < layout.fields.size(); ++f) {
    if (layout.fields[f].record || opens_file) out.push_back(f);
  }
  return out;
}

std::vector<HandoffPiece> handoff_pieces(std::span<const FieldPair> fields, int r, int s) {
  std::vector<HandoffPiece> out;
  for (std::size_t f = 0; f < fields.size(); ++f) {
    const FieldGeometry& c = *fields[f].compute;
    const Box box = c.file_boxes[static_cast<std::size_t>(r)].intersect(
        fields[f].server->file_boxes[static_cast<std::size_t>(s)]);
    if (box.empty()) continue;
    out.push_back({f, box, box.volume() * static_cast<std::int64_t>(c.elem)});
  }
  return out;
}

std::int64_t handoff_bytes(std::span<const FieldPair> fields, int r, int s) {
  std::int64_t n = 0;
  for (const HandoffPiece& p : handoff_pieces(fields, r, s)) n += p.bytes;
  return n;
}

std::int64_t memory_elements(const FieldGeometry& g, const Box& m) noexcept {
  const std::int64_t nk = g.grid_k ? m.extent(kAxisK) : g.nk;
  switch (g.order) {
    case MemoryOrder::XZY:
    case MemoryOrder::XYZ: return m.extent(kAxisI) * m.extent(kAxisJ) * nk;
    case MemoryOrder::XY: return m.extent(kAxisI) * m.extent(kAxisJ);
    case MemoryOrder::Z: return nk;
    case MemoryOrder::Scalar: return 1;
  }
  return 0;
}

}  // namespace nwpio::detail
