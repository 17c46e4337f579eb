// Box: the one type for extents inside nwpio. 0-based, half-open [lo, hi) per axis.
// Axis 0 = i (west_east), 1 = j (south_north), 2 = k (vertical). WRF's 1-based inclusive
// bounds are converted once, at the API edge (Decomposition::from_wrf, the C/Fortran layer).
#pragma once

#include <array>
#include <cstdint>
#include <string>

namespace nwpio {

enum Axis : int { kAxisI = 0, kAxisJ = 1, kAxisK = 2 };

struct Box {
  std::array<std::int64_t, 3> lo{0, 0, 0};
  std::array<std::int64_t, 3> hi{0, 0, 0};

  std::int64_t extent(int axis) const noexcept { return hi[axis] > lo[axis] ? hi[axis] - lo[axis] : 0; }
  std::int64_t volume() const noexcept { return extent(0) * extent(1) * extent(2); }
  bool empty() const noexcept { return volume() == 0; }
  bool contains(const Box& other) const noexcept;
  Box intersect(const Box& other) const noexcept;
  bool operator==(const Box&) const = default;
  // "[lo0,hi0)x[lo1,hi1)x[lo2,hi2)" for error messages.
  std::string str() const;
};

}  // namespace nwpio
