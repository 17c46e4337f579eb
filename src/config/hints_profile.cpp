#include "config/hints_profile.hpp"

#include <toml.hpp>

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

Value parse_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(ErrorKind::Io, "cannot read hints file '" + path + "'");
  try {
    return toml::parse(in, path);
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
        out.raw[rk] = Asked{scalar_text(rv, rk, path), where(rv, path)};
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
      out.settings[key] = Asked{canonical_value(*spec, text), at};
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
