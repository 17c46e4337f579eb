// Precedence of hint settings: built-in defaults < profile < namelist < API < environment,
// and the derived defaults ("auto") that fill in what nobody fixed. Pure functions: the
// environment comes in as a value (read once, in HintSession::resolve), so tests can drive
// every level.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "hints/hints_settings.hpp"
#include "nwpio/hint_options.hpp"

namespace nwpio::detail::hints {

// The environment variables the hints read, as one value.
struct Environment {
  std::optional<std::string> hints_file;     // NWPIO_HINTS_FILE
  std::optional<std::string> hints_profile;  // NWPIO_HINTS_PROFILE
  std::optional<std::string> hints;          // NWPIO_HINTS="key=value;key=value"
  std::optional<std::string> hint_report;    // NWPIO_HINT_REPORT=off|summary|full
  // Variables that other layers read behind nwpio's back, for the report only:
  // PNETCDF_HINTS (PnetCDF applies it over everything), ROMIO_HINTS (ROMIO's hints file),
  // ROMIO_PRINT_HINTS, OMPI_MCA_io.
  std::map<std::string, std::string> foreign;
  static Environment from_process();  // getenv: call in ONE place (HintSession::resolve)
};

struct Setting {
  std::string asked;   // value at the highest level that set it ("default"/"auto"/concrete)
  std::string origin;  // where that came from
  std::string value;   // after derivation: "default" or concrete
  std::string rule;    // the derived-default rule applied, if any
};

struct Resolved {
  std::string profile_file, profile, profile_origin;  // the chosen profile (empty file: none)
  std::map<std::string, Setting> settings;  // every logical setting
  std::map<std::string, SettingText> raw;         // pass-through keys
  std::vector<std::string> warnings;
  std::map<std::string, std::string> foreign_env;
  std::int64_t expected_file_bytes = 0;
  std::optional<HintReport> env_report;  // NWPIO_HINT_REPORT, checked (see report_level)
};

// How much rank 0 prints at each file open, and which level chose it: the default (Summary) <
// namelist hint_report < API (HintOptions::report) < NWPIO_HINT_REPORT. Computed when a report
// is printed, from the options as they are then and the environment read with the levels.
struct ReportLevel {
  HintReport level = HintReport::Summary;
  std::string chosen_by = "default";
};
ReportLevel report_level(const HintOptions& options, const std::optional<HintReport>& env_report);

// "off", "summary" or "full" (case-insensitive). Throws Error(Config) naming `origin` (when not
// empty) otherwise.
HintReport parse_hint_report(const std::string& text, const std::string& origin);
const char* to_string(HintReport report) noexcept;

// The built-in level (documented in docs/HINTS.md).
std::map<std::string, SettingText> builtin_defaults();

// Applies the levels in order; reads the profile file when one is chosen. Throws
// Error(Config) for malformed values at any level (naming the level), Error(Io) for an
// unreadable profile file.
Resolved merge_levels(const HintOptions& options, const Environment& env);

// Replaces every "auto" by its rule's value (or "default" when the rule has nothing to go on).
// contiguous_writers: every writer rank holds one contiguous piece of each variable (the
// Writer's rearranged frames), so two-phase collective buffering is derived off. `nodes`: the
// nodes the file's ranks run on (0: unknown), over which aggregators_per_node spreads the
// aggregators.
void derive(Resolved& resolved, std::int64_t expected_file_bytes, bool contiguous_writers = false, int nodes = 0);

// Stripe count for a shared file of this size (NERSC's classes; see docs/HINTS.md).
int stripe_count_for_size(std::int64_t bytes);

}  // namespace nwpio::detail::hints
