// Reading hint profiles from TOML (toml11). One file holds several named profiles:
//
//   [profile.default]            # logical settings (see hints_settings.hpp)
//   stripe_count = 8
//   stripe_size  = "1MiB"
//   [profile.default.raw]        # any MPI-IO / PnetCDF key nwpio does not model, verbatim
//   romio_lustre_co_ratio = "2"
//   [profile.large]
//   extends = "default"          # start from another profile of the same file
//   stripe_count = 72
//
// A malformed value is an Error(Config) "file:line: ..."; an unknown key is a warning naming
// the nearest valid key. Called on rank 0 only (the session broadcasts the result).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "hints/hints_settings.hpp"

namespace nwpio::detail::hints {

struct ProfileValues {
  std::map<std::string, SettingText> settings;  // logical settings, canonical values
  std::map<std::string, SettingText> raw;       // pass-through keys
  std::vector<std::string> profiles;      // every profile name in the file
};

// Reads profile `name` ("default" when empty) of `path`. Warnings are appended to `warnings`.
// Throws Error(Io) when the file cannot be read, Error(Config) for syntax errors, malformed
// values, a missing profile or an `extends` cycle (all with file:line where there is one).
ProfileValues read_profile(const std::string& path, const std::string& name, std::vector<std::string>& warnings);

}  // namespace nwpio::detail::hints
