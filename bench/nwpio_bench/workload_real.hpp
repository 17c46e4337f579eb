// The real-field workload: compression ratios on the fill rule mean nothing,
// so "wrfreal" writes the fields of a real WRF 4.7.1 run, ../shared/wrf/em_quarter_ss/
// wrfout_io_form11.nc (idealised supercell, 41 x 41 x 40 mass points, 161 fields + Times), on the
// benchmark's horizontal grid: the schema is the file's variables (names, types, dimensions,
// WRF attributes), the vertical grid is the file's (e_vert 41), and every field is the file's
// last record tiled horizontally by mirroring (i -> 0..n-1, n-1..0, ...; the same for j), so
// that the tiles meet without seams. Mirrored copies repeat every 2n points, which deflate
// partly finds: docs/COMPRESSION.md gives the original file's ratio beside the tiled one's.
#pragma once

#include <string>

#include "synthetic.hpp"
#include "workload.hpp"

namespace nwpio::bench {

// The case on an e_we x e_sn grid (staggered counts), px x py ranks. Reads the file's header
// (netCDF-C). Throws Error(Netcdf) naming the file when it cannot be read.
Case real_case(int e_we, int e_sn, int px, int py);

// Fills every field of `model` (this rank's fill boxes) from the file's last record, tiled.
void fill_real_fields(synthetic::SyntheticModel& model, const Decomposition& decomposition);

// Reads record 0 of every variable of `schema` from the written file `path` (netCDF-C) and
// compares each value with the tiled source as fill_real_fields put it: exactly, or for
// floating-point variables within `tolerance` relative to the value when a method quantizes.
synthetic::VerifyResult verify_real_file(const std::string& path, const Schema& schema, double tolerance = 0);

// The tolerance verify_real_file gets for a method: a quantizing one (its name says "gbr":
// GranularBR, 3 significant digits) within 1% of each value, still far from a wrong or empty
// file; every other method exactly.
inline double real_file_tolerance(const std::string& method) {
  return method.find("gbr") != std::string::npos ? 1e-2 : 0;
}

}  // namespace nwpio::bench
