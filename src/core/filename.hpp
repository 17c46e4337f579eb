// File names of a history stream: WRF's history_outname template with <domain> and <date>.
#pragma once

#include <string>
#include <string_view>

#include "nwpio/options.hpp"

namespace nwpio::detail {

// "<domain>" -> the domain id as two digits ("01"); "<date>" -> `date`, with ':' -> '_' when
// `replace_colons` (WRF's PnetCDF path always does that; nocolons asks for it elsewhere).
std::string expand_file_name(std::string_view outname, int domain_id, std::string_view date, bool replace_colons);

// The rule of a stream: colons are replaced for io_form 11 or when options.nocolons.
std::string file_name_for(const OutputOptions& options, std::string_view date);

// The suffix of the name a file is written under until it is complete.
inline constexpr std::string_view kTemporarySuffix = ".nwpio-tmp";

}  // namespace nwpio::detail
