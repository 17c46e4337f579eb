// Small text helpers shared by the configuration readers.
#pragma once

#include <cctype>
#include <string>
#include <string_view>

namespace nwpio::detail {

// ASCII lower case (Fortran namelist names and nwpio's keys are case-insensitive).
inline std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// 'text' in single quotes, for "found ..." in error messages. Built by appends: GCC 12 gives a
// false -Wrestrict warning on "'" + std::string(...) after inlining.
inline std::string quoted(std::string_view text) {
  std::string out = "'";
  out.append(text).append("'");
  return out;
}

}  // namespace nwpio::detail
