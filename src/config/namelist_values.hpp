// Typed reading of namelist keys for one domain, with WRF's per-domain column rule: column d of
// a max_domains key is domain d's value; a column not given keeps the registry default (as a
// Fortran namelist READ leaves the element unchanged). Conversion errors carry file:line:column.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "config/namelist_parser.hpp"

namespace nwpio::detail {

// WRF's registry "dimension" of a key: 1 (one value) or max_domains (a column per domain).
enum class Columns { One, PerDomain };

// One value converted to a type; `key` names it in the error. Integers are accepted as reals;
// reals are not accepted as integers (gfortran rejects them too).
std::int64_t value_as_integer(const Namelist& nl, std::string_view key, const NamelistValue& v);
double value_as_real(const Namelist& nl, std::string_view key, const NamelistValue& v);
bool value_as_logical(const Namelist& nl, std::string_view key, const NamelistValue& v);
std::string value_as_string(const Namelist& nl, std::string_view key, const NamelistValue& v);
std::string describe(const NamelistValue& v);  // "integer 3", "string 'x'", ...

class NamelistReader {
 public:
  NamelistReader(const Namelist& nl, int domain) : nl_(nl), domain_(domain) {}

  const Namelist& namelist() const noexcept { return nl_; }
  int domain() const noexcept { return domain_; }

  // The value for this domain (PerDomain) or the one value (One; a second value is an error);
  // nullptr when the key, or its column, is not given.
  const NamelistValue* find(std::string_view group, std::string_view key, Columns columns) const;

  std::int64_t integer(std::string_view group, std::string_view key, Columns c, std::int64_t fallback) const;
  double real(std::string_view group, std::string_view key, Columns c, double fallback) const;
  bool logical(std::string_view group, std::string_view key, Columns c, bool fallback) const;
  std::string string(std::string_view group, std::string_view key, Columns c, std::string fallback) const;

  // Keys without a usable registry default (dates, grid sizes): absent -> Error(Config) naming
  // the key, the group and the domain.
  std::int64_t required_integer(std::string_view group, std::string_view key, Columns c) const;
  double required_real(std::string_view group, std::string_view key, Columns c) const;

  // "file:line:column: " of the key (or of its group, or "file: "), for errors about a setting.
  std::string where_key(std::string_view group, std::string_view key) const;

 private:
  const NamelistValue& required(std::string_view group, std::string_view key, Columns c) const;

  const Namelist& nl_;
  int domain_;
};

}  // namespace nwpio::detail
