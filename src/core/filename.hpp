// File names of a history stream: WRF's history_outname template with <domain> and <date>.
#pragma once

#include <string>
#include <string_view>


namespace nwpio::detail {

// "<domain>" -> the domain id as two digits ("01"); "<date>" -> `date`, with ':' -> '_' when
// `replace_colons` (the backend's traits: WRF's PnetCDF path always does that; nocolons asks
// for it elsewhere).
std::string expand_file_name(std::string_view outname, int domain_id, std::string_view date, bool replace_colons);

}  // namespace nwpio::detail
