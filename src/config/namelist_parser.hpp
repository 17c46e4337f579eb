// A parsed Fortran namelist file: groups of `key = value, value, ...` where column i of a key
// is the value for domain i (WRF's max_domains convention). Pure C++ (no MPI), so that the
// reader can be tested from a string; src/config/namelist_file.cpp reads and broadcasts.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "config/namelist_lexer.hpp"

namespace nwpio::detail {

struct NamelistValue {
  enum class Kind { Null, Integer, Real, Logical, String };
  Kind kind = Kind::Null;  // Null: no value given for this column (Fortran: left unchanged)
  std::int64_t integer = 0;
  double real = 0;
  bool logical = false;
  std::string text;  // as written (strings: the contents)
  TextPos pos;
};

struct NamelistEntry {
  std::string name;                   // lower case
  TextPos pos;                        // where the key was (first) written
  std::vector<NamelistValue> values;  // values[c] is column c+1 (domain c+1)
};

struct NamelistGroup {
  std::string name;  // lower case, without '&'
  TextPos pos;
  std::vector<NamelistEntry> entries;
  const NamelistEntry* find(std::string_view key) const noexcept;  // case-insensitive
};

class Namelist {
 public:
  // Parses `text`; `file` names it in error messages. Throws Error(Config) with
  // "file:line:column: expected ..., found ..." for malformed input.
  static Namelist parse(std::string_view text, std::string file);

  const std::string& file() const noexcept { return file_; }
  const std::vector<NamelistGroup>& groups() const noexcept { return groups_; }
  const NamelistGroup* group(std::string_view name) const noexcept;  // case-insensitive
  const NamelistEntry* find(std::string_view group, std::string_view key) const noexcept;

 private:
  std::string file_;
  std::vector<NamelistGroup> groups_;
};

}  // namespace nwpio::detail
