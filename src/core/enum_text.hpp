// Memory order and staggering from their text spellings, in one place and with one set of
// accepted values for every front end: the C API (and through it the Fortran module) and WRF's
// I/O package. Case and surrounding blanks do not matter ("xzy ", " Xy" are accepted).
#pragma once

#include <optional>
#include <string_view>

#include "nwpio/types.hpp"

namespace nwpio::detail {

// "XZY", "XYZ", "XY", "Z", "C", "0". "C" is WRF's name for a 1-D array that is not over the
// model's vertical grid (FCX over spec_bdy_width); it is laid out as "Z". "0" is a scalar.
std::optional<MemoryOrder> memory_order_from_text(std::string_view text);

// "" (none), "X", "Y", "Z", "XY" (also spelt "YX").
std::optional<Stagger> stagger_from_text(std::string_view text);

// The accepted spellings, as error messages list them: "'XZY', 'XYZ', 'XY', 'Z', 'C', '0'".
std::string_view memory_order_choices() noexcept;
std::string_view stagger_choices() noexcept;

// The same, throwing Error(InvalidArgument) "<what> '<text>' is not one of <choices>" (what:
// the argument's name as the caller's users know it, e.g. "memory order").
MemoryOrder parse_memory_order(std::string_view text, std::string_view what = "memory order");
Stagger parse_stagger(std::string_view text, std::string_view what = "stagger");

}  // namespace nwpio::detail
