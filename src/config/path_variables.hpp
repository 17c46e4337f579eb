// $NAME and ${NAME} in the &nwpio keys that name files (type "path" in the option table), so
// that `hints_file = '$NWPIO_ROOT/share/nwpio/configs/hints/lustre.toml'` works as written.
// The values come from the environment of rank 0, which reads the namelist (load_namelist
// broadcasts them with the text): every rank gets the same path even where the ranks'
// environments differ. WRF expands nothing in its own groups, and nwpio does not either there.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace nwpio::detail {

// The variables that are set (and not empty), by name.
using Environment = std::map<std::string, std::string, std::less<>>;

// The names `text` refers to ($NAME, ${NAME}), in order; malformed references are left to
// expand_variables to report.
std::vector<std::string> variables_in(std::string_view text);

// `text` with each $NAME or ${NAME} replaced by its value and each $$ by one '$'. NAME is a
// letter or '_' followed by letters, digits and '_'. Throws std::invalid_argument naming the
// variable that is not set or empty, or the malformed reference.
std::string expand_variables(std::string_view text, const Environment& env);

}  // namespace nwpio::detail
