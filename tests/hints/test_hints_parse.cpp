// Parsing: values, assignments, the typo check, and TOML profiles (good and bad).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <utility>

#include "hints/hints_profile.hpp"
#include "hints/hints_settings.hpp"
#include "nwpio/error.hpp"

using namespace nwpio::detail::hints;
namespace fs = std::filesystem;

namespace {

std::string write_temp(const std::string& name, const std::string& text) {
  const fs::path dir = fs::temp_directory_path() / "nwpio-hints-unit";
  fs::create_directories(dir);
  const fs::path p = dir / name;
  std::ofstream(p) << text;
  return p.string();
}

// Line number (1-based) of the first line of `text` containing `needle`.
int line_of(const std::string& text, const std::string& needle) {
  int line = 1;
  for (std::size_t i = 0; i < text.find(needle); ++i) line += text[i] == '\n';
  return line;
}

}  // namespace

TEST(HintValues, SizesAcceptBinarySuffixes) {
  EXPECT_EQ(parse_size("65536"), 65536);
  EXPECT_EQ(parse_size("64k"), 64 * 1024);
  EXPECT_EQ(parse_size("4MiB"), 4 << 20);
  EXPECT_EQ(parse_size(" 1 M "), 1 << 20);
  EXPECT_EQ(parse_size("1g"), std::int64_t{1} << 30);
  EXPECT_THROW(parse_size("4 furlongs"), std::invalid_argument);
  EXPECT_THROW(parse_size("-1"), std::invalid_argument);
  EXPECT_THROW(parse_size(""), std::invalid_argument);
}

TEST(HintValues, CanonicalFormsPerKind) {
  const auto& count = *find_spec("stripe_count");
  const auto& size = *find_spec("stripe_size");
  const auto& sw = *find_spec("collective_write");
  EXPECT_EQ(canonical_value(count, "8"), "8");
  EXPECT_EQ(canonical_value(count, "AUTO"), "auto");
  EXPECT_EQ(canonical_value(size, "1MiB"), std::to_string(1 << 20));
  EXPECT_EQ(canonical_value(size, "default"), "default");
  EXPECT_EQ(canonical_value(sw, "enable"), "true");
  EXPECT_EQ(canonical_value(sw, "off"), "false");
  EXPECT_THROW(canonical_value(count, "eight"), std::invalid_argument);
  EXPECT_THROW(canonical_value(count, "0"), std::invalid_argument);
  EXPECT_THROW(canonical_value(size, "2GiB"), std::invalid_argument);  // above INT_MAX
  EXPECT_THROW(canonical_value(sw, "maybe"), std::invalid_argument);
}

TEST(HintValues, AssignmentsAndTheirErrors) {
  const auto a = parse_assignments(" stripe_count = 4 ; ;romio_cb_read=enable;");
  ASSERT_EQ(a.size(), 2u);
  EXPECT_EQ(a[0], (std::pair<std::string, std::string>{"stripe_count", "4"}));
  EXPECT_EQ(a[1], (std::pair<std::string, std::string>{"romio_cb_read", "enable"}));
  EXPECT_TRUE(parse_assignments("").empty());
  EXPECT_THROW(parse_assignments("stripe_count"), std::invalid_argument);
  EXPECT_THROW(parse_assignments("=4"), std::invalid_argument);
}

TEST(HintValues, NearestNameFindsTypos) {
  const auto names = setting_names();
  EXPECT_EQ(nearest("stripe_cont", names), "stripe_count");
  EXPECT_EQ(nearest("agregators", names), "aggregators");
  EXPECT_EQ(nearest("colective_write", names), "collective_write");
  EXPECT_EQ(nearest("completely_unrelated_thing", names), "");
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
  EXPECT_EQ(edit_distance("histroy", "history"), 1u);  // a swap of neighbours is one edit
  EXPECT_EQ(edit_distance("ca", "abc"), 3u);  // each substring edited once (optimal string alignment)
}

TEST(HintProfile, ReadsSettingsRawKeysAndExtends) {
  const std::string text =
      "[profile.base]\nstripe_count = 4\nstripe_size = \"2MiB\"\n[profile.base.raw]\nromio_cb_read = \"enable\"\n"
      "[profile.child]\nextends = \"base\"\nstripe_count = 16\ncollective_write = false\n";
  const auto path = write_temp("good.toml", text);
  std::vector<std::string> warnings;
  const auto p = read_profile(path, "child", warnings);
  EXPECT_TRUE(warnings.empty());
  EXPECT_EQ(p.settings.at("stripe_count").text, "16");
  EXPECT_EQ(p.settings.at("stripe_count").origin, path + ":" + std::to_string(line_of(text, "stripe_count = 16")));
  EXPECT_EQ(p.settings.at("stripe_size").text, std::to_string(2 << 20));  // inherited
  EXPECT_EQ(p.settings.at("collective_write").text, "false");
  EXPECT_EQ(p.raw.at("romio_cb_read").text, "enable");
}

