#include "config/path_variables.hpp"

#include <stdexcept>

namespace nwpio::detail {

namespace {

bool starts_name(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool in_name(char c) { return starts_name(c) || (c >= '0' && c <= '9'); }

// One reference at text[i] == '$': the variable's name ("" for "$$") and where the reference
// ends; throws std::invalid_argument for a '$' that starts none.
struct Reference {
  std::string name;
  std::size_t end = 0;
};

Reference reference_at(std::string_view text, std::size_t i) {
  const auto bad = [&](const std::string& why) {
    return std::invalid_argument("'$' at character " + std::to_string(i + 1) + " " + why +
                                 " (write $NAME or ${NAME} for a variable, $$ for a '$')");
  };
  std::size_t k = i + 1;
  if (k < text.size() && text[k] == '$') return {"", k + 1};
  const bool braced = k < text.size() && text[k] == '{';
  if (braced) ++k;
  if (k >= text.size() || !starts_name(text[k])) throw bad("starts no variable name");
  const std::size_t begin = k;
  while (k < text.size() && in_name(text[k])) ++k;
  Reference r{std::string(text.substr(begin, k - begin)), k};
  if (braced) {
    if (k >= text.size() || text[k] != '}') throw bad("has no '}' after ${" + r.name);
    r.end = k + 1;
  }
  return r;
}

}  // namespace

std::vector<std::string> variables_in(std::string_view text) {
  std::vector<std::string> names;
  for (std::size_t i = 0; i < text.size();) {
    if (text[i] != '$') {
      ++i;
      continue;
    }
    try {
      Reference r = reference_at(text, i);
      if (!r.name.empty()) names.push_back(std::move(r.name));
      i = r.end;
    } catch (const std::invalid_argument&) {
      ++i;
    }
  }
  return names;
}

std::string expand_variables(std::string_view text, const Environment& env) {
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    if (text[i] != '$') {
      out += text[i++];
      continue;
    }
    const Reference r = reference_at(text, i);
    if (r.name.empty()) {
      out += '$';
    } else {
      const auto it = env.find(r.name);
      if (it == env.end()) throw std::invalid_argument("environment variable " + r.name + " is not set or empty");
      out += it->second;
    }
    i = r.end;
  }
  return out;
}

}  // namespace nwpio::detail
