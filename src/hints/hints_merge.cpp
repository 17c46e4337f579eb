#include "hints/hints_merge.hpp"

#include <cctype>
#include <cstdlib>
#include <stdexcept>

#include "hints/hints_profile.hpp"
#include "nwpio/error.hpp"

namespace nwpio::detail::hints {

Environment Environment::from_process() {
  Environment env;
  auto get = [](const char* name) -> std::optional<std::string> {
    const char* v = std::getenv(name);
    if (v == nullptr) return std::nullopt;
    return std::string(v);
  };
  env.hints_file = get("NWPIO_HINTS_FILE");
  env.hints_profile = get("NWPIO_HINTS_PROFILE");
  env.hints = get("NWPIO_HINTS");
  env.hint_report = get("NWPIO_HINT_REPORT");
  for (const char* name : {"PNETCDF_HINTS", "ROMIO_HINTS", "ROMIO_PRINT_HINTS", "OMPI_MCA_io"}) {
    if (auto v = get(name)) env.foreign[name] = *v;
  }
  return env;
}

std::map<std::string, SettingText> builtin_defaults() {
  const std::string o = "built-in";
  return {
      {"stripe_count", {"default", o}},       {"stripe_size", {"default", o}},
      {"aggregators", {"auto", o}},           {"aggregators_per_node", {"auto", o}},
      {"cb_buffer_size", {"auto", o}},
      {"collective_write", {"auto", o}},   {"data_sieving_write", {"auto", o}},
      {"no_indep_rw", {"default", o}},        {"lustre_ds_in_coll", {"default", o}},
      {"lustre_lockahead", {"default", o}},   {"header_align", {"auto", o}},
      {"var_align", {"default", o}},          {"record_align", {"default", o}},
      {"ibuf_size", {"default", o}},
  };
}

namespace {

// One key=value at the namelist, API or environment level: a logical setting, "raw.KEY", or
// any other key passed through verbatim (with a warning when it looks like a typo).
void apply_one(Resolved& r, const std::string& key, const std::string& value, const std::string& origin) {
  if (key.rfind("raw.", 0) == 0) {
    r.raw[key.substr(4)] = SettingText{value, origin};
    return;
  }
  if (const SettingSpec* spec = find_spec(key)) {
    try {
      r.settings[key] = Setting{canonical_value(*spec, value), origin, {}, {}};
    } catch (const std::invalid_argument& e) {
      throw Error(ErrorKind::Config, origin + ": hint '" + key + "': " + e.what());
    }
    return;
  }
  const std::string near = nearest(key, setting_names());
  if (!near.empty()) {
    r.warnings.push_back(origin + ": '" + key + "' is not a hint setting (did you mean '" + near +
                         "'?); passed to MPI-IO/PnetCDF verbatim (prefix raw. to silence this)");
  }
  r.raw[key] = SettingText{value, origin};
}

void apply_assignments(Resolved& r, const std::string& text, const std::string& origin) {
  std::vector<std::pair<std::string, std::string>> items;
  try {
    items = parse_assignments(text);
  } catch (const std::invalid_argument& e) {
    throw Error(ErrorKind::Config, origin + ": " + e.what() + " (expected \"key=value;key=value\")");
  }
  for (const auto& [k, v] : items) apply_one(r, k, v, origin);
}

}  // namespace

HintReport parse_hint_report(const std::string& text, const std::string& origin) {
  std::string lower;
  for (const char c : text) lower.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  if (lower == "off") return HintReport::Off;
  if (lower == "summary") return HintReport::Summary;
  if (lower == "full") return HintReport::Full;
  throw Error(ErrorKind::Config, (origin.empty() ? "" : origin + ": ") + "hint report '" + text +
                                     "' is not one of off, summary, full");
}

const char* to_string(HintReport report) noexcept {
  switch (report) {
    case HintReport::Off: return "off";
    case HintReport::Summary: return "summary";
    case HintReport::Full: return "full";
  }
  return "summary";
}

Resolved merge_levels(const HintOptions& options, const Environment& env) {
  Resolved r;
  for (const auto& [k, a] : builtin_defaults()) r.settings[k] = Setting{a.text, a.origin, {}, {}};
  r.foreign_env = env.foreign;

  // Which profile: namelist < API < environment, file and name chosen independently.
  auto choose = [&](const std::string& value, const std::string& origin, std::string& into, std::string* from) {
    if (value.empty()) return;
    into = value;
    if (from) *from = origin;
  };
  std::string profile_name_origin;
  choose(options.namelist.profile_file, "namelist hints_file", r.profile_file, &r.profile_origin);
  choose(options.namelist.profile, "namelist hints_profile", r.profile, &profile_name_origin);
  choose(options.profile_file, "API profile_file", r.profile_file, &r.profile_origin);
  choose(options.profile, "API profile", r.profile, &profile_name_origin);
  if (env.hints_file) choose(*env.hints_file, "NWPIO_HINTS_FILE", r.profile_file, &r.profile_origin);
  if (env.hints_profile) choose(*env.hints_profile, "NWPIO_HINTS_PROFILE", r.profile, &profile_name_origin);
  if (r.profile_file.empty() && !r.profile.empty()) {
    throw Error(ErrorKind::Config, profile_name_origin + " chooses hints profile '" + r.profile +
                                       "' but no hints file is given (hints_file, profile_file or NWPIO_HINTS_FILE)");
  }
  if (!r.profile_file.empty()) {
    if (r.profile.empty()) r.profile = "default";
    ProfileValues p = read_profile(r.profile_file, r.profile, r.warnings);
    for (const auto& [k, a] : p.settings) r.settings[k] = Setting{a.text, a.origin, {}, {}};
    for (const auto& [k, a] : p.raw) r.raw[k] = a;
  }

  apply_assignments(r, options.namelist.assignments, "namelist hints");
  for (const auto& [k, v] : options.overrides) apply_one(r, k, v, "API");
  if (env.hints) apply_assignments(r, *env.hints, "NWPIO_HINTS");

  if (env.hint_report) r.env_report = parse_hint_report(*env.hint_report, "NWPIO_HINT_REPORT");
  return r;
}

ReportLevel report_level(const HintOptions& options, const std::optional<HintReport>& env_report) {
  if (env_report) return {*env_report, "NWPIO_HINT_REPORT"};
  if (options.report) return {*options.report, "API"};
  if (options.namelist.report) return {*options.namelist.report, "namelist hint_report"};
  return {};
}

int stripe_count_for_size(std::int64_t bytes) {
  constexpr std::int64_t GiB = std::int64_t{1} << 30;
  if (bytes < 1 * GiB) return 1;
  if (bytes < 10 * GiB) return 8;
  if (bytes < 100 * GiB) return 24;
  return 72;
}

void derive(Resolved& r, std::int64_t expected_file_bytes, bool contiguous_writers, int nodes) {
  r.expected_file_bytes = expected_file_bytes;
  auto& s = r.settings;
  auto fix = [&](const std::string& name, const std::string& value, const std::string& rule) {
    s[name].value = value;
    s[name].rule = rule;
  };
  // Order matters: later rules read earlier results.
  for (auto& [name, set] : s) set.value = set.asked;

  if (s["stripe_count"].asked == "auto") {
    if (expected_file_bytes > 0) {
      fix("stripe_count", std::to_string(stripe_count_for_size(expected_file_bytes)),
          "by expected file size " + std::to_string(expected_file_bytes) +
              " B: <1 GiB 1, <10 GiB 8, <100 GiB 24, else 72 (NERSC classes)");
    } else {
      fix("stripe_count", "default", "expected file size unknown: directory default kept");
    }
  }
  if (s["stripe_size"].asked == "auto") fix("stripe_size", "1048576", "1 MiB (Lustre default, NERSC)");
  const bool count_known = is_concrete(s["stripe_count"].value);
  const bool size_known = is_concrete(s["stripe_size"].value);

  if (s["aggregators"].asked == "auto") {
    if (count_known) fix("aggregators", s["stripe_count"].value, "= stripe_count (one aggregator per OST)");
    else fix("aggregators", "default", "= stripe_count, which is not set: MPI-IO default");
  }
  if (s["aggregators_per_node"].asked == "auto") {
    // ROMIO fills each host, in rank order, up to cb_config_list's count before it takes the
    // next one: "*:N" with cb_nodes = N puts all N aggregators on the first node that has N ranks.
    if (!is_concrete(s["aggregators"].value)) {
      fix("aggregators_per_node", "default", "aggregators not set: MPI-IO default (ROMIO: one per node)");
    } else if (nodes > 0) {
      const std::int64_t n = as_int(s["aggregators"].value);
      fix("aggregators_per_node", std::to_string((n + nodes - 1) / nodes),
          "aggregators spread over the " + std::to_string(nodes) + " node(s): ceil(" + std::to_string(n) + " / " +
              std::to_string(nodes) + ")");
    } else {
      fix("aggregators_per_node", s["aggregators"].value, "= aggregators (node count unknown)");
    }
  }
  if (s["cb_buffer_size"].asked == "auto") {
    if (size_known) {
      const std::int64_t ss = as_int(s["stripe_size"].value);
      const std::int64_t romio_default = std::int64_t{16} << 20;
      const std::int64_t v = std::max(ss, romio_default / ss * ss);
      fix("cb_buffer_size", std::to_string(v), "largest multiple of stripe_size <= 16 MiB (ROMIO default)");
    } else {
      fix("cb_buffer_size", "default", "multiple of stripe_size, which is not set: MPI-IO default");
    }
  }
  if (s["header_align"].asked == "auto") {
    if (size_known) fix("header_align", s["stripe_size"].value, "= stripe_size (data starts on a stripe)");
    else fix("header_align", "default", "= stripe_size, which is not set: PnetCDF default");
  }
  if (s["collective_write"].asked == "auto") {
    if (contiguous_writers) {
      fix("collective_write", "false",
          "frame rearranged into contiguous slabs: two-phase buffering would only copy them again "
          "(measured, docs/ARCHITECTURE.md)");
    } else {
      fix("collective_write", "default", "patches go straight to MPI-IO: implementation default");
    }
  }
  if (s["data_sieving_write"].asked == "auto") {
    fix("data_sieving_write", "false", "no data sieving on writes (read-modify-write under file locks)");
  }
  for (auto& [name, set] : s) {
    if (set.value == "auto") fix(name, "default", "no derived rule: implementation default");
  }
}

}  // namespace nwpio::detail::hints
