#include "core/decomposition_check.hpp"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <set>

namespace nwpio::detail {
namespace {

std::string rank_box(std::size_t rank, const Box& box) {
  return "rank " + std::to_string(rank) + " " + box.str();
}

// Sorted distinct values of lo and hi along `axis`, clipped to the domain.
std::vector<std::int64_t> cuts(const std::vector<RankBoxes>& ranks, const Box& domain, int axis) {
  std::vector<std::int64_t> v{domain.lo[axis], domain.hi[axis]};
  for (const auto& r : ranks) {
    v.push_back(std::clamp(r.patch.lo[axis], domain.lo[axis], domain.hi[axis]));
    v.push_back(std::clamp(r.patch.hi[axis], domain.lo[axis], domain.hi[axis]));
  }
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

std::size_t index_of(const std::vector<std::int64_t>& v, std::int64_t x) {
  return static_cast<std::size_t>(std::lower_bound(v.begin(), v.end(), x) - v.begin());
}

// One region of the domain that no patch covers, found on the grid of cells cut by every patch
// boundary (each cell is either wholly covered by one patch or not at all, since patches do not
// overlap). Empty optional when that grid would be too large to paint.
std::optional<Box> find_gap(const std::vector<RankBoxes>& ranks, const Box& domain) {
  std::array<std::vector<std::int64_t>, 3> c{cuts(ranks, domain, 0), cuts(ranks, domain, 1), cuts(ranks, domain, 2)};
  const std::size_t n0 = c[0].size() - 1, n1 = c[1].size() - 1, n2 = c[2].size() - 1;
  constexpr std::size_t kMaxCells = std::size_t{16} << 20;
  if (n0 == 0 || n1 == 0 || n2 == 0 || n0 > kMaxCells / n1 / n2) return std::nullopt;
  std::vector<unsigned char> covered(n0 * n1 * n2, 0);
  for (const auto& r : ranks) {
    std::array<std::size_t, 3> lo{}, hi{};
    for (int a = 0; a < 3; ++a) {
      lo[a] = index_of(c[a], r.patch.lo[a]);
      hi[a] = index_of(c[a], r.patch.hi[a]);
    }
    for (std::size_t k = lo[2]; k < hi[2]; ++k)
      for (std::size_t j = lo[1]; j < hi[1]; ++j)
        for (std::size_t i = lo[0]; i < hi[0]; ++i) covered[(k * n1 + j) * n0 + i] = 1;
  }
  for (std::size_t k = 0; k < n2; ++k)
    for (std::size_t j = 0; j < n1; ++j)
      for (std::size_t i = 0; i < n0; ++i) {
        if (covered[(k * n1 + j) * n0 + i]) continue;
        Box gap;
        gap.lo = {c[0][i], c[1][j], c[2][k]};
        gap.hi = {c[0][i + 1], c[1][j + 1], c[2][k + 1]};
        // Grow along i while the next cells are uncovered too, so the message names a whole run.
        std::size_t e = i + 1;
        while (e < n0 && !covered[(k * n1 + j) * n0 + e]) gap.hi[0] = c[0][++e];
        return gap;
      }
  return std::nullopt;
}

// Sweep axis: the one with the most distinct patch starts, so that few patches share a range.
int sweep_axis(const std::vector<RankBoxes>& ranks) {
  int best = 0;
  std::size_t best_count = 0;
  for (int a = 0; a < 3; ++a) {
    std::set<std::int64_t> starts;
    for (const auto& r : ranks) starts.insert(r.patch.lo[a]);
    if (starts.size() > best_count) {
      best_count = starts.size();
      best = a;
    }
  }
  return best;
}

std::optional<std::string> find_overlap(const std::vector<RankBoxes>& ranks) {
  const int a = sweep_axis(ranks);
  std::vector<std::size_t> order(ranks.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
    return ranks[x].patch.lo[a] != ranks[y].patch.lo[a] ? ranks[x].patch.lo[a] < ranks[y].patch.lo[a] : x < y;
  });
  // Report the overlapping pair with the lowest (first rank, second rank), whatever the sweep
  // order, so that the message does not depend on how the sweep happened to meet them.
  std::optional<std::pair<std::size_t, std::size_t>> worst;
  for (std::size_t p = 0; p < order.size(); ++p) {
    const Box& bp = ranks[order[p]].patch;
    for (std::size_t q = p + 1; q < order.size() && ranks[order[q]].patch.lo[a] < bp.hi[a]; ++q) {
      if (bp.intersect(ranks[order[q]].patch).empty()) continue;
      const std::pair<std::size_t, std::size_t> pair{std::min(order[p], order[q]), std::max(order[p], order[q])};
      if (!worst || pair < *worst) worst = pair;
    }
  }
  if (!worst) return std::nullopt;
  const auto [r1, r2] = *worst;
  return "decomposition: patches of " + rank_box(r1, ranks[r1].patch) + " and " + rank_box(r2, ranks[r2].patch) +
         " overlap in " + ranks[r1].patch.intersect(ranks[r2].patch).str();
}

}  // namespace

std::optional<std::string> check_tiling(const std::vector<RankBoxes>& ranks) {
  if (ranks.empty()) return "decomposition: no ranks";
  const Box& domain = ranks[0].domain;
  if (domain.empty()) return "decomposition: the domain " + domain.str() + " of rank 0 is empty";
  // Box indices are file indices: the domain starts at 0 (WRF's ids = jds = kds = 1).
  if (domain.lo != std::array<std::int64_t, 3>{0, 0, 0}) {
    return "decomposition: the domain " + domain.str() + " of rank 0 does not start at 0 on every axis (ids = jds = kds = 1)";
  }
  for (std::size_t r = 1; r < ranks.size(); ++r) {
    if (!(ranks[r].domain == domain)) {
      return "decomposition: rank " + std::to_string(r) + " has domain " + ranks[r].domain.str() +
             " but rank 0 has domain " + domain.str() + "; every rank must pass the same domain";
    }
  }
  for (std::size_t r = 0; r < ranks.size(); ++r) {
    const RankBoxes& b = ranks[r];
    if (b.patch.empty()) return "decomposition: patch of " + rank_box(r, b.patch) + " is empty";
    if (!domain.contains(b.patch)) {
      return "decomposition: patch of " + rank_box(r, b.patch) + " is not inside the domain " + domain.str();
    }
    if (!b.memory.contains(b.patch)) {
      return "decomposition: memory " + b.memory.str() + " of rank " + std::to_string(r) +
             " does not contain its patch " + b.patch.str();
    }
  }
  if (ranks.size() > 1) {
    if (auto overlap = find_overlap(ranks)) return overlap;
  }
  std::int64_t covered = 0;
  for (const auto& b : ranks) covered += b.patch.volume();
  if (covered != domain.volume()) {
    std::string text = "decomposition: the patches do not cover the domain " + domain.str() + " (they hold " +
                       std::to_string(covered) + " of " + std::to_string(domain.volume()) + " points)";
    if (auto gap = find_gap(ranks, domain)) {
      text += "; no patch covers " + gap->str() + " (" + std::to_string(gap->volume()) + " points)";
    }
    return text;
  }
  return std::nullopt;
}

}  // namespace nwpio::detail
