// The workloads of nwpio-bench. A workload is a list of cases; every method
// writes every case's frame in the same run.
//   wrf:    WRF's 202-variable history frame (wrf::history_schema) on a CONUS-like grid,
//           425 x 300 x 35 mass points (--e-we 426 --e-sn 301 --e-vert 36).
//   haps:   the same frame on the HAPS 1 km grid, 1281 x 961 x 70 staggered counts; --scale F
//           scales the horizontal mass points (1280 F x 960 F), the levels stay.
//   matrix: in the spirit of netCDF's nctime tables, one case per variable shape (2-D, 3-D,
//           X-staggered 3-D) x type (float, double, int) x decomposition (1xN, Nx1, near
//           square; duplicates for small N are run once).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "bench_options.hpp"
#include "nwpio/schema.hpp"

namespace nwpio::bench {

struct Case {
  std::string label;                 // "wrf", "haps x0.5", "matrix 3d float 2x1"
  std::string shape, type;           // matrix only
  int e_we = 0, e_sn = 0, e_vert = 0;  // staggered counts
  int nproc_x = 1, nproc_y = 1;
  Schema schema;
  // Bytes of one frame that opens its file: every variable's file extent times its element
  // size, plus Times (19 chars). Computed here from the schema alone, independently of nwpio.
  std::int64_t frame_bytes = 0;
  bool real_fields = false;  // wrfreal: filled from a real wrfout (workload_real.hpp), not the fill rule
};

std::vector<Case> make_cases(const BenchOptions& options, int nranks);

// The schema's frame bytes on a grid of staggered counts e_we x e_sn x e_vert.
std::int64_t schema_frame_bytes(const Schema& schema, int e_we, int e_sn, int e_vert);

}  // namespace nwpio::bench
