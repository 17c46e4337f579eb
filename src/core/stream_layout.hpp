// The resolved shape of one history stream: the file layout every file of the stream gets
// (dimensions in WRF's order, Times first, schema variables after it) and, per variable, the
// geometry the frame data path needs (file extents, where this rank's memory holds each
// element, and which part of the file every rank writes).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "backend/backend_traits.hpp"
#include "layout/compression_settings.hpp"
#include "layout/file_layout.hpp"
#include "nwpio/decomposition.hpp"
#include "nwpio/options.hpp"
#include "nwpio/schema.hpp"

namespace nwpio::detail {

// The grid as the layout needs it: no communicator, so that layouts and plans of any number
// of made-up ranks can be built and tested without MPI. Boxes are 0-based, half-open.
struct Grid {
  Box domain;               // staggered counts
  Box memory;               // this rank's memory (with halo)
  std::vector<Box> patches; // every rank's patch, index = rank
  static Grid of(const Decomposition& d) { return {d.domain(), d.memory(), d.all_patches()}; }
};

// Where an array holds file element (i, j, k) (0-based file indices): at element offset
// origin + i + j * stride_j + k * stride_k.
struct MemoryMap {
  std::int64_t origin = 0, stride_j = 0, stride_k = 0;
  bool operator==(const MemoryMap&) const = default;
};

// Geometry of one variable. Indices are 0-based FILE indices (i along the last file dimension,
// j the one before, k the one before that).
struct FieldGeometry {
  int schema_index = 0;
  int varid = 0;                 // variable id in the file = 1 + schema_index (Times is 0)
  std::string name;
  DataType type = DataType::Float;
  std::size_t elem = 4;          // bytes per element
  MemoryOrder order = MemoryOrder::XZY;
  bool decomposed = false;       // XZY, XYZ, XY: every rank writes its patch
  bool record = true;            // has the Time dimension
  bool grid_k = false;           // k is the model's vertical grid (memory kms:kme), not a named dimension
  std::int64_t nk = 1, nj = 1, ni = 1;  // file extents (Z fields: nk; 2-D fields: nk = 1)
  MemoryMap memory;              // how this rank's model array (the stream's memory bounds) lies
  std::vector<Box> file_boxes;   // the part of the file each rank writes (index = rank); a
                                 // variable without i and j: rank 0 the whole, the others none
  // Where a writer's share may begin when shares must not split a chunk (writer_chunks.hpp):
  // at row r when (r % cut_period) % cut_step == 0. 1, 1: at any row.
  std::int64_t cut_period = 1, cut_step = 1;

  std::int64_t rows() const noexcept { return nk * nj; }              // (k, j) rows of one record
  std::int64_t row_bytes() const noexcept { return ni * static_cast<std::int64_t>(elem); }
  std::int64_t bytes() const noexcept { return nk * nj * ni * static_cast<std::int64_t>(elem); }
};

// The data of one field in one frame: the array and how it lies (the stream's memory map, or
// another one for an array that was copied on put or has its own bounds).
struct FieldSource {
  const void* data = nullptr;
  MemoryMap map;
  // Already in the plan's staging (packed when it was put, FramePlan::pack_field): the round
  // leaves it alone.
  bool packed = false;
};

struct StreamLayout {
  FileLayout file;
  std::vector<FieldGeometry> fields;  // index = schema index
  FieldGeometry times;                // Times (varid 0): 19 chars per record, rank 0
  std::int64_t record_bytes = 0;      // Times + time-dependent variables, one record
  std::int64_t static_bytes = 0;      // variables without Time (written once per file)
  std::string format_note;            // non-empty when CDF-2 was switched to CDF-5 (log line)
};

// Local. Builds the layout of the stream from the schema (after iofields) and the grid, for a
// backend with `traits` (its format; whether CDF-2 may become CDF-5). Throws Error(Schema) for
// a variable whose dimensions cannot be resolved or do not match the grid.
// `compression`: the stream's storage settings, parsed once when it opened (chunked formats);
// null: parsed here from `options` (tools and tests that lay out a stream on their own).
StreamLayout build_stream_layout(const Schema& schema, const Grid& grid, const OutputOptions& options,
                                 const BackendTraits& traits, const CompressionSettings* compression = nullptr);

// The memory map of an array with bounds `memory` (domain indices, k included) for variable `g`
// (its order and vertical dimension): what set_memory_geometry does for the stream's memory box.
MemoryMap memory_map(const FieldGeometry& g, const Box& memory, const Box& domain);

// The map of a compact copy of `box` (file order, rows of box's i extent back to back).
MemoryMap compact_map(const Box& box) noexcept;

// WRF's dimension order in a wrfout header (first use in WRF's registry order).
const std::vector<std::string>& wrf_dimension_order();

}  // namespace nwpio::detail
