// $NAME, ${NAME} and $$ in the &nwpio keys that name files (no MPI; the broadcast of rank 0's
// values is in namelist_mpi_test.cpp).
#include <gtest/gtest.h>

#include <stdexcept>
#include <utility>

#include "config/namelist_parser.hpp"
#include "config/namelist_settings.hpp"
#include "config/path_variables.hpp"
#include "nwpio/error.hpp"

namespace nwpio::detail {
namespace {

const Environment kEnv{{"NWPIO_ROOT", "/opt/nwpio"}, {"RUN", "r12"}};

std::string expand_error(std::string_view text) {
  try {
    expand_variables(text, kEnv);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "no error";
}

TEST(PathVariables, Expanded) {
  EXPECT_EQ(expand_variables("$NWPIO_ROOT/share/nwpio/configs/hints/lustre.toml", kEnv),
            "/opt/nwpio/share/nwpio/configs/hints/lustre.toml");
  EXPECT_EQ(expand_variables("${NWPIO_ROOT}_x/${RUN}/$RUN.json", kEnv), "/opt/nwpio_x/r12/r12.json");
  EXPECT_EQ(expand_variables("/data/$$RUN/a$$b", kEnv), "/data/$RUN/a$b");  // $$ is one '$'
  EXPECT_EQ(expand_variables("no variables", kEnv), "no variables");
  EXPECT_EQ(variables_in("$NWPIO_ROOT/${RUN}/$$HOME/$ /${"), (std::vector<std::string>{"NWPIO_ROOT", "RUN"}));
}

TEST(PathVariables, UnsetAndMalformedAreErrors) {
  const std::string hint = " (write $NAME or ${NAME} for a variable, $$ for a '$')";
  const std::pair<const char*, std::string> cases[] = {
      {"$NWPIO_ROT/x", "environment variable NWPIO_ROT is not set or empty"},
      {"/x/${HOME}", "environment variable HOME is not set or empty"},
      {"/x/$", "'$' at character 4 starts no variable name" + hint},
      {"/x/$1", "'$' at character 4 starts no variable name" + hint},
      {"${RUN/x", "'$' at character 1 has no '}' after ${RUN" + hint},
  };
  for (const auto& [text, message] : cases) EXPECT_EQ(expand_error(text), message) << text;
}

const std::string kDate = "&time_control\n start_year = 2019, start_month = 9, start_day = 4\n/\n";

TEST(PathVariables, PathKeysOfNwpioAreExpanded) {
  Namelist nl = Namelist::parse(kDate + "&nwpio\n hints_file = '$NWPIO_ROOT/h.toml'\n output_dir = '/s/${RUN}'\n"
                                        " stats_json = '$RUN.json'\n hints_profile = '$RUN'\n/\n", "test.nml");
  nl.set_environment(kEnv);
  const OutputOptions o = output_options_from(nl, 1);
  EXPECT_EQ(o.hints.namelist.profile_file, "/opt/nwpio/h.toml");
  EXPECT_EQ(o.output_dir, "/s/r12");
  EXPECT_EQ(o.stats_json, "r12.json");
  EXPECT_EQ(o.hints.namelist.profile, "$RUN");  // a name, not a path: as written
}

TEST(PathVariables, UnsetVariableNamesKeyAndPlace) {
  Namelist nl = Namelist::parse(kDate + "&nwpio\n hints_file = '$NWPIO_ROOT/h.toml'\n/\n", "test.nml");
  try {
    output_options_from(nl, 1);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Config);
    EXPECT_STREQ(e.what(), "test.nml:5:15: cannot expand hints_file '$NWPIO_ROOT/h.toml': environment variable "
                           "NWPIO_ROOT is not set or empty (the environment of rank 0, which reads the namelist)");
  }
}

}  // namespace
}  // namespace nwpio::detail
