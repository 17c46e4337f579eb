// Where a Fortran namelist READ of group `name` begins in a file: gfortran's rule, which WRF's
// `read(unit, nml=...)` follows. Everything before the group is skipped unread: free text,
// blank lines, other groups (not even their strings are read). Found by testing gfortran
// (tests/namelist_gfortran); docs/NAMELIST.md lists the rule.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace nwpio::detail {

// The offset of the first '&name' or '$name' (case-insensitive; the name ends at a character
// that cannot be part of a name) outside the part of a line after a '!'. Note that, as in
// gfortran, '!' and '&' inside strings of skipped groups are not known to be inside strings.
std::optional<std::size_t> find_group_start(std::string_view text, std::string_view name);

}  // namespace nwpio::detail
