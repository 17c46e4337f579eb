// The storage of a chunked file as nwpio decided it, for the statistics (Statistics::
// attachments "storage:<file>", written with stats_json): per variable its chunk shape, filters
// and quantization. A user sees there which rank-owned chunks a file got (io_form 13).
#pragma once

#include <string>

#include "layout/file_layout.hpp"

namespace nwpio::detail {

// JSON: {"format": "netcdf4", "variables": [{"name", "chunks": [...], "shuffle", "deflate_level",
// "quantize": "none|bitgroom|granularbr|bitround", "quantize_digits"}, ...]}; empty when no
// variable is chunked.
std::string storage_report_json(const FileLayout& layout);

}  // namespace nwpio::detail
