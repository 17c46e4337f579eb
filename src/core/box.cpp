#include "nwpio/box.hpp"

#include <algorithm>

namespace nwpio {

bool Box::contains(const Box& other) const noexcept {
  if (other.empty()) return true;
  for (int a = 0; a < 3; ++a) {
    if (other.lo[a] < lo[a] || other.hi[a] > hi[a]) return false;
  }
  return true;
}

Box Box::intersect(const Box& other) const noexcept {
  Box r;
  for (int a = 0; a < 3; ++a) {
    r.lo[a] = std::max(lo[a], other.lo[a]);
    r.hi[a] = std::max(r.lo[a], std::min(hi[a], other.hi[a]));
  }
  return r;
}

std::string Box::str() const {
  std::string s;
  for (int a = 0; a < 3; ++a) {
    if (a) s += 'x';
    s += '[' + std::to_string(lo[a]) + ',' + std::to_string(hi[a]) + ')';
  }
  return s;
}

}  // namespace nwpio
