// Made-up WRF calls for the package's unit tests: the bounds WRF passes for a field on one rank
// of a px x py split of a grid of E_WE x E_SN x E_VERT staggered points, as WRF computes them
// (the first tasks get one more point; the last patch along x and y holds the staggered end;
// memory with a halo of 3, not clipped at the domain's edges).
#pragma once

#include <algorithm>
#include <string>

#include "wrfio/field_call.hpp"

namespace nwpio::wrfio::test {

inline constexpr int kWe = 14, kSn = 11, kVert = 6, kHalo = 3;

struct Rank {
  int px = 1, py = 1, rx = 0, ry = 0;
};

// WRF's split of n points over p tasks: the first n % p tasks get one more.
inline void split(int n, int p, int r, int& s, int& e) {
  s = r * (n / p) + std::min(r, n % p) + 1;
  e = s + n / p - 1 + (r < n % p ? 1 : 0);
}

// write_field's arguments for a field with this memory order ("XZY", "XYZ", "XY", "Z") and
// stagger ("", "X", "Y", "Z", "XY") on `rank`; a Z field over `kdim` of length `klen`.
inline RawFieldArgs field_on(const std::string& name, const std::string& order, const std::string& stagger,
                             const Rank& rank, const std::string& kdim = "bottom_top", int klen = kVert - 1) {
  const bool sx = stagger == "X" || stagger == "XY", sy = stagger == "Y" || stagger == "XY";
  const int ide = sx ? kWe : kWe - 1, jde = sy ? kSn : kSn - 1;
  const int kde = stagger == "Z" && kdim == "bottom_top" ? kVert : klen;
  const int kme = kdim == "bottom_top" ? kVert : klen;  // the model's k memory, or the named dimension's
  int ips = 0, ipe = 0, jps = 0, jpe = 0;
  split(kWe - 1, rank.px, rank.rx, ips, ipe);
  split(kSn - 1, rank.py, rank.ry, jps, jpe);
  const int ims = ips - kHalo, ime = ipe + kHalo, jms = jps - kHalo, jme = jpe + kHalo;
  if (rank.rx == rank.px - 1) ipe = ide;
  if (rank.ry == rank.py - 1) jpe = jde;
  RawFieldArgs a;
  a.var = name;
  a.date = "2001-01-01_00:00:00";
  a.memory_order = order;
  a.stagger = stagger;
  a.field_type = 104;
  const std::string x = sx ? "west_east_stag" : "west_east", y = sy ? "south_north_stag" : "south_north";
  const std::string k = stagger == "Z" && kdim == "bottom_top" ? "bottom_top_stag" : kdim;
  auto set = [&](int p, const std::string& dim, int de, int ms, int me, int ps, int pe) {
    a.dim_names[p] = dim;
    a.domain_start[p] = 1;
    a.domain_end[p] = de;
    a.memory_start[p] = ms;
    a.memory_end[p] = me;
    a.patch_start[p] = ps;
    a.patch_end[p] = pe;
  };
  for (int p = 0; p < 3; ++p) set(p, "", 1, 1, 1, 1, 1);
  if (order == "XZY") {
    set(0, x, ide, ims, ime, ips, ipe);
    set(1, k, kde, 1, kme, 1, kde);
    set(2, y, jde, jms, jme, jps, jpe);
  } else if (order == "XYZ") {
    set(0, x, ide, ims, ime, ips, ipe);
    set(1, y, jde, jms, jme, jps, jpe);
    set(2, k, kde, 1, kme, 1, kde);
  } else if (order == "XY") {
    set(0, x, ide, ims, ime, ips, ipe);
    set(1, y, jde, jms, jme, jps, jpe);
  } else if (order == "Z") {
    set(0, k, kde, 1, kde, 1, kde);
  }
  return a;
}

}  // namespace nwpio::wrfio::test
