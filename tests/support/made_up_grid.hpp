// Made-up geometry for the core's pure algorithms (stream layout, row space, rearranger plans):
// any number of ranks, WRF's own split, no MPI. Boxes are written out from WRF's bounds
// independently of Decomposition::from_wrf.
#pragma once

#include <vector>

#include "core/stream_layout.hpp"
#include "nwpio/wrf_decompose.hpp"
#include "nwpio_model/wrf_history.hpp"

namespace nwpio::test {

inline Box box_of_wrf(int s0, int e0, int s1, int e1, int s2, int e2) {
  Box b;
  b.lo = {s0 - 1, s1 - 1, s2 - 1};
  b.hi = {e0, e1, e2};
  return b;
}

// The grid as rank `rank` of px x py sees it (WRF's split, `halo` points of memory halo).
inline detail::Grid made_up_grid(int e_we, int e_sn, int e_vert, int px, int py, int rank, int halo = 3) {
  detail::Grid g;
  for (int r = 0; r < px * py; ++r) {
    const WrfBounds w = wrf::split_domain(e_we, e_sn, e_vert, px, py, r, halo);
    g.patches.push_back(box_of_wrf(w.ips, w.ipe, w.jps, w.jpe, w.kps, w.kpe));
    if (r == rank) {
      g.domain = box_of_wrf(w.ids, w.ide, w.jds, w.jde, w.kds, w.kde);
      g.memory = box_of_wrf(w.ims, w.ime, w.jms, w.jme, w.kms, w.kme);
    }
  }
  return g;
}

// WRF's 201 history variables (every stagger, XZY/XY/Z/scalar, int and float, soil and seed
// dimensions), the 3-D ones held as `order_3d`, laid out for a PnetCDF-like backend.
inline detail::StreamLayout made_up_layout(const detail::Grid& grid, MemoryOrder order_3d = MemoryOrder::XZY) {
  wrf::HistorySchemaOptions o;
  o.e_we = static_cast<int>(grid.domain.extent(kAxisI));
  o.e_sn = static_cast<int>(grid.domain.extent(kAxisJ));
  o.e_vert = static_cast<int>(grid.domain.extent(kAxisK));
  o.order_3d = order_3d;
  return detail::build_stream_layout(wrf::history_schema(o), grid, OutputOptions{}, detail::BackendTraits{});
}

// The fields of a frame in the order the Writer's plans hold them: fixed-size ones (a file's
// first frame), Times, then the records.
inline std::vector<const detail::FieldGeometry*> frame_fields(const detail::StreamLayout& L, bool first_frame) {
  std::vector<const detail::FieldGeometry*> f;
  if (first_frame) {
    for (const auto& g : L.fields) {
      if (!g.record) f.push_back(&g);
    }
  }
  f.push_back(&L.times);
  for (const auto& g : L.fields) {
    if (g.record) f.push_back(&g);
  }
  return f;
}

}  // namespace nwpio::test
