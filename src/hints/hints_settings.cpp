#include "hints/hints_settings.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <limits>
#include <stdexcept>

namespace nwpio::detail::hints {

const std::vector<SettingSpec>& setting_specs() {
  static const std::vector<SettingSpec> specs = {
      {"stripe_count", Kind::Count, "Lustre stripe count of a new file (OSTs it is spread over)"},
      {"stripe_size", Kind::Size, "Lustre stripe size of a new file, bytes"},
      {"aggregators", Kind::Count, "collective-buffering aggregators (writer processes) in total"},
      {"aggregators_per_node", Kind::Count, "collective-buffering aggregators per node at most (ROMIO's cb_config_list)"},
      {"cb_buffer_size", Kind::Size, "collective-buffering buffer per aggregator and round, bytes"},
      {"collective_write", Kind::Switch, "two-phase collective buffering on writes"},
      {"data_sieving_write", Kind::Switch, "ROMIO data sieving (read-modify-write) on writes"},
      {"no_indep_rw", Kind::Switch, "ROMIO: promise no independent I/O (only aggregators open the file)"},
      {"lustre_ds_in_coll", Kind::Switch, "ROMIO Lustre driver: data sieving inside collective writes"},
      {"lustre_lockahead", Kind::Switch, "ROMIO Lustre driver: request extent locks ahead of collective writes"},
      {"header_align", Kind::Size, "PnetCDF: align the header extent (start of data) to this, bytes"},
      {"var_align", Kind::Size, "PnetCDF: align every fixed-size variable and the data section, bytes"},
      {"record_align", Kind::Size, "PnetCDF: align the start of the record-variable section, bytes"},
      {"ibuf_size", Kind::Size, "PnetCDF: buffer to pack noncontiguous nonblocking requests, bytes"},
  };
  return specs;
}

const SettingSpec* find_spec(std::string_view name) {
  for (const auto& s : setting_specs()) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

std::vector<std::string> setting_names() {
  std::vector<std::string> names;
  for (const auto& s : setting_specs()) names.emplace_back(s.name);
  return names;
}

namespace {

std::string lower_trim(std::string_view text) {
  std::size_t b = 0, e = text.size();
  while (b < e && std::isspace(static_cast<unsigned char>(text[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(text[e - 1]))) --e;
  std::string out(text.substr(b, e - b));
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::int64_t parse_positive_int(std::string_view digits, std::string_view whole) {
  std::int64_t v = 0;
  auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
  if (ec != std::errc() || p != digits.data() + digits.size() || digits.empty()) {
    throw std::invalid_argument("'" + std::string(whole) + "' is not a whole number");
  }
  if (v <= 0) throw std::invalid_argument("'" + std::string(whole) + "' must be positive");
  return v;
}

}  // namespace

std::int64_t parse_size(std::string_view text) {
  const std::string t = lower_trim(text);
  std::size_t n = 0;
  while (n < t.size() && std::isdigit(static_cast<unsigned char>(t[n]))) ++n;
  const std::int64_t base = parse_positive_int(std::string_view(t).substr(0, n), text);
  std::string suffix = t.substr(n);
  while (!suffix.empty() && suffix.front() == ' ') suffix.erase(0, 1);
  // Binary multiples throughout: file-system block and stripe sizes are powers of two.
  std::int64_t mult = 1;
  if (suffix.empty() || suffix == "b") mult = 1;
  else if (suffix == "k" || suffix == "kb" || suffix == "kib") mult = std::int64_t{1} << 10;
  else if (suffix == "m" || suffix == "mb" || suffix == "mib") mult = std::int64_t{1} << 20;
  else if (suffix == "g" || suffix == "gb" || suffix == "gib") mult = std::int64_t{1} << 30;
  else throw std::invalid_argument("'" + std::string(text) + "': unknown size suffix '" + suffix + "' (use k, M or G)");
  if (base > std::numeric_limits<std::int64_t>::max() / mult) {
    throw std::invalid_argument("'" + std::string(text) + "' is too large");
  }
  return base * mult;
}

std::string canonical_value(const SettingSpec& spec, std::string_view text) {
  const std::string t = lower_trim(text);
  if (t == "default" || t == "auto") return t;
  switch (spec.kind) {
    case Kind::Count: {
      const std::int64_t v = parse_positive_int(t, text);
      if (v > std::numeric_limits<int>::max()) throw std::invalid_argument("'" + std::string(text) + "' is too large");
      return std::to_string(v);
    }
    case Kind::Size: {
      const std::int64_t v = parse_size(t);
      // MPI_Info values are read with atoi by ROMIO/OMPIO for several keys: keep below 2 GiB.
      if (v > std::numeric_limits<int>::max()) {
        throw std::invalid_argument("'" + std::string(text) + "' is 2 GiB or more (MPI-IO reads these as int)");
      }
      return std::to_string(v);
    }
    case Kind::Switch:
      if (t == "true" || t == "enable" || t == "yes" || t == "on" || t == "1") return "true";
      if (t == "false" || t == "disable" || t == "no" || t == "off" || t == "0") return "false";
      throw std::invalid_argument("'" + std::string(text) + "' is not true/false/auto/default");
  }
  throw std::invalid_argument("unknown kind");
}

bool is_concrete(std::string_view canonical) { return canonical != "default" && canonical != "auto"; }

std::int64_t as_int(const std::string& canonical) { return std::stoll(canonical); }

std::vector<std::pair<std::string, std::string>> parse_assignments(std::string_view text) {
  std::vector<std::pair<std::string, std::string>> out;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    std::size_t end = text.find(';', pos);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view item = text.substr(pos, end - pos);
    pos = end + 1;
    const std::string trimmed = lower_trim(item);
    if (trimmed.empty()) continue;
    const std::size_t eq = item.find('=');
    if (eq == std::string_view::npos) {
      throw std::invalid_argument("'" + std::string(item) + "' is not key=value");
    }
    auto strip = [](std::string_view s) {
      std::size_t b = 0, e = s.size();
      while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
      while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
      return std::string(s.substr(b, e - b));
    };
    std::string key = strip(item.substr(0, eq));
    std::string value = strip(item.substr(eq + 1));
    if (key.empty()) throw std::invalid_argument("'" + std::string(item) + "' has no key");
    out.emplace_back(std::move(key), std::move(value));
  }
  return out;
}

}  // namespace nwpio::detail::hints
