// nwpio-bp2nc: turns a history file written by WRF's ADIOS2 package (io_form 14, BP4/BP5) into a
// WRF-conventional netCDF file that ncdump, CDO, NCL and xarray read, through ADIOS2's own reader.
//
// What WRF's package records, and how it maps:
//   _DIM_<name> (global int attribute)   -> dimension <name> of that length; Time is unlimited
//   <var>/Dims  (string array, Fortran order, Time last) -> the variable's dimensions, reversed
//                                           (C order: Time first); a 0-D field has Dims = [Time]
//                                           and an ADIOS2 shape of [1]
//   <var>/<att> (any other)              -> attribute <att> of <var> (FieldType, MemoryOrder, ...)
//   other global attributes              -> global attributes
//   step s of the BP file                -> record s (Times holds each step's date string)
// The file is CDF-2 (64-bit offset), NOFILL, as WRF's io_form 11 writes it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace nwpio::bp2nc {

struct ConvertOptions {
  // Variables in this order first (e.g. a reference file's order), the rest sorted by name;
  // empty: Times, then every variable sorted by name.
  std::vector<std::string> order;
};

struct ConvertResult {
  int records = 0;
  int variables = 0;       // Times included
  std::int64_t bytes = 0;  // data bytes written (all records)
};

// Throws std::runtime_error naming the file, the variable and the library's message.
ConvertResult convert(const std::string& bp_path, const std::string& nc_path, const ConvertOptions& options);

// The variable names of a netCDF file in id order (for ConvertOptions::order).
std::vector<std::string> netcdf_variable_order(const std::string& nc_path);

}  // namespace nwpio::bp2nc
