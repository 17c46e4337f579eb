// WRF's netCDF-4 chunk shapes (wrf_io.F90, ext_ncd_write_field), decided from the dimension
// names WRF uses. The core puts them into the FileLayout (FileLayout::Var::chunks); a backend
// that chunks takes them from there and never needs WRF's names.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "layout/file_layout.hpp"

namespace nwpio::detail {

// WRF's chunk element limit (wrf_io.F90, ext_ncd_write_field: cache_size = 32000000 elements).
inline constexpr std::int64_t kWrfChunkElementLimit = 32'000'000;

// True for the fields WRF chunks and compresses in netCDF-4 (its set_chunking(): 3-D memory
// orders and XY): variables whose two innermost dimensions are south_north[_stag] and
// west_east[_stag].
bool is_horizontal_field(const FileLayout& layout, const FileLayout::Var& var);

// WRF's netCDF-4 chunk shape of a horizontal field, in file order (outermost first):
// Time -> 1, vertical (and any other outer dimension) -> its full length, south_north and
// west_east -> half the length rounded up, both halved again (rounding up) while the chunk
// holds more than kWrfChunkElementLimit elements. So a chunk is a quarter (or less) of the
// horizontal plane over all levels of one record. Empty for other variables: they keep
// netCDF-C's default storage and are not compressed, as in WRF.
std::vector<std::size_t> wrf_chunk_sizes(const FileLayout& layout, const FileLayout::Var& var);

}  // namespace nwpio::detail
