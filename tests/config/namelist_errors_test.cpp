// Every malformed input gives Error(Config) "file:line:column: expected ..., found ..." with the
// exact position (no MPI).
#include <gtest/gtest.h>

#include <array>
#include <functional>
#include <string_view>

#include "config/namelist_parser.hpp"
#include "config/namelist_settings.hpp"
#include "config/namelist_typos.hpp"
#include "model_settings_from.hpp"
#include "nwpio/error.hpp"

namespace nwpio::detail {
namespace {

std::string error_of(const std::function<void()>& f, ErrorKind kind = ErrorKind::Config) {
  try {
    f();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), kind) << e.what();
    return e.what();
  }
  return "no error";
}

std::string parse_error(const std::string& text) {
  constexpr std::array<std::string_view, 2> groups{"g", "time_control"};
  return error_of([&] { Namelist::parse(text, "test.nml", groups); });
}

TEST(NamelistErrors, SyntaxPositions) {
  EXPECT_EQ(parse_error("&g\n a = 1\n"), "test.nml:3:1: expected a key name or '/' to end &g, found end of file");
  EXPECT_EQ(parse_error("&g\n a 1\n/\n"), "test.nml:2:4: expected '=' after 'a', found integer 1");
  EXPECT_EQ(parse_error("&g\n a = 'abc\n/\n"),
            "test.nml:2:10: expected a closing ' for the string opened at 2:6, found end of line");
  EXPECT_EQ(parse_error("&g\n a = \"abc"),
            "test.nml:2:10: expected a closing \" for the string opened at 2:6, found end of file");
  EXPECT_EQ(parse_error("&g\n a = 1.2.3\n/\n"), "test.nml:2:6: expected a number, found '1.2.3'");
  EXPECT_EQ(parse_error("&g\n a = 12abc\n/\n"), "test.nml:2:6: expected a number, found '12abc'");
  EXPECT_EQ(parse_error("&g\n a = 1e, 2\n/\n"), "test.nml:2:6: expected a number, found '1e'");
  EXPECT_EQ(parse_error("&g\n a = 99999999999999999999\n/\n"),
            "test.nml:2:6: expected an integer within 64 bits, found '99999999999999999999'");
  EXPECT_EQ(parse_error("&g\n a = .maybe.\n/\n"),
            "test.nml:2:6: expected a logical (.true., .false., .t., .f.), found '.maybe.'");
  EXPECT_EQ(parse_error("junk\n&g\n a = 1\n"), "test.nml:4:1: expected a key name or '/' to end &g, found end of file");
  EXPECT_EQ(parse_error("&g\n a = 1\n&time_control\n/\n"),
            "test.nml:3:1: expected a key name or '/' to end &g, found group start '&time_control'");
  EXPECT_EQ(parse_error("&g junk\n/\n"), "test.nml:2:1: expected '=' after 'junk', found group end '/'");
  EXPECT_EQ(parse_error("&g\n a = wrfout\n/\n"),
            "test.nml:2:6: expected a value (strings need quotes) or 'name =' of the next key, found name 'wrfout'");
  EXPECT_EQ(parse_error("&g\n a = 1 @\n/\n"), "test.nml:2:8: expected a name, a value, '=', ',' or '/', found '@'");
  EXPECT_EQ(parse_error("&g\n a = 0*1\n/\n"), "test.nml:2:6: expected a repeat count of at least 1, found '0*'");
  EXPECT_EQ(parse_error("&g\n a(0) = 1\n/\n"), "test.nml:2:4: expected an index of at least 1 in a(...), found integer 0");
  EXPECT_EQ(parse_error("&g\n a(2 = 1\n/\n"), "test.nml:2:6: expected ')' after the index of a, found '='");
  EXPECT_EQ(parse_error("&g\n = 1\n/\n"), "test.nml:2:2: expected a key name or '/' to end &g, found '='");
  EXPECT_EQ(parse_error("&g\n a = 3*=\n/\n"), "test.nml:2:8: expected a value, found '='");
}

std::string settings_error(const std::string& text, int domain = 1, ErrorKind kind = ErrorKind::Config) {
  return error_of([&] { output_options_from(Namelist::parse(text, "test.nml"), domain); }, kind);
}

