// Where rows go in the coordinates writers stage slabs in, for a backend with no preference.
#include "backend/backend.hpp"

namespace nwpio::detail {

SlabPlacement compact_placement(const FileLayout& layout) {
  SlabPlacement p;
  p.var_begin.assign(layout.vars.size(), 0);
  std::int64_t at = 0;
  for (int pass = 0; pass < 2; ++pass) {  // fixed-size variables first, then the records
    for (std::size_t v = 0; v < layout.vars.size(); ++v) {
      if (layout.vars[v].record != (pass == 1)) continue;
      p.var_begin[v] = at;
      at += record_bytes(layout, layout.vars[v]);
      if (pass == 1) p.record_stride += record_bytes(layout, layout.vars[v]);
    }
  }
  return p;
}

}  // namespace nwpio::detail
