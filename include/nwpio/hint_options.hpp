// Hint options: what the user asked for MPI-IO / PnetCDF tuning. Filled from a TOML profile,
// the namelist &nwpio group, the API and the environment (see docs/HINTS.md).
// PLACEHOLDER: owned by the hints work (issue 4), which extends it.
#pragma once

#include <map>
#include <string>

namespace nwpio {

struct HintOptions {
  std::string profile_file;   // TOML file with profiles (configs/hints/*.toml)
  std::string profile;        // profile name inside it
  // Single keys set through the API; applied after profile and namelist, before NWPIO_HINTS.
  std::map<std::string, std::string> overrides;
};

}  // namespace nwpio
