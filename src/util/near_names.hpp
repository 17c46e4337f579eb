// "Did you mean ...?" for a misspelled name: an edit distance and the nearest of a list of valid
// names. Used for hint settings, profile names and namelist keys.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace nwpio::detail {

// Insertions, deletions, substitutions and swaps of two neighbouring characters that turn `a`
// into `b` (the optimal string alignment distance: Levenshtein's, with "histroy" one edit from
// "history").
std::size_t edit_distance(std::string_view a, std::string_view b);

// The nearest name among `candidates`, or "" when none is close (distance above
// max(2, length/3)).
std::string nearest(std::string_view name, const std::vector<std::string>& candidates);

}  // namespace nwpio::detail
