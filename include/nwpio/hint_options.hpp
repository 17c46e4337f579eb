// Hint options: what the user asked for MPI-IO / PnetCDF tuning (see docs/HINTS.md).
//
// Precedence, lowest first: built-in defaults < hints profile (TOML file) < namelist &nwpio
// < API (the fields set in code below) < environment (NWPIO_HINTS_FILE / NWPIO_HINTS_PROFILE
// choose the profile; NWPIO_HINTS="key=value;key=value" overrides single keys last).
// The namelist and the API are kept apart so that a value set in code beats one read from
// namelist.input even though both end up in the same OutputOptions.
#pragma once

#include <map>
#include <string>

namespace nwpio {

// What the &nwpio namelist group said (filled by OutputOptions::from_namelist).
struct NamelistHints {
  std::string profile_file;  // hints_file
  std::string profile;       // hints_profile
  std::string assignments;   // hints = "key=value;key=value" (same syntax as NWPIO_HINTS)
};

struct HintOptions {
  // --- API level (set in code) ------------------------------------------------
  std::string profile_file;  // TOML file with profiles (configs/hints/*.toml); empty: none
  std::string profile;       // profile name inside it; empty: "default"
  // Single keys: a logical setting (stripe_count, aggregators, ... see docs/HINTS.md) or any
  // raw MPI-IO / PnetCDF key (passed through verbatim; prefix "raw." to silence the typo check).
  std::map<std::string, std::string> overrides;

  // --- namelist level ------------------------------------------------------------
  NamelistHints namelist;

  // Rank 0 prints the hint report at each file open (the JSON statistics always hold it).
  bool log_report = true;
};

}  // namespace nwpio
