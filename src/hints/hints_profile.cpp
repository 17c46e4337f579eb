#include "hints/hints_profile.hpp"

#include <toml.hpp>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>

#include "nwpio/error.hpp"

namespace nwpio::detail::hints {

namespace {

using Value = toml::value;

std::string where(const Value& v, const std::string& path) {
  const auto loc = v.location();
  if (loc.line() == 0) return path;
  return path + ":" + std::to_string(loc.line());
}

// Errors say exactly where: "file:line:column" (issue 8: every hints error names its column).
// The origin of a value in the hint report stays "file:line" (where()).
std::string where_exact(const Value& v, const std::string& path) {
  const auto loc = v.location();
  if (loc.line() == 0) return path;
  return path + ":" + std::to_string(loc.line()) + ":" + std::to_string(loc.column());
}

[[noreturn]] void config_error(const std::string& at, const std::string& message) {
  throw Error(ErrorKind::Config, at + ": " + message);
}

// A TOML scalar as text: integers and booleans keep their meaning, strings are taken as is.
std::string scalar_text(const Value& v, const std::string& key, const std::string& path) {
  if (v.is_integer()) return std::to_string(v.as_integer());
  if (v.is_boolean()) return v.as_boolean() ? "true" : "false";
  if (v.is_string()) return v.as_string().str;
  config_error(where_exact(v, path), "'" + key + "' must be an integer, a boolean or a string, not a " +
                                   toml::stringize(v.type()));
}

// toml11's syntax errors carry the location in the message; keep it but lead with file:line.
[[noreturn]] void rethrow_syntax(const toml::exception& e, const std::string& path) {
  std::string at = path;
  if (e.location().line() > 0) {
    at += ":" + std::to_string(e.location().line()) + ":" + std::to_string(e.location().column());
  }
  std::string text = e.what();
  // The message is several lines (toml11 draws the offending line); keep it whole.
  config_error(at, "TOML syntax error:\n" + text);
}

// TOML files are UTF-8. toml11 3.7 (Debian 12) reads past its buffer while it reports invalid
// UTF-8 inside a string (found by fuzz_hints_profile), so the text is checked before toml11
// sees it. Returns the offset of the first invalid byte, or npos.
std::size_t first_invalid_utf8(const std::string& text) {
  const auto* p = reinterpret_cast<const unsigned char*>(text.data());
  const std::size_t n = text.size();
  for (std::size_t i = 0; i < n;) {
    const unsigned char c = p[i];
    std::size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    if (len == 0 || i + len > n) return i;
    std::uint32_t cp = len == 1 ? c : len == 2 ? (c & 0x1Fu) : len == 3 ? (c & 0x0Fu) : (c & 0x07u);
    for (std::size_t k = 1; k < len; ++k) {
      if ((p[i + k] & 0xC0) != 0x80) return i;
      cp = (cp << 6) | (p[i + k] & 0x3Fu);
    }
    // Overlong forms, surrogates and code points past U+10FFFF are not UTF-8 either.
    const std::uint32_t least[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < least[len] || (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF) return i;
    i += len;
  }
  return std::string::npos;
}

void require_utf8(const std::string& text, const std::string& path) {
  const std::size_t bad = first_invalid_utf8(text);
  if (bad == std::string::npos) return;
  const std::size_t line_start = text.rfind('\n', bad == 0 ? 0 : bad - 1);
  const std::size_t line = 1 + static_cast<std::size_t>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(bad), '\n'));
  const std::size_t column = bad - (line_start == std::string::npos || bad == 0 ? 0 : line_start + 1) + 1;
  config_error(path + ":" + std::to_string(line) + ":" + std::to_string(column),
               "not valid UTF-8 (TOML files are UTF-8)");
}

Value parse_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(ErrorKind::Io, "cannot read hints file '" + path + "'");
  std::ostringstream buffer;
  buffer << in.rdbuf();
  const std::string text = buffer.str();
  require_utf8(text, path);
  std::istringstream again(text);
  try {
    return toml::parse(again, path);
  } catch (const toml::exception& e) {
    rethrow_syntax(e, path);
  } catch (const std::runtime_error& e) {
    config_error(path, std::string("TOML syntax error: ") + e.what());
  }
}

