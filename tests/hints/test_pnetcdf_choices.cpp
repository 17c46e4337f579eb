// What a PnetCDF with the GIO driver (1.14 and later) chooses itself is left to it: a profile's
// aggregators and striping are not passed under io_form 11, what the user sets for the run is;
// a PnetCDF without GIO (1.12) or told to use MPI-IO changes nothing.
#include <gtest/gtest.h>

#include <string>

#include "hints/hints_merge.hpp"
#include "hints/pnetcdf_choices.hpp"

using namespace nwpio::detail::hints;

namespace {

const std::string kShipped = std::string(NWPIO_SOURCE_DIR) + "/configs/hints/";
const LinkedPnetcdf kGio{"1.15.0", true};
const LinkedPnetcdf kMpiio{"1.12.3", false};
constexpr std::int64_t kFileBytes = std::int64_t{20} << 30;  // a Lustre size class with 24 stripes

Resolved resolved(const std::string& profile, const std::string& namelist = "", const std::string& pnetcdf_hints = "") {
  nwpio::HintOptions o;
  o.profile_file = kShipped + profile;
  o.namelist.assignments = namelist;
  Environment env;
  if (!pnetcdf_hints.empty()) env.foreign["PNETCDF_HINTS"] = pnetcdf_hints;
  Resolved r = merge_levels(o, env);
  derive(r, kFileBytes, true, 2);
  return r;
}

std::map<std::string, std::string> values(const Resolved& r) {
  std::map<std::string, std::string> out;
  for (const auto& [name, s] : r.settings) out[name] = s.value;
  return out;
}

}  // namespace

TEST(PnetcdfChoices, AProfilesAggregatorsAndStripingAreLeftToGio) {
  for (const char* profile : {"lustre.toml", "local.toml", "beegfs.toml"}) {
    const Resolved before = resolved(profile);
    Resolved r = before;
    leave_to_pnetcdf(r, kGio);
    for (const char* name : {"aggregators", "stripe_count", "stripe_size"}) {
      const Setting& s = r.settings.at(name);
      EXPECT_EQ(s.value, "default") << profile << " " << name;
      if (before.settings.at(name).value != "default") {
        EXPECT_NE(s.rule.find("left to PnetCDF 1.15.0's GIO driver"), std::string::npos) << profile << " " << name;
        EXPECT_NE(s.rule.find(before.settings.at(name).value), std::string::npos) << "names what is not passed";
      }
    }
    // Everything else is what the profile says.
    auto rest = values(r), rest_before = values(before);
    for (const char* name : {"aggregators", "stripe_count", "stripe_size"}) {
      rest.erase(name);
      rest_before.erase(name);
    }
    EXPECT_EQ(rest, rest_before) << profile;
  }
}

TEST(PnetcdfChoices, WhatTheUserSetsIsPassed) {
  const Resolved before = resolved("lustre.toml", "aggregators=6;stripe_size=4MiB");
  Resolved r = before;
  leave_to_pnetcdf(r, kGio);
  EXPECT_EQ(r.settings.at("aggregators").value, "6");
  EXPECT_EQ(r.settings.at("stripe_size").value, "4194304");
  EXPECT_EQ(r.settings.at("stripe_count").value, "default");  // the profile's, left to GIO
}

TEST(PnetcdfChoices, WithoutGioOrWithItsMpiioDriverNothingChanges) {
  for (const char* profile : {"lustre.toml", "local.toml", "gpfs.toml"}) {
    Resolved r = resolved(profile);
    leave_to_pnetcdf(r, kMpiio);
    EXPECT_EQ(values(r), values(resolved(profile))) << profile;
    Resolved raw = resolved(profile, "raw.nc_driver=mpiio");
    leave_to_pnetcdf(raw, kGio);
    EXPECT_EQ(values(raw), values(resolved(profile, "raw.nc_driver=mpiio"))) << profile;
    Resolved env = resolved(profile, "", "nc_driver=mpiio;nc_var_align_size=512");
    leave_to_pnetcdf(env, kGio);
    EXPECT_EQ(values(env), values(resolved(profile, "", "nc_driver=mpiio;nc_var_align_size=512"))) << profile;
  }
}

TEST(PnetcdfChoices, TheBuildSaysWhichPnetcdfItHas) {
  const LinkedPnetcdf linked = linked_pnetcdf();
#ifdef NWPIO_HAVE_PNETCDF
  EXPECT_FALSE(linked.version.empty());
#else
  EXPECT_TRUE(linked.version.empty());
  EXPECT_FALSE(linked.gio_default);
#endif
}
