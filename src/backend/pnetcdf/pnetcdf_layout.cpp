#include "backend/pnetcdf/pnetcdf_layout.hpp"

#include <pnetcdf.h>

#include <algorithm>
#include <set>

#include "backend/pnetcdf/pnetcdf_check.hpp"
#include "mpiio/mpi_info.hpp"
#include "nwpio/error.hpp"

namespace nwpio::detail {

SlabPlacement pnetcdf_placement(int ncid, const FileLayout& layout, const std::string& path) {
  SlabPlacement p;
  for (std::size_t v = 0; v < layout.vars.size(); ++v) {
    MPI_Offset off = 0;
    pnetcdf_check(ncmpi_inq_varoffset(ncid, static_cast<int>(v), &off), "ncmpi_inq_varoffset(" + layout.vars[v].name + ")",
                  path);
    p.var_begin.push_back(off);
  }
  MPI_Offset recsize = 0;
  pnetcdf_check(ncmpi_inq_recsize(ncid, &recsize), "ncmpi_inq_recsize", path);
  p.record_stride = recsize;
  return p;
}

namespace {

// Where a classic file ends: the header and the fixed-size variables, then records of
// `record_size` bytes; the last record ends with its last variable's own bytes.
FileExtent classic_extent(const FileLayout& layout, const LayoutFacts& facts) {
  FileExtent e;
  e.known = true;
  e.fixed_end = facts.header_extent;
  int record_vars = 0;
  for (const FileLayout::Var& var : layout.vars) record_vars += var.record ? 1 : 0;
  for (const FileLayout::Var& var : layout.vars) {
    const auto it = facts.var_offsets.find(var.name);
    if (it == facts.var_offsets.end()) return FileExtent{};  // an offset is missing: do not guess
    const std::int64_t bytes = record_bytes(layout, var);
    if (!var.record) {
      e.fixed_end = std::max(e.fixed_end, it->second + bytes);
      continue;
    }
    // netCDF classic: each record variable's slab is padded to 4 bytes, unless it is the only one.
    e.record_size += record_vars > 1 ? (bytes + 3) / 4 * 4 : bytes;
    if (it->second > e.last_record_var) {
      e.last_record_var = it->second;
      e.last_record_var_bytes = bytes;
    }
  }
  return e;
}

}  // namespace

LayoutFacts pnetcdf_layout_facts(int ncid, const FileLayout& layout) {
  LayoutFacts facts;
  if (ncid < 0) return facts;
  MPI_Offset size = 0, extent = 0;
  if (ncmpi_inq_header_size(ncid, &size) != NC_NOERR || ncmpi_inq_header_extent(ncid, &extent) != NC_NOERR) {
    return facts;
  }
  facts.known = true;
  facts.header_source = "ncmpi_inq_header_extent";
  facts.offset_source = "ncmpi_inq_varoffset";
  facts.header_size = size;
  facts.header_extent = extent;
  for (std::size_t v = 0; v < layout.vars.size(); ++v) {
    MPI_Offset off = 0;
    if (ncmpi_inq_varoffset(ncid, static_cast<int>(v), &off) == NC_NOERR) facts.var_offsets[layout.vars[v].name] = off;
    if (layout.vars[v].record) facts.record_vars.insert(layout.vars[v].name);
  }
  facts.extent = classic_extent(layout, facts);
  // The MPI-IO layer's keys of PnetCDF's file handle (MPI_File_get_info underneath, or the GIO
  // driver's own info); PnetCDF's own nc_* keys are left out (they are the alignment the facts
  // above verify), but for what PnetCDF 1.14 and later choose by themselves.
  static const std::set<std::string> kChoices = {"nc_driver", "nc_num_aggrs_per_node", "nc_ina_node_list",
                                                 "file_striping"};
  MPI_Info info = MPI_INFO_NULL;
  if (ncmpi_inq_file_info(ncid, &info) == NC_NOERR && info != MPI_INFO_NULL) {
    try {
      for (auto& [key, value] : info_keys(info)) {
        if (kChoices.count(key)) facts.pnetcdf_choices[key] = value;
        if (key.rfind("nc_", 0) != 0 && key != "file_striping") facts.mpiio_info[key] = std::move(value);
      }
    } catch (const nwpio::Error&) {
      facts.mpiio_info.clear();  // a report without the read-back, not a failed file
      facts.pnetcdf_choices.clear();
    }
    MPI_Info_free(&info);
    facts.mpiio_info_source = "ncmpi_inq_file_info (MPI_File_get_info of PnetCDF's handle)";
  }
  return facts;
}

LayoutFacts pnetcdf_layout_facts_of_file(const std::string& path, const FileLayout& layout) {
  int ncid = -1;
  pnetcdf_check(ncmpi_open(MPI_COMM_SELF, path.c_str(), NC_NOWRITE, MPI_INFO_NULL, &ncid), "ncmpi_open", path);
  LayoutFacts facts = pnetcdf_layout_facts(ncid, layout);
  ncmpi_close(ncid);
  return facts;
}

}  // namespace nwpio::detail