const std::string kDate = "&time_control\n start_year = 2019, start_month = 9, start_day = 4\n";

TEST(NamelistErrors, ValuePositions) {
  EXPECT_EQ(settings_error(kDate + " history_interval = 60.5\n/\n"),
            "test.nml:3:21: expected an integer for history_interval, found real 60.5");
  EXPECT_EQ(settings_error(kDate + " nocolons = 1\n/\n"),
            "test.nml:3:13: expected a logical (.true. or .false.) for nocolons, found integer 1");
  EXPECT_EQ(settings_error(kDate + " history_outname = .true.\n/\n"),
            "test.nml:3:20: expected a quoted string for history_outname, found logical .true.");
  EXPECT_EQ(settings_error(kDate + " io_form_history = 2, 11\n/\n"),
            "test.nml:3:23: expected one value for io_form_history, found a second value, integer 11");
  EXPECT_EQ(settings_error(kDate + " io_form_history = 5\n/\n"),
            "test.nml:3:20: expected a supported io_form_history (2: serial netCDF, 11: PnetCDF, 13: parallel netCDF-4), found 5");
  EXPECT_EQ(settings_error(kDate + " history_interval = -5\n/\n"),
            "test.nml:3:21: expected an integer >= 0 for history_interval, found -5");
  EXPECT_EQ(settings_error(kDate + " frames_per_outfile = 0\n/\n"),
            "test.nml:3:23: expected frames_per_outfile >= 1, found 0");
  EXPECT_EQ(settings_error(kDate + " history_interval_mo = 1\n/\n"),
            "test.nml:3:24: expected 0 for history_interval_mo (months and years have no fixed length; use "
            "history_interval_d/_h/_m/_s), found 1");
}

TEST(NamelistErrors, MissingAndOutOfRange) {
  EXPECT_EQ(settings_error("&time_control\n start_year = 2019\n/\n"),
            "test.nml:1:1: expected start_month in &time_control (column 1), found it missing");
  EXPECT_EQ(settings_error("&time_control\n start_year = 2019, start_month = 9, start_day = 4, 5\n/\n&domains\n max_dom = 3\n/\n", 3),
            "test.nml:2:2: expected start_year in &time_control (column 3), found it gives no value for domain 3");
  EXPECT_EQ(settings_error(kDate + "/\n&domains\n max_dom = 2\n/\n", 3),
            "test.nml:5:2: domain 3 is out of range: max_dom = 2");
  EXPECT_EQ(settings_error(kDate + "/\n", 2), "test.nml: domain 2 is out of range: max_dom = 1");
  EXPECT_EQ(settings_error(kDate + "/\n", 0, ErrorKind::InvalidArgument),
            "domain id 0 is not a WRF domain id (they count from 1)");
  EXPECT_EQ(settings_error("&time_control\n start_year = 2019, start_month = 2, start_day = 30\n/\n"),
            settings_error("&time_control\n start_year = 2019, start_month = 2, start_day = 30\n/\n"));
  EXPECT_NE(settings_error("&time_control\n start_year = 2019, start_month = 2, start_day = 30\n/\n")
                .find("test.nml:2:2: expected a valid start date for domain 1, found "),
            std::string::npos);
}

TEST(NamelistErrors, UnknownNwpioKeyListsTheValidOnes) {
  const std::string e = settings_error(kDate + "/\n&nwpio\n output_dir = '/tmp'\n gahter = 'direct'\n/\n");
  EXPECT_EQ(e.rfind("test.nml:6:2: expected a key of &nwpio, found unknown key 'gahter' (did you mean 'gather'?); "
                    "valid keys: output_dir, ", 0), 0u) << e;
  const std::string far = settings_error(kDate + "/\n&nwpio\n no_such_thing = 1\n/\n");
  EXPECT_EQ(far.rfind("test.nml:5:2: expected a key of &nwpio, found unknown key 'no_such_thing'; valid keys: ", 0), 0u) << far;
  EXPECT_NE(e.find("gather"), std::string::npos);
  EXPECT_NE(e.find("hints_profile"), std::string::npos);
  EXPECT_EQ(settings_error(kDate + "/\n&nwpio\n gather = 'sideways'\n/\n"),
            "test.nml:5:11: expected 'auto', 'rearrange' or 'direct' for gather, found string 'sideways'");
  EXPECT_EQ(settings_error(kDate + "/\n&nwpio\n max_round_bytes = 0\n/\n"),
            "test.nml:5:20: expected an integer >= 1 for max_round_bytes, found integer 0");
}

