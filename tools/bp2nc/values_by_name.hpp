// Does a converted file hold the reference's data? Variables are matched by NAME (a converted
// file orders variables, dimensions and attributes as its source allows, not as WRF's netCDF
// package does), and then compared as nwpio-compare does: type, dimension names and lengths,
// every value of every record bit for bit, and every attribute of the reference (name, type,
// value) on the same variable. Extra variables or attributes in the converted file, and
// attributes whose values may differ (ignore), count as differences only when not ignored. Text
// attributes that differ only in leading or trailing blanks and NULs (ADIOS2 keeps strings
// trimmed, WRF pads them) are equal, and counted apart.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace nwpio::bp2nc {

struct ValuesResult {
  std::vector<std::string> differences;  // the first max_shown
  std::size_t count = 0;
  std::size_t variables = 0, attributes = 0;
  std::size_t padding_only = 0;  // text attributes equal only without their padding
  std::int64_t values = 0;
};

// Reads both with netCDF-C. Throws std::runtime_error when a file cannot be read.
ValuesResult compare_by_name(const std::string& reference, const std::string& file, const std::set<std::string>& ignore,
                             std::size_t max_shown = 20);

}  // namespace nwpio::bp2nc
