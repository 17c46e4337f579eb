// Misspelled keys in the groups nwpio reads. In &nwpio, which only nwpio reads, an unknown key
// is an error (apply_nwpio_group) naming the nearest key. WRF's groups have hundreds of keys
// nwpio does not read, so an unknown key there is not an error; but one a typo away from a key
// nwpio reads ("histroy_interval", "frames_per_outfle") gets a warning: nwpio would otherwise
// use the default in its place. WRF itself stops on such a key when it reads the namelist.
#pragma once

#include <string>
#include <vector>

#include "config/namelist_parser.hpp"

namespace nwpio::detail {

// The keys of WRF's groups that nwpio and its demo model read, by group (docs/NAMELIST.md).
const std::vector<std::string>& wrf_keys_nwpio_reads(std::string_view group);

// "file:line:column: warning: ..." for each key of &time_control, &domains or &namelist_quilt
// that nwpio does not read but is a typo away from one it reads.
std::vector<std::string> misspelled_key_warnings(const Namelist& nl);

}  // namespace nwpio::detail