TEST(HintProfile, UnknownKeyWarnsWithNearestValidKey) {
  const std::string text = "[profile.default]\nstripe_cout = 4\naggregators = 2\n";
  const auto path = write_temp("typo.toml", text);
  std::vector<std::string> warnings;
  const auto p = read_profile(path, "", warnings);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("'stripe_cout'"), std::string::npos) << warnings[0];
  EXPECT_NE(warnings[0].find("did you mean 'stripe_count'"), std::string::npos) << warnings[0];
  EXPECT_NE(warnings[0].find(path + ":2"), std::string::npos) << warnings[0];
  EXPECT_EQ(p.settings.count("stripe_count"), 0u);
  EXPECT_EQ(p.settings.at("aggregators").text, "2");
}

// Reads profile "default" of the file `name` holding `text`; it must fail with Error(Config):
// returns the message and the file's path.
std::pair<std::string, std::string> config_error_of(const std::string& name, const std::string& text) {
  const auto path = write_temp(name, text);
  std::vector<std::string> warnings;
  try {
    read_profile(path, "default", warnings);
  } catch (const nwpio::Error& e) {
    EXPECT_EQ(e.kind(), nwpio::ErrorKind::Config);
    return {e.what(), path};
  }
  ADD_FAILURE() << "no error for " << name;
  return {"", path};
}

TEST(HintProfile, MalformedValueIsConfigErrorWithFileLine) {
  const std::string text = "[profile.default]\naggregators = 2\n\ncb_buffer_size = \"16 parsecs\"\n";
  const auto [msg, path] = config_error_of("badvalue.toml", text);
  const std::string want = path + ":" + std::to_string(line_of(text, "cb_buffer_size"));
  EXPECT_EQ(msg.rfind(want + ":", 0), 0u) << msg;
}

TEST(HintProfile, WrongTomlTypeIsConfigErrorWithFileLine) {
  const auto [msg, path] = config_error_of("float.toml", "[profile.default]\nstripe_count = 4.5\n");
  EXPECT_EQ(msg.rfind(path + ":2:", 0), 0u) << msg;
}

TEST(HintProfile, SyntaxErrorIsConfigErrorWithFileLine) {
  const auto [msg, path] = config_error_of("syntax.toml", "[profile.default]\naggregators = 2\nstripe_count = = 4\n");
  EXPECT_EQ(msg.rfind(path + ":3:", 0), 0u) << msg;
}

// TOML is UTF-8; toml11 3.7 reads past its buffer while reporting invalid UTF-8 in a string, so
// nwpio checks first and names the place.
TEST(HintProfile, InvalidUtf8IsConfigErrorWithFileLine) {
  const auto [msg, path] = config_error_of("utf8.toml", "[profile.default]\naggregators = 2\nextends = 'ab\xff'\n");
  EXPECT_EQ(msg.rfind(path + ":3:14", 0), 0u) << msg;
  EXPECT_NE(msg.find("not valid UTF-8"), std::string::npos) << msg;
  // Valid multi-byte text still reaches the TOML parser.
  std::vector<std::string> warnings;
  const auto ok = write_temp("utf8_ok.toml", "[profile.default]\n# \u00dcberschrift\naggregators = 2\n");
  EXPECT_NO_THROW(read_profile(ok, "default", warnings));
}

TEST(HintProfile, MissingProfileAndCycleAreErrors) {
  const auto path = write_temp("cycle.toml", "[profile.a]\nextends = \"b\"\n[profile.b]\nextends = \"a\"\n");
  std::vector<std::string> warnings;
  EXPECT_THROW(read_profile(path, "a", warnings), nwpio::Error);
  try {
    read_profile(path, "bb", warnings);
    FAIL();
  } catch (const nwpio::Error& e) {
    EXPECT_NE(std::string(e.what()).find("did you mean"), std::string::npos) << e.what();
  }
  try {
    read_profile(write_temp("none.toml", "") + ".missing", "a", warnings);
    FAIL();
  } catch (const nwpio::Error& e) {
    EXPECT_EQ(e.kind(), nwpio::ErrorKind::Io);
  }
}

// Every shipped profile parses without a warning.
TEST(HintProfile, ShippedProfilesAreClean) {
  int profiles = 0;
  for (const auto& entry : fs::directory_iterator(fs::path(NWPIO_SOURCE_DIR) / "configs" / "hints")) {
    if (entry.path().extension() != ".toml") continue;
    std::vector<std::string> warnings;
    const auto first = read_profile(entry.path().string(), "default", warnings);
    for (const auto& name : first.profiles) {
      const auto p = read_profile(entry.path().string(), name, warnings);
      EXPECT_FALSE(p.settings.empty()) << entry.path() << " " << name;
      ++profiles;
    }
    EXPECT_TRUE(warnings.empty()) << entry.path() << ": " << (warnings.empty() ? "" : warnings[0]);
  }
  EXPECT_GE(profiles, 3);
}
