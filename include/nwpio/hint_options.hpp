// Hint options: what the user asked for MPI-IO / PnetCDF tuning (see docs/HINTS.md).
//
// Precedence, lowest first: built-in defaults < hints profile (TOML file) < namelist &nwpio
// < API (the fields set in code below) < environment (NWPIO_HINTS_FILE / NWPIO_HINTS_PROFILE
// choose the profile; NWPIO_HINTS="key=value;key=value" overrides single keys last).
// The namelist and the API are kept apart so that a value set in code beats one read from
// namelist.input even though both end up in the same OutputOptions.
#pragma once

#include <map>
#include <optional>
#include <string>

namespace nwpio {

// What rank 0 prints (stderr) about the hints at each file open. The statistics JSON
// (Statistics::attachments "hints:<file>") always holds the full report.
//   Off      nothing
//   Summary  one line per file: the final file, file system, MPI-IO layer, profile, what was
//            set, and every setting that was dropped, overridden or contradicted (the default)
//   Full     the table of every setting: value, origin, MPI_Info keys, status and why
// Chosen by, lowest first: the default (Summary) < namelist &nwpio hint_report < API
// (HintOptions::report, nwpio_set_hint_report) < environment NWPIO_HINT_REPORT.
enum class HintReport { Off, Summary, Full };

// What the &nwpio namelist group said (filled by OutputOptions::from_namelist).
struct NamelistHints {
  std::string profile_file;  // hints_file
  std::string profile;       // hints_profile
  std::string assignments;   // hints = "key=value;key=value" (same syntax as NWPIO_HINTS)
  std::optional<HintReport> report;  // hint_report = 'off' | 'summary' | 'full'
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

  // How much of the hint report rank 0 prints at each file open (see HintReport); unset: the
  // namelist's hint_report, else Summary. NWPIO_HINT_REPORT overrides it.
  std::optional<HintReport> report;
};

}  // namespace nwpio
