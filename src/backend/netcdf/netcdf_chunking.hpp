// Storage choices of io_form 2 that depend only on the layout: WRF's netCDF-4 chunk shapes and
// the CDF-2 variable size limit that netCDF-C enforces at nc_enddef.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "backend/backend.hpp"

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

// The variables over CDF-2's (64-bit offset) size limit: one record of a record variable, or a
// whole fixed variable, above 4 GiB - 4 bytes. netCDF-C (NC_check_vlens at nc_enddef) accepts
// one such variable only when it is the last of its kind (and a large fixed one only without
// record variables); otherwise it returns NC_EVARSIZE. Names with sizes, e.g.
// "T (5.20 GB per record)"; empty when no variable is that large.
std::vector<std::string> cdf2_oversize_variables(const FileLayout& layout);

}  // namespace nwpio::detail
