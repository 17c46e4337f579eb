// A parsed Fortran namelist file: groups of `key = value, value, ...` where column i of a key
// is the value for domain i (WRF's max_domains convention). Pure C++ (no MPI), so that the
// reader can be tested from a string; src/config/namelist_file.cpp reads and broadcasts.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "config/namelist_lexer.hpp"
#include "config/path_variables.hpp"

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

// The groups nwpio reads: WRF's &time_control, &domains and &namelist_quilt, and its own &nwpio.
inline constexpr std::array<std::string_view, 4> kGroupsNwpioReads{"time_control", "domains", "namelist_quilt", "nwpio"};

class Namelist {
 public:
  // Reads each of `groups` from `text` as a Fortran `read(unit, nml=group)` after a rewind does:
  // from the group's first '&name' (find_group_start) to its end; everything else in the file
  // is not read, so free text, other groups and a repeated group change nothing. A group not in
  // the text is absent. `file` names the text in error messages. Throws Error(Config) with
  // "file:line:column: expected ..., found ..." for a malformed group.
  static Namelist parse(std::string_view text, std::string file,
                        std::span<const std::string_view> groups = kGroupsNwpioReads);

  const std::string& file() const noexcept { return file_; }
  const std::vector<NamelistGroup>& groups() const noexcept { return groups_; }
  const NamelistGroup* group(std::string_view name) const noexcept;  // case-insensitive
  const NamelistEntry* find(std::string_view group, std::string_view key) const noexcept;

  // The variables the path keys of &nwpio refer to, with their values from the environment the
  // file is read in (rank 0's: load_namelist); empty after parse().
  const Environment& environment() const noexcept { return environment_; }
  void set_environment(Environment env) { environment_ = std::move(env); }

 private:
  std::string file_;
  std::vector<NamelistGroup> groups_;
  Environment environment_;
};

}  // namespace nwpio::detail
