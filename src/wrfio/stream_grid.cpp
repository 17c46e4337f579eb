#include "wrfio/stream_grid.hpp"

#include <algorithm>
#include <array>
#include <limits>

#include "wrfio/wrf_status.hpp"

namespace nwpio::wrfio {

namespace {

const char* axis_name(int axis) { return axis == kAxisI ? "x" : axis == kAxisJ ? "y" : "the vertical"; }

bool counts_for(const FieldCall& f, int axis) {
  return f.position(axis) >= 0 && (axis != kAxisK || f.on_model_grid_k());
}

}  // namespace

Box field_domain_box(const FieldCall& f) {
  Box b{{0, 0, 0}, {1, 1, 1}};
  for (int axis = 0; axis < 3; ++axis) {
    const int p = f.position(axis);
    if (p < 0) continue;
    b.lo[axis] = std::int64_t{f.domain_start[p]} - 1;
    b.hi[axis] = f.domain_end[p];
  }
  return b;
}

StreamGrid stream_grid(const std::vector<const FieldCall*>& fields) {
  // The staggered domain: every field along every axis it has must give the same count.
  std::array<std::int64_t, 3> count{0, 0, 0};
  std::array<const FieldCall*, 3> first{nullptr, nullptr, nullptr};
  for (const FieldCall* f : fields) {
    for (int axis = 0; axis < 3; ++axis) {
      if (!counts_for(*f, axis)) continue;
      const int p = f->position(axis);
      const std::int64_t n = f->global_length(p) + (f->staggered(axis) ? 0 : 1);
      if (first[axis] == nullptr) {
        first[axis] = f;
        count[axis] = n;
      } else if (n != count[axis]) {
        throw WrfError(wrf_status::kDimensionError, ErrorKind::InvalidArgument,
                       "variables '" + first[axis]->name + "' and '" + f->name + "' disagree on the grid along " +
                           axis_name(axis) + ": staggered lengths " + std::to_string(count[axis]) + " and " +
                           std::to_string(n) + " (DomainEnd plus one unless staggered along that axis)");
      }
    }
  }
  if (first[kAxisI] == nullptr || first[kAxisJ] == nullptr) {
    throw WrfError(wrf_status::kNotSupported, ErrorKind::Unsupported,
                   "the file has no field decomposed over x and y (XZY, XYZ or XY); nwpio needs one to know the grid");
  }
  StreamGrid g;
  g.domain = Box{{0, 0, 0}, {count[kAxisI], count[kAxisJ], first[kAxisK] ? count[kAxisK] : 1}};

  // This rank's staggered patch.
  constexpr auto kMax = std::numeric_limits<std::int64_t>::max();
  g.patch = Box{{kMax, kMax, 0}, {-1, -1, g.domain.hi[kAxisK]}};
  bool quilt = false;
  for (const FieldCall* f : fields) {
    quilt = quilt || f->quilt_patch;
    if (!f->decomposed()) continue;
    for (int axis : {kAxisI, kAxisJ}) {
      const int p = f->position(axis);
      const bool reaches_end = !f->staggered(axis) && f->patch_end[p] == f->domain_end[p];
      g.patch.lo[axis] = std::min(g.patch.lo[axis], std::int64_t{f->patch_start[p]} - 1);
      g.patch.hi[axis] = std::max(g.patch.hi[axis], std::int64_t{f->patch_end[p]} + (reaches_end ? 1 : 0));
    }
  }

  // Memory: the model's arrays (the first decomposed field's, the first model-grid field's k),
  // or, for an I/O server whose fields are exactly its patches, the patch itself.
  if (quilt) {
    g.memory = g.patch;
    return g;
  }
  g.memory = Box{{0, 0, 0}, {0, 0, g.domain.hi[kAxisK]}};
  bool have_ij = false, have_k = false;
  for (const FieldCall* f : fields) {
    const Box m = f->memory_box();
    if (!have_ij && f->decomposed()) {
      for (int axis : {kAxisI, kAxisJ}) {
        g.memory.lo[axis] = m.lo[axis];
        g.memory.hi[axis] = m.hi[axis];
      }
      have_ij = true;
    }
    if (!have_k && f->on_model_grid_k()) {
      g.memory.lo[kAxisK] = m.lo[kAxisK];
      g.memory.hi[kAxisK] = m.hi[kAxisK];
      have_k = true;
    }
  }
  return g;
}

}  // namespace nwpio::wrfio
