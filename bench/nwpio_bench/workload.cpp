// Building the cases of each workload (see workload.hpp).
#include "workload.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <utility>

#include "nwpio/error.hpp"
#include "nwpio/wrf_conventions.hpp"
#include "nwpio/wrf_decompose.hpp"
#include "nwpio_model/wrf_history.hpp"
#include "workload_real.hpp"

namespace nwpio::bench {
namespace {

std::pair<int, int> process_grid(const BenchOptions& o, int nranks) {
  int px = o.nproc_x, py = o.nproc_y;
  if (px <= 0 && py <= 0) return wrf::choose_nproc(nranks);
  if (px <= 0 && nranks % py == 0) px = nranks / py;
  if (py <= 0 && nranks % px == 0) py = nranks / px;
  if (px <= 0 || py <= 0 || px * py != nranks) {
    throw Error(ErrorKind::InvalidArgument, "--nproc-x x --nproc-y = " + std::to_string(o.nproc_x) + " x " +
                                                std::to_string(o.nproc_y) + " does not match " +
                                                std::to_string(nranks) + " ranks");
  }
  return {px, py};
}

Case history_case(std::string label, int e_we, int e_sn, int e_vert, std::pair<int, int> grid) {
  Case c;
  c.label = std::move(label);
  c.e_we = e_we;
  c.e_sn = e_sn;
  c.e_vert = e_vert;
  c.nproc_x = grid.first;
  c.nproc_y = grid.second;
  wrf::HistorySchemaOptions h;
  h.e_we = e_we;
  h.e_sn = e_sn;
  h.e_vert = e_vert;
  h.nproc_x = c.nproc_x;
  h.nproc_y = c.nproc_y;
  c.schema = wrf::history_schema(h);
  c.frame_bytes = schema_frame_bytes(c.schema, e_we, e_sn, e_vert);
  return c;
}

int scaled(int staggered, double f) {
  return std::max(3, static_cast<int>(std::lround((staggered - 1) * f)) + 1);
}

// One matrix cell: n variables of one shape and type, n chosen so that the frame is about
// matrix_mb (at least 1, at most 500 variables).
Case matrix_case(const BenchOptions& o, int e_we, int e_sn, int e_vert, const std::string& shape, DataType type,
                 std::pair<int, int> grid) {
  Case c;
  c.shape = shape;
  c.type = std::string(to_string(type));
  c.e_we = e_we;
  c.e_sn = e_sn;
  c.e_vert = e_vert;
  c.nproc_x = grid.first;
  c.nproc_y = grid.second;
  char label[96];
  std::snprintf(label, sizeof label, "matrix %s %s %dx%d", shape.c_str(), c.type.c_str(), grid.first, grid.second);
  c.label = label;
  const MemoryOrder order = shape == "2d" ? MemoryOrder::XY : MemoryOrder::XZY;
  const Stagger stagger = shape == "stag" ? Stagger::X : Stagger::None;
  const std::int64_t ni = stagger == Stagger::X ? e_we : e_we - 1;
  const std::int64_t nk = order == MemoryOrder::XY ? 1 : e_vert - 1;
  const std::int64_t var_bytes = ni * (e_sn - 1) * nk * static_cast<std::int64_t>(size_of(type));
  const auto target = static_cast<std::int64_t>(o.matrix_mb * 1e6);
  const std::int64_t n = std::clamp<std::int64_t>((target + var_bytes / 2) / var_bytes, 1, 500);
  for (std::int64_t v = 0; v < n; ++v) {
    std::string name = std::to_string(v);
    name.insert(name.begin(), 'V');
    c.schema.add_variable(wrf::variable(std::move(name), type, order, stagger, "matrix cell variable", "1"));
  }
  c.frame_bytes = schema_frame_bytes(c.schema, e_we, e_sn, e_vert);
  return c;
}

}  // namespace

std::int64_t schema_frame_bytes(const Schema& schema, int e_we, int e_sn, int e_vert) {
  auto length = [&](const std::string& dim) -> std::int64_t {
    if (dim == wrf::kTime) return 1;
    if (dim == wrf::kWestEast) return e_we - 1;
    if (dim == wrf::kWestEastStag) return e_we;
    if (dim == wrf::kSouthNorth) return e_sn - 1;
    if (dim == wrf::kSouthNorthStag) return e_sn;
    if (dim == wrf::kBottomTop) return e_vert - 1;
    if (dim == wrf::kBottomTopStag) return e_vert;
    if (dim == wrf::kDateStrLen) return wrf::kDateStrLenValue;
    const DimSpec* d = schema.find_dimension(dim);
    if (!d) throw Error(ErrorKind::Schema, "nwpio-bench: unknown dimension " + dim);
    return d->length;
  };
  std::int64_t total = wrf::kDateStrLenValue;  // Times
  for (const VarSpec& v : schema.variables()) {
    std::int64_t n = static_cast<std::int64_t>(size_of(v.type));
    for (const std::string& dim : wrf::file_dimensions(v)) n *= length(dim);
    total += n;
  }
  return total;
}

std::vector<Case> make_cases(const BenchOptions& o, int nranks) {
  std::vector<Case> cases;
  if (o.workload == "wrf") {
    const double f = o.scale;
    const int we = o.e_we ? o.e_we : scaled(426, f), sn = o.e_sn ? o.e_sn : scaled(301, f);
    cases.push_back(history_case("wrf", we, sn, o.e_vert ? o.e_vert : 36, process_grid(o, nranks)));
  } else if (o.workload == "wrfreal") {
    const auto [px, py] = process_grid(o, nranks);
    cases.push_back(real_case(o.e_we ? o.e_we : 426, o.e_sn ? o.e_sn : 301, px, py));
  } else if (o.workload == "haps") {
    const double f = o.scale;
    const int we = o.e_we ? o.e_we : scaled(1281, f), sn = o.e_sn ? o.e_sn : scaled(961, f);
    char label[64];
    std::snprintf(label, sizeof label, "haps x%g", f);
    cases.push_back(history_case(label, we, sn, o.e_vert ? o.e_vert : 70, process_grid(o, nranks)));
  } else {
    const double f = o.scale;
    const int we = o.e_we ? o.e_we : scaled(426, f), sn = o.e_sn ? o.e_sn : scaled(301, f);
    const int vert = o.e_vert ? o.e_vert : 36;
    std::vector<std::pair<int, int>> grids;
    if (o.nproc_x > 0 || o.nproc_y > 0) {
      grids.push_back(process_grid(o, nranks));
    } else {
      for (auto g : {std::pair{1, nranks}, std::pair{nranks, 1}, wrf::choose_nproc(nranks)}) {
        if (std::find(grids.begin(), grids.end(), g) == grids.end()) grids.push_back(g);
      }
    }
    for (const char* shape : {"2d", "3d", "stag"}) {
      for (DataType type : {DataType::Float, DataType::Double, DataType::Int}) {
        for (auto g : grids) cases.push_back(matrix_case(o, we, sn, vert, shape, type, g));
      }
    }
  }
  return cases;
}

}  // namespace nwpio::bench