void read_one(const Value& profiles, const std::string& name, const std::string& path, ProfileValues& out,
              std::vector<std::string>& chain, std::vector<std::string>& warnings) {
  const auto& table = profiles.as_table();
  auto it = table.find(name);
  if (it == table.end()) {
    std::string message = "no profile '" + name + "'";
    const std::string near = nearest(name, out.profiles);
    if (!near.empty()) message += " (did you mean '" + near + "'?)";
    config_error(where_exact(profiles, path), message);
  }
  for (const auto& c : chain) {
    if (c == name) config_error(where_exact(it->second, path), "profile '" + name + "' extends itself (cycle)");
  }
  chain.push_back(name);
  const Value& prof = it->second;
  if (!prof.is_table()) config_error(where_exact(prof, path), "[profile." + name + "] must be a table");

  // A base profile first, so that this profile's own keys override it.
  if (prof.contains("extends")) {
    const Value& base = prof.at("extends");
    if (!base.is_string()) config_error(where_exact(base, path), "'extends' must be a profile name (string)");
    read_one(profiles, base.as_string().str, path, out, chain, warnings);
  }

  const std::vector<std::string> names = [] {
    auto n = setting_names();
    n.emplace_back("raw");
    n.emplace_back("extends");
    return n;
  }();
  for (const auto& [key, value] : prof.as_table()) {
    if (key == "extends") continue;
    const std::string at = where(value, path);          // origin in the report
    const std::string at_exact = where_exact(value, path);  // errors
    if (key == "raw") {
      if (!value.is_table()) config_error(at_exact, "[profile." + name + ".raw] must be a table of MPI-IO/PnetCDF keys");
      for (const auto& [rk, rv] : value.as_table()) {
        out.raw[rk] = SettingText{scalar_text(rv, rk, path), where(rv, path)};
      }
      continue;
    }
    const SettingSpec* spec = find_spec(key);
    if (spec == nullptr) {
      std::string w = at + ": unknown hint setting '" + key + "' in profile '" + name + "'";
      const std::string near = nearest(key, names);
      w += near.empty() ? " (ignored; raw MPI-IO keys go under [profile." + name + ".raw])"
                        : " (ignored; did you mean '" + near + "'?)";
      warnings.push_back(std::move(w));
      continue;
    }
    const std::string text = scalar_text(value, key, path);
    try {
      out.settings[key] = SettingText{canonical_value(*spec, text), at};
    } catch (const std::invalid_argument& e) {
      config_error(at_exact, "'" + key + "': " + e.what());
    }
  }
  chain.pop_back();
}

}  // namespace

ProfileValues read_profile(const std::string& path, const std::string& name, std::vector<std::string>& warnings) {
  const Value root = parse_file(path);
  ProfileValues out;
  if (!root.is_table()) config_error(path, "not a TOML table");
  for (const auto& [key, value] : root.as_table()) {
    if (key != "profile") {
      const std::string near = nearest(key, {"profile"});
      warnings.push_back(where(value, path) + ": unknown top-level key '" + key + "' (ignored" +
                         (near.empty() ? std::string(")") : "; did you mean '" + near + "'?)"));
    }
  }
  if (!root.contains("profile") || !root.at("profile").is_table()) {
    config_error(path, "no [profile.<name>] table");
  }
  const Value& profiles = root.at("profile");
  for (const auto& [pname, pvalue] : profiles.as_table()) out.profiles.push_back(pname);
  std::vector<std::string> chain;
  read_one(profiles, name.empty() ? "default" : name, path, out, chain, warnings);
  return out;
}

}  // namespace nwpio::detail::hints
