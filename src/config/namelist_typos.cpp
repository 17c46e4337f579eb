#include "config/namelist_typos.hpp"

#include <algorithm>
#include <map>

#include "util/near_names.hpp"

namespace nwpio::detail {

namespace {

std::vector<std::string> duration_keys(const std::string& prefix) {
  std::vector<std::string> keys{prefix};
  for (const char* suffix : {"_y", "_mo", "_d", "_h", "_m", "_s"}) keys.push_back(prefix + suffix);
  return keys;
}

std::vector<std::string> date_keys(const std::string& prefix) {
  std::vector<std::string> keys;
  for (const char* part : {"_year", "_month", "_day", "_hour", "_minute", "_second"}) keys.push_back(prefix + part);
  return keys;
}

const std::map<std::string, std::vector<std::string>, std::less<>>& keys_read() {
  static const auto table = [] {
    std::map<std::string, std::vector<std::string>, std::less<>> t;
    auto& time = t["time_control"];
    for (const auto& keys : {date_keys("start"), date_keys("end"), duration_keys("history_interval"),
                             duration_keys("history_begin")}) {
      time.insert(time.end(), keys.begin(), keys.end());
    }
    time.insert(time.end(), {"run_days", "run_hours", "run_minutes", "run_seconds", "frames_per_outfile",
                             "history_outname", "io_form_history", "nocolons", "use_netcdf_classic",
                             "iofields_filename", "ignore_iofields_warning"});
    t["domains"] = {"max_dom", "e_we", "e_sn", "e_vert", "time_step", "time_step_fract_num", "time_step_fract_den",
                    "dx", "dy", "parent_id", "parent_grid_ratio", "parent_time_step_ratio", "nproc_x", "nproc_y"};
    t["namelist_quilt"] = {"nio_tasks_per_group", "nio_groups"};
    return t;
  }();
  return table;
}

// WRF's own keys a typo away from one nwpio reads: never a warning.
bool is_wrf_key_near_ours(std::string_view key) {
  for (std::string_view k : {"s_we", "s_sn", "s_vert", "history_inname"}) {
    if (key == k) return true;
  }
  return false;
}

// A typo: one edit in a short key, two in a longer one; keys of three letters or fewer are too
// short to tell a typo from another key.
std::string near_key(const std::string& key, const std::vector<std::string>& keys) {
  if (key.size() <= 3 || is_wrf_key_near_ours(key)) return {};
  const std::size_t limit = key.size() <= 7 ? 1 : 2;
  std::string best;
  std::size_t best_d = limit + 1;
  for (const std::string& k : keys) {
    const std::size_t d = edit_distance(key, k);
    if (d < best_d) best_d = d, best = k;
  }
  return best;
}

}  // namespace

const std::vector<std::string>& wrf_keys_nwpio_reads(std::string_view group) {
  static const std::vector<std::string> none;
  const auto it = keys_read().find(group);
  return it == keys_read().end() ? none : it->second;
}

std::vector<std::string> misspelled_key_warnings(const Namelist& nl) {
  std::vector<std::string> out;
  for (const NamelistGroup& g : nl.groups()) {
    const std::vector<std::string>& keys = wrf_keys_nwpio_reads(g.name);
    for (const NamelistEntry& e : g.entries) {
      if (std::find(keys.begin(), keys.end(), e.name) != keys.end()) continue;
      const std::string near = near_key(e.name, keys);
      if (near.empty()) continue;
      out.push_back(where(nl.file(), e.pos) + "warning: nwpio reads no key '" + e.name + "' in &" + g.name +
                    "; did you mean '" + near + "'? (nwpio ignores the key and uses the default of " + near +
                    "; WRF itself stops on a key it does not know)");
    }
  }
  return out;
}

}  // namespace nwpio::detail
