// The resolved shape of one history stream: the netCDF layout every file of the stream gets
// (dimensions in WRF's order, Times first, schema variables after it) and, per variable, the
// geometry the frame data path needs (file extents, where this rank's memory holds each
// element, and which part of the file every rank writes).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "backend/backend.hpp"
#include "nwpio/decomposition.hpp"
#include "nwpio/options.hpp"
#include "nwpio/schema.hpp"

namespace nwpio::detail {

// Geometry of one variable. Indices are 0-based FILE indices (i along the last file dimension,
// j the one before, k the one before that); the element at file (i, j, k) of this rank's
// memory array is at element offset  mem_origin + i + j * mem_stride_j + k * mem_stride_k.
struct FieldGeometry {
  int schema_index = 0;
  int varid = 0;                 // netCDF variable id = 1 + schema_index (Times is 0)
  std::string name;
  DataType type = DataType::Float;
  std::size_t elem = 4;          // bytes per element
  MemoryOrder order = MemoryOrder::XZY;
  bool decomposed = false;       // XZY, XYZ, XY: every rank writes its patch
  bool record = true;            // has the Time dimension
  std::int64_t nk = 1, nj = 1, ni = 1;  // file extents (Z fields: nk; 2-D fields: nk = 1)
  std::int64_t mem_origin = 0, mem_stride_j = 0, mem_stride_k = 0;
  std::vector<Box> file_boxes;   // the part of the file each rank writes (index = rank); a
                                 // variable without i and j: rank 0 the whole, the others none

  std::int64_t rows() const noexcept { return nk * nj; }              // (k, j) rows of one record
  std::int64_t row_bytes() const noexcept { return ni * static_cast<std::int64_t>(elem); }
  std::int64_t bytes() const noexcept { return nk * nj * ni * static_cast<std::int64_t>(elem); }
};

struct StreamLayout {
  FileLayout file;
  std::vector<FieldGeometry> fields;  // index = schema index
  FieldGeometry times;                // Times (varid 0): 19 chars per record, rank 0
  std::int64_t record_bytes = 0;      // Times + time-dependent variables, one record
  std::int64_t static_bytes = 0;      // variables without Time (written once per file)
  std::string format_note;            // non-empty when CDF-2 was switched to CDF-5 (log line)
};

// Local. Builds the layout of the stream from the schema (after iofields) and the
// decomposition. Throws Error(Schema) for a variable whose dimensions cannot be resolved or do
// not match the decomposition, Error(Unsupported) for a variable no format can hold.
StreamLayout build_stream_layout(const Schema& schema, const Decomposition& decomposition,
                                 const OutputOptions& options);

// WRF's dimension order in a wrfout header (first use in WRF's registry order).
const std::vector<std::string>& wrf_dimension_order();

}  // namespace nwpio::detail
