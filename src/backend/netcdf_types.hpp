// What netCDF-C and PnetCDF share and nwpio's netCDF backends use alike: the classic type codes
// (the same numbers in both libraries; each backend static_asserts that its header agrees) and
// one way to hand an attribute to a library's typed put_att calls.
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "nwpio/schema.hpp"
#include "nwpio/types.hpp"

namespace nwpio::detail {

// NC_CHAR 2, NC_INT 4, NC_FLOAT 5, NC_DOUBLE 6.
constexpr int kNcChar = 2, kNcInt = 4, kNcFloat = 5, kNcDouble = 6;

constexpr int nc_type_of(DataType type) noexcept {
  switch (type) {
    case DataType::Float: return kNcFloat;
    case DataType::Double: return kNcDouble;
    case DataType::Int: return kNcInt;
    case DataType::Char: return kNcChar;
  }
  return 0;
}

// Calls put(nc type code, values) with the attribute's values: text as std::string, numbers as
// their vector. The library-specific call is the caller's.
template <class Put>
void put_attribute_values(const Attribute& attribute, Put&& put) {
  std::visit(
      [&](const auto& value) {
        using V = std::decay_t<decltype(value)>;
        if constexpr (std::is_same_v<V, std::string>) {
          put(kNcChar, value);
        } else if constexpr (std::is_same_v<V, std::vector<std::int32_t>>) {
          put(kNcInt, value);
        } else if constexpr (std::is_same_v<V, std::vector<float>>) {
          put(kNcFloat, value);
        } else {
          static_assert(std::is_same_v<V, std::vector<double>>);
          put(kNcDouble, value);
        }
      },
      attribute.value);
}

}  // namespace nwpio::detail
