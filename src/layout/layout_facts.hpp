// What an open file really looks like, as its backend reports it: the vocabulary shared by the
// backends (which know it), the hint report (which verifies alignment against it) and the disk
// guard (which checks room and the final size against it). No backend, no format code here.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <string>

namespace nwpio::detail {

// Where a file ends after n records, when its backend can tell (classic netCDF formats).
struct FileExtent {
  bool known = false;
  std::int64_t fixed_end = 0;              // end of the header and the fixed-size variables
  std::int64_t last_record_var = -1;       // offset of the last record variable in record 0
  std::int64_t record_size = 0;            // bytes per record (padded by the format's rules)
  std::int64_t last_record_var_bytes = 0;  // its own bytes per record (unpadded)
  // Bytes a complete file with `records` records has (the last record ends with its last
  // variable's own bytes: writers need not write its padding).
  std::int64_t end_after(std::int64_t records) const noexcept {
    if (!known) return 0;
    if (records <= 0 || last_record_var < 0) return fixed_end;
    return std::max(fixed_end, last_record_var + (records - 1) * record_size + last_record_var_bytes);
  }
};

struct LayoutFacts {
  bool known = false;
  std::int64_t header_size = 0;    // bytes used by the header
  std::int64_t header_extent = 0;  // bytes reserved for the header (offset of the first variable)
  std::map<std::string, std::int64_t> var_offsets;  // begin of each variable
  std::set<std::string> record_vars;                // which of them are record variables
  std::string header_source = "header extent";      // how the backend learned them (for the report)
  std::string offset_source = "variable offsets";
  FileExtent extent;
  // What the MPI-IO layer says of the open file (MPI_File_get_info on the backend's handle; the
  // PnetCDF keys left out), and how it was read; empty source: the backend cannot ask.
  std::map<std::string, std::string> mpiio_info;
  std::string mpiio_info_source;
  // The header's library opened the file on rank 0 alone (over MPI_COMM_SELF): no collective
  // write, so no aggregator; the writers write their own slabs.
  bool mpiio_on_rank0_alone = false;
  // What PnetCDF 1.14 and later chose by themselves (nc_driver, nc_num_aggrs_per_node,
  // nc_ina_node_list, file_striping), from the same query; empty for a PnetCDF that does not say.
  std::map<std::string, std::string> pnetcdf_choices;
};

}  // namespace nwpio::detail
