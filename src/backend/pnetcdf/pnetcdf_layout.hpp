// Where PnetCDF put things in an open classic file (CDF-2/CDF-5): the offsets writers stage
// their slabs at, and the facts the hint report and the disk guard check against. Read from
// PnetCDF itself (ncmpi_inq_varoffset, ncmpi_inq_recsize, ncmpi_inq_header_size/extent), never
// recomputed: the header's size decides where the data begins.
#pragma once

#include <string>

#include "backend/backend.hpp"

namespace nwpio::detail {

// Every variable's offset (record 0) and the record size. Throws Error(Pnetcdf).
SlabPlacement pnetcdf_placement(int ncid, const FileLayout& layout, const std::string& path);

// Header size and extent, offsets, and where the file ends after n records; unknown when the
// file is not open or PnetCDF cannot say.
LayoutFacts pnetcdf_layout_facts(int ncid, const FileLayout& layout);

// The same facts of a closed classic file, read back through PnetCDF on this rank alone (the
// offsets are the header's own: the same whichever library wrote it). By path, not by handle:
// a PnetCDF linked statically into libnwpio knows only the handles it opened itself.
// Throws Error(Pnetcdf) when the file cannot be opened.
LayoutFacts pnetcdf_layout_facts_of_file(const std::string& path, const FileLayout& layout);

}  // namespace nwpio::detail
