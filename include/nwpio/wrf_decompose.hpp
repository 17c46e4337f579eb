// WRF's own domain decomposition, for models and tools that decompose as WRF does
// (nwpio-demo, the benchmarks, the tests; the Fortran example mirrors it).
#pragma once

#include <utility>

#include "nwpio/decomposition.hpp"

namespace nwpio::wrf {

// nproc_x x nproc_y for `nranks` as WRF's MPASPECT chooses it: the most nearly square
// factorisation, nproc_x <= nproc_y on ties (2 ranks -> 1 x 2).
std::pair<int, int> choose_nproc(int nranks);

// WRF bounds of `rank` (x fastest: rank = jtask * nproc_x + itask) for a domain of staggered
// counts e_we x e_sn x e_vert split over nproc_x x nproc_y, with `halo` points of memory halo
// on every side. The unstaggered counts (e_we - 1, e_sn - 1) are split as evenly as possible
// (the first tasks get one extra point); the last patch along an axis also holds the
// staggered end (ipe = ide = e_we). Throws Error(Decomposition) if a patch would be empty.
WrfBounds split_domain(int e_we, int e_sn, int e_vert, int nproc_x, int nproc_y, int rank, int halo = 3);

}  // namespace nwpio::wrf
