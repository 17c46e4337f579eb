// nwpio-compare: are two netCDF files the same dataset? Dimensions (names, lengths, order),
// variables (names, types, dimensions, order), every attribute (names, types, values bit for bit,
// order), and -- unless only the header is asked for -- every value of every variable, bit for
// bit. Reads through netCDF-C, so netCDF-4 (WRF's io_form 2) and CDF-2/CDF-5 (io_form 11) files
// compare alike; the storage format itself and netCDF-4's hidden attributes (chunking,
// compression, _NCProperties) are what may differ.
#pragma once

#include <cstddef>
#include <set>
#include <string>
#include <vector>

namespace nwpio::compare {

struct Options {
  bool header_only = false;
  // Compare only the last record of each file (e.g. the final frame of a continuous run with
  // that of a restarted one); the record counts may then differ.
  bool last_record = false;
  std::set<std::string> ignore_global;      // global attributes whose values may differ
  std::set<std::string> ignore_variables;   // variables whose values may differ (header still checked)
  std::size_t max_differences = 20;         // lines reported before "... and N more"
};

struct Result {
  std::vector<std::string> differences;  // at most max_differences lines
  std::size_t count = 0;                 // all differences found
  std::size_t variables = 0, attributes = 0, values = 0;
  std::string format_a, format_b;
};

// Throws std::runtime_error when a file cannot be opened or read.
Result compare_files(const std::string& a, const std::string& b, const Options& options);

}  // namespace nwpio::compare
