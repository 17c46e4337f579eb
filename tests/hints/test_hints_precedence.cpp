// Precedence: built-in < profile < namelist < API < environment, each level overriding the
// previous; profile choice; derived defaults and that each one can be overridden.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "hints/hints_merge.hpp"
#include "nwpio/error.hpp"

using namespace nwpio::detail::hints;
namespace fs = std::filesystem;

namespace {

std::string write_temp(const std::string& name, const std::string& text) {
  const fs::path dir = fs::temp_directory_path() / "nwpio-hints-prec";
  fs::create_directories(dir);
  const fs::path p = dir / name;
  std::ofstream(p) << text;
  return p.string();
}

// Sets stripe_count (and a raw key) at the first `levels` levels: 1 profile, 2 namelist,
// 3 API, 4 environment. Level i uses the value 10 + i, so the expected winner is computed.
Resolved resolve_up_to(int levels) {
  nwpio::HintOptions o;
  Environment env;
  auto value = [](int level) { return std::to_string(10 + level); };
  if (levels >= 1) {
    o.profile_file = write_temp("prec.toml", "[profile.default]\nstripe_count = " + value(1) +
                                                 "\n[profile.default.raw]\nmy_key = \"" + value(1) + "\"\n");
  }
  if (levels >= 2) o.namelist.assignments = "stripe_count=" + value(2) + ";raw.my_key=" + value(2);
  if (levels >= 3) {
    o.overrides["stripe_count"] = value(3);
    o.overrides["raw.my_key"] = value(3);
  }
  if (levels >= 4) env.hints = "stripe_count=" + value(4) + ";raw.my_key=" + value(4);
  return merge_levels(o, env);
}

}  // namespace

TEST(HintPrecedence, EachLevelOverridesThePrevious) {
  const char* origins[] = {"built-in", "prec.toml", "namelist hints", "API", "NWPIO_HINTS"};
  for (int levels = 0; levels <= 4; ++levels) {
    const Resolved r = resolve_up_to(levels);
    const Setting& s = r.settings.at("stripe_count");
    SCOPED_TRACE("levels " + std::to_string(levels));
    EXPECT_EQ(s.asked, levels == 0 ? "default" : std::to_string(10 + levels));
    EXPECT_NE(s.origin.find(origins[levels]), std::string::npos) << s.origin;
    if (levels > 0) {
      EXPECT_EQ(r.raw.at("my_key").text, std::to_string(10 + levels));
      EXPECT_NE(r.raw.at("my_key").origin.find(origins[levels]), std::string::npos);
    }
  }
}

TEST(HintPrecedence, ProfileChoiceNamelistThenApiThenEnvironment) {
  const auto a = write_temp("a.toml", "[profile.default]\nstripe_count = 1\n[profile.x]\nstripe_count = 2\n");
  const auto b = write_temp("b.toml", "[profile.default]\nstripe_count = 3\n[profile.x]\nstripe_count = 4\n");
  const auto c = write_temp("c.toml", "[profile.default]\nstripe_count = 5\n[profile.x]\nstripe_count = 6\n");
  nwpio::HintOptions o;
  Environment env;
  o.namelist.profile_file = a;
  EXPECT_EQ(merge_levels(o, env).settings.at("stripe_count").asked, "1");
  o.namelist.profile = "x";
  EXPECT_EQ(merge_levels(o, env).settings.at("stripe_count").asked, "2");
  o.profile_file = b;  // API file, namelist profile name still applies
  EXPECT_EQ(merge_levels(o, env).settings.at("stripe_count").asked, "4");
  o.profile = "default";
  EXPECT_EQ(merge_levels(o, env).settings.at("stripe_count").asked, "3");
  env.hints_file = c;
  Resolved r = merge_levels(o, env);
  EXPECT_EQ(r.settings.at("stripe_count").asked, "5");
  EXPECT_EQ(r.profile_origin, "NWPIO_HINTS_FILE");
  env.hints_profile = "x";
  EXPECT_EQ(merge_levels(o, env).settings.at("stripe_count").asked, "6");
}

TEST(HintPrecedence, ProfileNameWithoutFileIsAnError) {
  nwpio::HintOptions o;
  o.profile = "lustre";
  EXPECT_THROW(merge_levels(o, Environment{}), nwpio::Error);
}

TEST(HintPrecedence, BadValuesNameTheirLevel) {
  nwpio::HintOptions o;
  Environment env;
  env.hints = "aggregators=lots";
  try {
    merge_levels(o, env);
    FAIL();
  } catch (const nwpio::Error& e) {
    EXPECT_EQ(e.kind(), nwpio::ErrorKind::Config);
    EXPECT_EQ(std::string(e.what()).rfind("NWPIO_HINTS:", 0), 0u) << e.what();
  }
  o.namelist.assignments = "stripe_size";
  EXPECT_THROW(merge_levels(o, Environment{}), nwpio::Error);
}

