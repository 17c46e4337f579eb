// Element types, staggering and memory orders as WRF names them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace nwpio {

// One DataType enum for every element type a stream writes.
enum class DataType { Float, Double, Int, Char };

std::size_t size_of(DataType type) noexcept;
std::string_view to_string(DataType type) noexcept;

template <class T> struct DataTypeOf;
template <> struct DataTypeOf<float> { static constexpr DataType value = DataType::Float; };
template <> struct DataTypeOf<double> { static constexpr DataType value = DataType::Double; };
template <> struct DataTypeOf<std::int32_t> { static constexpr DataType value = DataType::Int; };
template <> struct DataTypeOf<char> { static constexpr DataType value = DataType::Char; };

// WRF's stagger attribute: "", "X", "Y", "Z".
// XY: staggered along both horizontal axes (WRF's restart has such fields, e.g. SPFORCC5).
enum class Stagger { None, X, Y, Z, XY };
std::string_view to_string(Stagger stagger) noexcept;  // "", "X", "Y", "Z", "XY"
inline bool staggered_along(Stagger s, int axis) noexcept {  // axis 0 = i, 1 = j, 2 = k
  return (axis == 0 && (s == Stagger::X || s == Stagger::XY)) || (axis == 1 && (s == Stagger::Y || s == Stagger::XY)) ||
         (axis == 2 && s == Stagger::Z);
}

// How the model holds the array in memory (Fortran order, first letter fastest):
//   XZY: (i, k, j) -- WRF's 3-D arrays (ims:ime, kms:kme, jms:jme)
//   XYZ: (i, j, k)
//   XY : (i, j)    -- 2-D (ims:ime, jms:jme)
//   Z  : (k)       -- 1-D vertical (kms:kme), or a named non-decomposed dimension
//   Scalar ("0"): one value
// The file always holds (Time, k, j, i); WRF's MemoryOrder attribute says "XYZ" for
// both 3-D memory orders (see wrf::memory_order_attribute).
enum class MemoryOrder { XZY, XYZ, XY, Z, Scalar };
std::string_view to_string(MemoryOrder order) noexcept;  // "XZY", "XYZ", "XY", "Z", "0"

inline bool is_3d(MemoryOrder o) noexcept { return o == MemoryOrder::XZY || o == MemoryOrder::XYZ; }
inline bool is_decomposed(MemoryOrder o) noexcept { return is_3d(o) || o == MemoryOrder::XY; }

}  // namespace nwpio