// A key of WRF's groups a typo away from one nwpio reads is a warning naming the key it resembles;
// WRF's other keys, including those near ours, are not.
TEST(NamelistErrors, MisspelledWrfKeysAreWarnings) {
  const Namelist nl = Namelist::parse(kDate + " histroy_interval = 60\n frames_per_outfle = 1\n restart_interval = 60\n"
                                              " history_inname = 'x'\n history_interval = 30\n/\n"
                                              "&domains\n s_we = 1\n e_vret = 30\n mp_physics = 8\n dz = 1\n/\n"
                                              "&namelist_quilt\n nio_group = 2\n/\n",
                                      "test.nml");
  EXPECT_EQ(misspelled_key_warnings(nl),
            (std::vector<std::string>{
                "test.nml:3:2: warning: nwpio reads no key 'histroy_interval' in &time_control; did you mean "
                "'history_interval'? (nwpio ignores the key and uses the default of history_interval; WRF itself "
                "stops on a key it does not know)",
                "test.nml:4:2: warning: nwpio reads no key 'frames_per_outfle' in &time_control; did you mean "
                "'frames_per_outfile'? (nwpio ignores the key and uses the default of frames_per_outfile; WRF itself "
                "stops on a key it does not know)",
                "test.nml:11:2: warning: nwpio reads no key 'e_vret' in &domains; did you mean 'e_vert'? (nwpio ignores "
                "the key and uses the default of e_vert; WRF itself stops on a key it does not know)",
                "test.nml:16:2: warning: nwpio reads no key 'nio_group' in &namelist_quilt; did you mean 'nio_groups'? "
                "(nwpio ignores the key and uses the default of nio_groups; WRF itself stops on a key it does not "
                "know)"}));
  EXPECT_TRUE(misspelled_key_warnings(Namelist::parse(kDate + "/\n", "t")).empty());
}

TEST(NamelistErrors, UnknownKeysInWrfGroupsAreIgnored) {
  EXPECT_NO_THROW(output_options_from(
      Namelist::parse(kDate + " no_such_wrf_key = 1, 'x', .true.\n/\n&physics\n anything = 3*2.5\n/\n", "t"), 1));
}

TEST(NamelistErrors, ModelSettings) {
  const auto model_error = [](const std::string& text, int domain = 1) {
    return error_of([&] { model_settings_from(Namelist::parse(text, "test.nml"), domain); });
  };
  const std::string dom = "&domains\n time_step = 60, e_we = 10, e_sn = 10, e_vert = 5, dx = 1000, dy = 1000\n";
  EXPECT_EQ(model_error(kDate + " run_hours = 1\n/\n&domains\n time_step = 60, e_we = 10, e_sn = 10, dx = 1, dy = 1\n/\n"),
            "test.nml:5:1: expected e_vert in &domains (column 1), found it missing");
  EXPECT_EQ(model_error(kDate + " run_hours = 1\n/\n&domains\n time_step = 60, e_we = 1, e_sn = 10, e_vert = 5, dx = 1, dy = 1\n/\n"),
            "test.nml:6:25: expected e_we >= 2 (a staggered point count), found 1");
  EXPECT_EQ(model_error(kDate + " run_hours = 1\n/\n" + dom + " time_step_fract_den = 0\n/\n"),
            "test.nml:7:2: expected a nonzero time_step_fract_den, found 0");
  EXPECT_EQ(model_error(kDate + " end_year = 2019, end_month = 9, end_day = 3\n/\n" + dom + "/\n"),
            "test.nml:3:2: expected an end date not before the start date 2019-09-04_00:00:00 for domain 1, found "
            "2019-09-03_00:00:00");
}

}  // namespace
}  // namespace nwpio::detail
