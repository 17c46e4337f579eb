// The &nwpio group: the namelist rows of the option table (option_table.cpp), each value read
// with its file:line:column for errors.
#include "config/nwpio_keys.hpp"

#include "config/option_table.hpp"

#include <array>
#include <cctype>
#include <stdexcept>

#include "nwpio/error.hpp"
#include "util/near_names.hpp"
#include "util/text.hpp"

namespace nwpio::detail {

namespace {

std::vector<std::string> namelist_keys() {
  std::vector<std::string> out;
  for (const OptionRow& row : option_rows()) {
    if (row.namelist) out.emplace_back(row.name);
  }
  return out;
}

std::string valid_keys() {
  std::string out;
  for (const std::string& key : namelist_keys()) out += (out.empty() ? "" : ", ") + key;
  return out;
}

}  // namespace

std::string NwpioValue::text() const {
  switch (v_.kind) {
    case NamelistValue::Kind::Logical: return v_.logical ? "true" : "false";
    case NamelistValue::Kind::Null: fail("a value");
    default: return v_.text;
  }
}

std::string NwpioValue::path() const {
  const std::string text = string();
  try {
    return expand_variables(text, nl_.environment());
  } catch (const std::invalid_argument& e) {
    throw Error(ErrorKind::Config, where(nl_.file(), v_.pos) + "cannot expand " + std::string(key_) + " '" + text +
                                       "': " + e.what() + " (the environment of rank 0, which reads the namelist)");
  }
}

std::size_t NwpioValue::choice(std::span<const std::string_view> choices) const {
  const std::string s = lower(string());
  std::string list;
  for (std::size_t i = 0; i < choices.size(); ++i) {
    if (s == choices[i]) return i;
    list += (i == 0 ? "'" : i + 1 == choices.size() ? " or '" : ", '") + std::string(choices[i]) + "'";
  }
  fail(list);
}

std::string NwpioValue::origin() const {
  std::string w = where(nl_.file(), v_.pos);
  while (!w.empty() && (w.back() == ' ' || w.back() == ':')) w.pop_back();
  return w;
}

void NwpioValue::fail(std::string_view expected) const {
  throw Error(ErrorKind::Config, where(nl_.file(), v_.pos) + "expected " + std::string(expected) + " for " +
                                     std::string(key_) + ", found " + describe(v_));
}

std::vector<std::string> path_variables(const Namelist& nl) {
  std::vector<std::string> names;
  const NamelistGroup* g = nl.group("nwpio");
  if (g == nullptr) return names;
  for (const OptionRow& row : option_rows()) {
    const NamelistEntry* e = row.namelist && row.type == "path" ? g->find(row.name) : nullptr;
    if (e == nullptr) continue;
    for (const NamelistValue& v : e->values) {
      if (v.kind != NamelistValue::Kind::String) continue;
      for (std::string& name : variables_in(v.text)) names.push_back(std::move(name));
    }
  }
  return names;
}

void apply_nwpio_group(const Namelist& nl, OutputOptions& options) {
  const NamelistGroup* g = nl.group("nwpio");
  if (g == nullptr) return;
  for (const NamelistEntry& e : g->entries) {
    const OptionRow* key = nullptr;
    for (const OptionRow& row : option_rows()) {
      if (row.namelist && row.name == e.name) key = &row;
    }
    if (key == nullptr) {
      const std::string near = nearest(e.name, namelist_keys());
      throw Error(ErrorKind::Config, where(nl.file(), e.pos) + "expected a key of &nwpio, found unknown key '" + e.name +
                                         "'" + (near.empty() ? "" : " (did you mean '" + near + "'?)") +
                                         "; valid keys: " + valid_keys());
    }
    NamelistReader reader(nl, 1);
    const NamelistValue* v = reader.find("nwpio", e.name, Columns::One);
    if (v == nullptr) continue;  // `key = ` with no value: Fortran leaves it unchanged
    key->apply(options, NwpioValue(nl, key->name, *v));
  }
}

}  // namespace nwpio::detail
