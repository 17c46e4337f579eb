// A written file read a second time, through a library other than netCDF-C (which reads every
// file first, value by value, against the test model's rule): a classic file through PnetCDF,
// a netCDF-4 file through HDF5 itself. Whichever library wrote a file, one that did not write it
// then reads every value: PnetCDF's files through netCDF-C, netCDF-C's classic files through
// PnetCDF, netCDF-4 (netCDF-C over HDF5) through HDF5 without netCDF-C's layer.
#pragma once

#include <string>

#include "nc_reader.hpp"

namespace nwpio::test {

// Whether this test binary has a second reader for files of netCDF-C format code `format`
// (PnetCDF for classic, HDF5 for netCDF-4; a build without one has none).
bool has_second_reader(int format);
// Its name ("PnetCDF", "HDF5").
const char* second_reader_name(int format);

// Rank-local (call on one rank): reads `path` through the second reader and reports, through
// gtest, every difference from `first` (netCDF-C's read_nc() of the same file): the format,
// dimensions, variables with their dimensions, types, attributes (classic) and every value.
void expect_second_reader_agrees(const std::string& path, const NcFile& first);

}  // namespace nwpio::test
