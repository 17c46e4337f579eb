#include "hints/pnetcdf_choices.hpp"

#ifdef NWPIO_HAVE_PNETCDF
#include <pnetcdf.h>
#endif

#include <array>
#include <stdexcept>

#include "hints/hints_settings.hpp"

namespace nwpio::detail::hints {

namespace {

// The levels at which the user sets a value for this run (hints_merge.cpp's origins); a
// profile's values carry their file:line, the built-in level "built-in".
bool set_by_user(const std::string& origin) {
  return origin == "namelist hints" || origin == "API" || origin == "NWPIO_HINTS";
}

// nc_driver=mpiio, in nwpio's raw keys or in PNETCDF_HINTS (PnetCDF applies it over everything).
bool mpiio_driver_asked(const Resolved& r) {
  if (const auto it = r.raw.find("nc_driver"); it != r.raw.end() && it->second.text == "mpiio") return true;
  const auto env = r.foreign_env.find("PNETCDF_HINTS");
  if (env == r.foreign_env.end()) return false;
  try {
    for (const auto& [k, v] : parse_assignments(env->second)) {
      if (k == "nc_driver" && v == "mpiio") return true;
    }
  } catch (const std::invalid_argument&) {
    // PnetCDF warns about a malformed PNETCDF_HINTS itself.
  }
  return false;
}

}  // namespace

LinkedPnetcdf linked_pnetcdf() {
#if defined(NWPIO_HAVE_PNETCDF) && defined(PNETCDF_DRIVER_GIO) && PNETCDF_DRIVER_GIO == 1
  return {PNETCDF_VERSION, true};
#elif defined(NWPIO_HAVE_PNETCDF)
  return {PNETCDF_VERSION, false};
#else
  return {};
#endif
}

void leave_to_pnetcdf(Resolved& r, const LinkedPnetcdf& pnetcdf) {
  if (!pnetcdf.gio_default || mpiio_driver_asked(r)) return;
  struct Left {
    const char* name;
    const char* what;
  };
  constexpr std::array<Left, 3> kLeft = {{{"aggregators", "it sets cb_nodes from the nodes and the ranks per node"},
                                          {"stripe_count", "it stripes a new file at create (file_striping=auto)"},
                                          {"stripe_size", "it stripes a new file at create (file_striping=auto)"}}};
  for (const Left& l : kLeft) {
    Setting& s = r.settings[l.name];
    if (set_by_user(s.origin) || s.value == "default") continue;
    s.rule = std::string(kLeftToPnetcdf) + pnetcdf.version + "'s GIO driver: " + l.what + " (" + s.value + " <" +
             s.origin + "> not passed; set it in &nwpio hints or NWPIO_HINTS to pass it)";
    s.value = "default";
  }
}

}  // namespace nwpio::detail::hints
