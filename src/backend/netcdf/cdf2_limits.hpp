// The CDF-2 variable size limit that netCDF-C enforces at nc_enddef, for io_form 2's message.
#pragma once

#include <string>
#include <vector>

#include "layout/file_layout.hpp"

namespace nwpio::detail {

// The variables over CDF-2's (64-bit offset) size limit: one record of a record variable, or a
// whole fixed variable, above 4 GiB - 4 bytes. netCDF-C (NC_check_vlens at nc_enddef) accepts
// one such variable only when it is the last of its kind (and a large fixed one only without
// record variables); otherwise it returns NC_EVARSIZE. Names with sizes, e.g.
// "T (5.20 GB per record)"; empty when no variable is that large.
std::vector<std::string> cdf2_oversize_variables(const FileLayout& layout);

}  // namespace nwpio::detail
