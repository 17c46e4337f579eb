// nwpio's own namelist group &nwpio: its keys are the namelist rows of the option table
// (option_table.hpp). An unknown key in &nwpio is an error that lists the keys, so a typo never
// passes silently.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "config/namelist_values.hpp"
#include "nwpio/options.hpp"

namespace nwpio::detail {

// The one value written for a key, with conversions that report file:line:column on mismatch.
class NwpioValue {
 public:
  NwpioValue(const Namelist& nl, std::string_view key, const NamelistValue& v) : nl_(nl), key_(key), v_(v) {}
  std::int64_t integer() const { return value_as_integer(nl_, key_, v_); }
  double real() const { return value_as_real(nl_, key_, v_); }
  bool logical() const { return value_as_logical(nl_, key_, v_); }
  std::string string() const { return value_as_string(nl_, key_, v_); }
  // A string with $NAME, ${NAME} and $$ expanded from the namelist's environment (a "path" key).
  std::string path() const;
  // Any value as text (integers as written, logicals "true"/"false", strings unquoted): for
  // keys that pass through as MPI-IO hint strings.
  std::string text() const;
  // A string that must be one of `choices` (case-insensitive); returns the index.
  std::size_t choice(std::span<const std::string_view> choices) const;
  // "file:line:column" of the value: where a setting checked later (at stream open) was written.
  std::string origin() const;
  // An error at this value: "file:line:column: expected <expected>, found <value>".
  [[noreturn]] void fail(std::string_view expected) const;

 private:
  const Namelist& nl_;
  std::string_view key_;
  const NamelistValue& v_;
};

// The variables that the path keys of &nwpio refer to ($NAME, ${NAME}), to be looked up in the
// environment of the rank that reads the file.
std::vector<std::string> path_variables(const Namelist& nl);

// Applies every key of &nwpio (if the group is present) to `options`. Throws Error(Config) at an
// unknown key (listing the valid ones) or a value of the wrong type.
void apply_nwpio_group(const Namelist& nl, OutputOptions& options);

}  // namespace nwpio::detail
