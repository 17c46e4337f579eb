// The logical hint settings nwpio models (one table), their value syntax, and the typo check.
// A setting's value is one of: "default" (pass nothing: the MPI-IO / PnetCDF default holds),
// "auto" (nwpio's derived rule, see derive() in hints_merge.hpp), or a concrete value in canonical text:
// a decimal integer (counts, bytes) or "true"/"false".
#pragma once

#include "nwpio/options.hpp"
#include "util/near_names.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace nwpio::detail::hints {

enum class Kind {
  Count,  // positive integer
  Size,   // bytes: integer or text with a binary suffix ("4MiB", "1m", "64k")
  Switch, // true / false (also enable/disable, yes/no, on/off)
};

struct SettingSpec {
  std::string_view name;
  Kind kind;
  std::string_view what;  // one line for the report and the docs
};

// All logical settings, in report order.
const std::vector<SettingSpec>& setting_specs();
const SettingSpec* find_spec(std::string_view name);

// A value of one setting or raw key at one precedence level.

// Canonicalises `text` for `spec`; throws std::invalid_argument with a short reason.
std::string canonical_value(const SettingSpec& spec, std::string_view text);
std::int64_t parse_size(std::string_view text);  // throws std::invalid_argument
bool is_concrete(std::string_view canonical);     // not "default" / "auto"
std::int64_t as_int(const std::string& canonical);

// Levenshtein distance and "did you mean" (util/near_names.hpp).
using detail::edit_distance;
using detail::nearest;
std::vector<std::string> setting_names();

// "key=value;key=value" (NWPIO_HINTS, &nwpio hints). Throws std::invalid_argument naming
// the bad item. Whitespace around keys and values is dropped; empty items are skipped.
std::vector<std::pair<std::string, std::string>> parse_assignments(std::string_view text);

}  // namespace nwpio::detail::hints
