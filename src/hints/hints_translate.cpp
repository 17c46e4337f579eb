#include "hints/hints_translate.hpp"

#include "hints/pnetcdf_choices.hpp"
#include "mpiio/ompio_guard.hpp"

namespace nwpio::detail::hints {

namespace {

const char* onoff(const std::string& v, const char* on, const char* off) { return v == "true" ? on : off; }

}  // namespace

IndependentWrites independent_writes(const Resolved& r, const MpiIo& io) {
  const bool romio = io.layer == IoLayer::Romio;
  const auto described = [](const std::string& name, const std::string& value, const std::string& origin) {
    return name + "=" + value + " <" + origin + ">";
  };
  // no_indep_rw: ROMIO defers the open to the aggregators, who alone may write.
  if (romio) {
    const auto raw = r.raw.find("romio_no_indep_rw");
    if (raw != r.raw.end() && raw->second.text == "true") return {false, described(raw->first, "true", raw->second.origin)};
    const Setting& s = r.settings.at("no_indep_rw");
    if (raw == r.raw.end() && s.value == "true") return {false, described("no_indep_rw", "true", s.origin)};
  }
  // Collective buffering: this layer's raw key wins over the logical setting.
  const char* raw_key = romio ? "romio_cb_write" : "collective_buffering";
  if (const auto raw = r.raw.find(raw_key); raw != r.raw.end()) {
    const bool off = raw->second.text == (romio ? "disable" : "false");
    return {off, off ? std::string() : described(raw->first, raw->second.text, raw->second.origin)};
  }
  const Setting& cb = r.settings.at("collective_write");
  if (cb.value == "false") return {true, {}};
  if (cb.value == "default") {
    return {false, "collective_write=default (nothing turned collective buffering off; " + io.layer_name() +
                       " uses it by default) <" + cb.origin + ">"};
  }
  return {false, described("collective_write", cb.value, cb.origin)};
}

std::vector<Entry> translate(const Resolved& r, const MpiIo& io) {
  const bool romio = io.layer == IoLayer::Romio;
  const std::string ompio_no = "OMPIO does not read it (Open MPI " + std::to_string(io.major) + "." +
                               std::to_string(io.minor) + "." + std::to_string(io.patch) + ")";
  std::vector<Entry> out;
  for (const auto& spec : setting_specs()) {
    const std::string name(spec.name);
    const Setting& s = r.settings.at(name);
    Entry e{name, s.asked, s.origin, s.value, s.rule, "MPI-IO", {}, "passed", {}, {}};
    const std::string& v = s.value;
    auto pass = [&](std::string key, std::string value) { e.keys.push_back({std::move(key), std::move(value)}); };
    auto drop = [&](std::string why) {
      e.status = "dropped";
      e.why = std::move(why);
    };
    if (v == "default") {
      e.status = "default";
      e.why = s.rule.rfind(kLeftToPnetcdf, 0) == 0 ? "nothing passed: " + s.rule
                                                   : "nothing passed: the implementation's default holds";
      if (name.rfind("header", 0) == 0 || name.find("align") != std::string::npos || name == "ibuf_size") {
        e.target = "PnetCDF";
      }
      out.push_back(std::move(e));
      continue;
    }
    if (name == "stripe_count") {
      pass(romio || io.ompio_standard_striping ? "striping_factor" : "stripe_width", v);
    } else if (name == "stripe_size") {
      pass(romio || io.ompio_standard_striping ? "striping_unit" : "stripe_size", v);
    } else if (name == "aggregators") {
      pass("cb_nodes", v);
    } else if (name == "aggregators_per_node") {
      // ROMIO caps cb_nodes by cb_config_list ("*:1", one aggregator per host, by default) and
      // fills each host up to the count before it takes the next.
      if (romio) pass("cb_config_list", "*:" + v);
      else drop(ompio_no + ": OMPIO has no per-node aggregator key (it groups ranks itself: io_ompio_grouping_option)");
    } else if (name == "cb_buffer_size") {
      pass("cb_buffer_size", v);
    } else if (name == "collective_write") {
      if (romio) pass("romio_cb_write", onoff(v, "enable", "disable"));
      else pass("collective_buffering", v);  // "false" selects OMPIO's individual fcoll
    } else if (name == "data_sieving_write") {
      if (romio) pass("romio_ds_write", onoff(v, "enable", "disable"));
      // OMPIO has no key for it; nwpio's guard switches its write sieving off where it corrupts
      // collective writes (open-mpi/ompi#12718). Called here, before every file open.
      else drop(ompio_no + ": OMPIO has no info key for data sieving; " + detail::guard_ompio_write_data_sieving().note);
    } else if (name == "no_indep_rw") {
      if (romio) pass("romio_no_indep_rw", v);
      else drop(ompio_no + ": romio_* keys are ROMIO's");
    } else if (name == "lustre_ds_in_coll") {
      if (romio) pass("romio_lustre_ds_in_coll", onoff(v, "enable", "disable"));
      else drop(ompio_no + ": romio_* keys are ROMIO's");
    } else if (name == "lustre_lockahead") {
      if (!romio) drop(ompio_no + ": OMPIO has no Lustre lockahead");
      else if (!io.lockahead) drop("ROMIO " + io.component + " predates Lustre lockahead (MPICH 3.3 / ROMIO 3.4)");
      else pass("romio_lustre_cb_lock_ahead_write", onoff(v, "1", "0"));
    } else {
      e.target = "PnetCDF";
      const char* key = name == "header_align" ? "nc_header_align_size"
                        : name == "var_align"  ? "nc_var_align_size"
                        : name == "record_align" ? "nc_record_align_size"
                                                 : "nc_ibuf_size";
      pass(key, v);
    }
    out.push_back(std::move(e));
  }

  // PnetCDF 1.12 rounds the header extent up to nc_header_align_size and then to
  // nc_var_align_size: unless the latter is a multiple of the former, the latter decides.
  const std::string& ha = r.settings.at("header_align").value;
  const std::string& va = r.settings.at("var_align").value;
  const bool align_clash = is_concrete(ha) && is_concrete(va) && as_int(va) % as_int(ha) != 0;

  // romio_no_indep_rw=true makes ROMIO switch collective buffering on (deferred open needs it).
  for (auto& e : out) {
    if (align_clash && e.name == "header_align") {
      e.overridden_by = "var_align = " + va + ", not a multiple of " + ha +
                        ": PnetCDF aligns the header extent to nc_var_align_size last";
    }
    if (romio && e.name == "collective_write" && e.value == "false" && r.settings.at("no_indep_rw").value == "true") {
      e.overridden_by = "no_indep_rw = true: ROMIO then enables collective buffering (romio_cb_write=enable)";
    }
  }

  for (const auto& [key, a] : r.raw) {
    Entry e{"raw:" + key, a.text, a.origin, a.text, {}, "MPI-IO", {}, "passed", {}, {}};
    if (key.rfind("nc_", 0) == 0 || key.rfind("pnetcdf_", 0) == 0) e.target = "PnetCDF";
    if (!romio && (key.rfind("romio_", 0) == 0 || key == "cb_config_list" || key.rfind("ind_", 0) == 0)) {
      e.status = "dropped";
      e.why = ompio_no + ": ROMIO-only key";
    } else {
      e.keys.push_back({key, a.text});
      for (auto& other : out) {
        for (const auto& k : other.keys) {
          if (k.key == key && other.name != e.name) {
            e.why = "replaces the value from setting '" + other.name + "' (" + k.value + ")";
            other.overridden_by = "raw key " + key + "=" + a.text + " (" + a.origin + ")";
          }
        }
      }
    }
    out.push_back(std::move(e));
  }

  // PnetCDF applies PNETCDF_HINTS over the info object (and over the alignment arguments of its enddef).
  if (auto it = r.foreign_env.find("PNETCDF_HINTS"); it != r.foreign_env.end()) {
    try {
      for (const auto& [k, v] : parse_assignments(it->second)) {
        for (auto& e : out) {
          for (const auto& key : e.keys) {
            if (key.key == k) e.overridden_by = "PNETCDF_HINTS sets " + k + "=" + v;
          }
        }
      }
    } catch (const std::invalid_argument&) {
      // PnetCDF itself warns about a malformed PNETCDF_HINTS; nothing to attribute here.
    }
  }
  return out;
}

}  // namespace nwpio::detail::hints
