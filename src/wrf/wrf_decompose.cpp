#include "nwpio/wrf_decompose.hpp"

#include <cstdlib>
#include <string>

#include "nwpio/error.hpp"

namespace nwpio::wrf {
namespace {

[[noreturn]] void invalid(const std::string& text) { throw Error(ErrorKind::InvalidArgument, "split_domain: " + text); }

// 1-based inclusive patch [start, end] of task `t` of `ntasks` along an axis of staggered count
// `e` (e - 1 unstaggered points): the first (e - 1) % ntasks tasks get one extra point, and the
// last task also holds the staggered end e.
std::pair<int, int> split_axis(const char* axis, int e, int ntasks, int t) {
  const int n = e - 1;
  if (n < ntasks) {
    throw Error(ErrorKind::Decomposition, std::string("split_domain: ") + axis + " has " + std::to_string(n) +
                                              " unstaggered points, too few for " + std::to_string(ntasks) +
                                              " tasks: a patch would be empty");
  }
  const int base = n / ntasks;
  const int rem = n % ntasks;
  const int start = 1 + t * base + (t < rem ? t : rem);
  int end = start + base + (t < rem ? 1 : 0) - 1;
  if (t == ntasks - 1) end = e;
  return {start, end};
}

}  // namespace

std::pair<int, int> choose_nproc(int nranks) {
  if (nranks < 1) throw Error(ErrorKind::InvalidArgument, "choose_nproc: " + std::to_string(nranks) + " ranks; need at least 1");
  // WRF's MPASPECT: over the divisors M of P in increasing order keep the first with a strictly
  // smaller |M - P/M|; nproc_x = M, nproc_y = P/M.
  int best = 2 * nranks;
  std::pair<int, int> result{1, nranks};
  for (int m = 1; m <= nranks; ++m) {
    if (nranks % m != 0) continue;
    const int n = nranks / m;
    if (std::abs(m - n) < best) {
      best = std::abs(m - n);
      result = {m, n};
    }
  }
  return result;
}

WrfBounds split_domain(int e_we, int e_sn, int e_vert, int nproc_x, int nproc_y, int rank, int halo) {
  if (e_we < 2 || e_sn < 2 || e_vert < 2) {
    invalid("e_we, e_sn, e_vert = " + std::to_string(e_we) + ", " + std::to_string(e_sn) + ", " + std::to_string(e_vert) +
            "; each staggered count must be at least 2");
  }
  if (nproc_x < 1 || nproc_y < 1) {
    invalid("nproc_x x nproc_y = " + std::to_string(nproc_x) + " x " + std::to_string(nproc_y) + "; both must be at least 1");
  }
  if (rank < 0 || rank >= nproc_x * nproc_y) {
    invalid("rank " + std::to_string(rank) + " is not in 0.." + std::to_string(nproc_x * nproc_y - 1));
  }
  if (halo < 0) invalid("halo " + std::to_string(halo) + " is negative");

  const int itask = rank % nproc_x;
  const int jtask = rank / nproc_x;
  const auto [ips, ipe] = split_axis("west_east", e_we, nproc_x, itask);
  const auto [jps, jpe] = split_axis("south_north", e_sn, nproc_y, jtask);

  WrfBounds b{};
  b.ids = 1, b.ide = e_we, b.jds = 1, b.jde = e_sn, b.kds = 1, b.kde = e_vert;
  b.ips = ips, b.ipe = ipe, b.jps = jps, b.jpe = jpe, b.kps = 1, b.kpe = e_vert;
  // Memory is the patch plus the halo on every side, also beyond the domain edge, as WRF
  // allocates it; there is no halo in k.
  b.ims = ips - halo, b.ime = ipe + halo, b.jms = jps - halo, b.jme = jpe + halo, b.kms = 1, b.kme = e_vert;
  return b;
}

}  // namespace nwpio::wrf