TEST(HintPrecedence, TypoOutsideProfilesWarnsAndPassesVerbatim) {
  nwpio::HintOptions o;
  o.overrides["agregators"] = "4";
  o.overrides["romio_cb_read"] = "enable";
  const Resolved r = merge_levels(o, Environment{});
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_NE(r.warnings[0].find("did you mean 'aggregators'"), std::string::npos) << r.warnings[0];
  EXPECT_EQ(r.raw.at("agregators").text, "4");
  EXPECT_EQ(r.raw.at("romio_cb_read").text, "enable");
}

TEST(HintDerived, StripeCountBySizeClass) {
  constexpr std::int64_t GiB = std::int64_t{1} << 30;
  // The NERSC table (docs/HINTS.md): < 1 GB default, 1-10 GB 8, 10-100 GB 24, more 72.
  EXPECT_EQ(stripe_count_for_size(GiB - 1), 1);
  EXPECT_EQ(stripe_count_for_size(GiB), 8);
  EXPECT_EQ(stripe_count_for_size(10 * GiB - 1), 8);
  EXPECT_EQ(stripe_count_for_size(10 * GiB), 24);
  EXPECT_EQ(stripe_count_for_size(100 * GiB), 72);

  nwpio::HintOptions o;
  o.overrides["stripe_count"] = "auto";
  o.overrides["stripe_size"] = "3MiB";
  Resolved r = merge_levels(o, Environment{});
  derive(r, 5 * GiB);
  EXPECT_EQ(r.settings.at("stripe_count").value, std::to_string(stripe_count_for_size(5 * GiB)));
  EXPECT_FALSE(r.settings.at("stripe_count").rule.empty());
  // aggregators = stripe count; header alignment = stripe size; cb_buffer_size a multiple of it.
  EXPECT_EQ(r.settings.at("aggregators").value, r.settings.at("stripe_count").value);
  EXPECT_EQ(r.settings.at("header_align").value, r.settings.at("stripe_size").value);
  const std::int64_t ss = 3 << 20, cb = std::stoll(r.settings.at("cb_buffer_size").value);
  EXPECT_EQ(cb % ss, 0);
  EXPECT_LE(cb, 16 << 20);
  EXPECT_GT(cb + ss, 16 << 20);
  EXPECT_EQ(r.settings.at("data_sieving_write").value, "false");

  Resolved unknown = merge_levels(o, Environment{});
  derive(unknown, 0);  // file size unknown: striping left to the directory
  EXPECT_EQ(unknown.settings.at("stripe_count").value, "default");
  EXPECT_EQ(unknown.settings.at("aggregators").value, "default");
}

TEST(HintDerived, EveryDerivedDefaultIsOverridable) {
  nwpio::HintOptions o;
  o.overrides = {{"stripe_count", "4"},       {"stripe_size", "1MiB"},   {"aggregators", "3"},
                 {"cb_buffer_size", "5MiB"},  {"header_align", "8KiB"}, {"data_sieving_write", "true"}};
  Resolved r = merge_levels(o, Environment{});
  derive(r, std::int64_t{50} << 30);
  for (const auto& [k, v] : o.overrides) {
    EXPECT_EQ(r.settings.at(k).value, r.settings.at(k).asked) << k;
    EXPECT_TRUE(r.settings.at(k).rule.empty()) << k;
  }
  EXPECT_EQ(r.settings.at("aggregators").value, "3");
}

// ROMIO fills one host up to cb_config_list's count before it takes the next: the derived count
// per node spreads the aggregators over the nodes the file's ranks run on.
TEST(HintDerived, AggregatorsPerNodeSpreadsThemOverTheNodes) {
  for (const int aggregators : {1, 2, 7, 8}) {
    for (const int nodes : {1, 2, 3, 50}) {
      nwpio::HintOptions o;
      o.overrides["aggregators"] = std::to_string(aggregators);
      Resolved r = merge_levels(o, Environment{});
      derive(r, 0, false, nodes);
      const int per_node = std::stoi(r.settings.at("aggregators_per_node").value);
      EXPECT_GE(per_node * nodes, aggregators) << aggregators << " on " << nodes;  // all reachable
      EXPECT_LT((per_node - 1) * nodes, aggregators) << aggregators << " on " << nodes;  // none piled up
    }
  }
  nwpio::HintOptions o;
  o.overrides["aggregators"] = "6";
  Resolved unknown = merge_levels(o, Environment{});
  derive(unknown, 0);  // node count unknown: every aggregator may share one node
  EXPECT_EQ(unknown.settings.at("aggregators_per_node").value, "6");
  o.overrides["aggregators_per_node"] = "1";
  Resolved fixed = merge_levels(o, Environment{});
  derive(fixed, 0, false, 3);
  EXPECT_EQ(fixed.settings.at("aggregators_per_node").value, "1");
  Resolved none = merge_levels(nwpio::HintOptions{}, Environment{});
  derive(none, 0, false, 4);
  EXPECT_EQ(none.settings.at("aggregators_per_node").value, "default");
}

TEST(HintDerived, NothingAskedLeavesEverythingToTheImplementation) {
  Resolved r = merge_levels(nwpio::HintOptions{}, Environment{});
  derive(r, 0);
  for (const auto& [name, s] : r.settings) {
    if (name == "data_sieving_write") {
      EXPECT_EQ(s.value, "false");
    } else {
      EXPECT_EQ(s.value, "default") << name;
    }
  }
}
