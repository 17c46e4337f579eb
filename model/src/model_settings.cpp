// The model's own settings from namelist.input (&domains, &time_control) for one domain, by
// WRF's rules: a nest's dx/dy is its parent's divided by parent_grid_ratio when not given, its
// time step its parent's divided by parent_time_step_ratio, and run_days..run_seconds set the
// head domain's end (share/set_timekeeping.F). Read with nwpio's own namelist reader
// (src/config), so a model and its history stream agree on every value and every error.
#include "model_settings_from.hpp"

#include <cstdint>
#include <string>

#include "config/namelist_file.hpp"
#include "config/namelist_settings.hpp"
#include "config/namelist_values.hpp"
#include "nwpio/error.hpp"
#include "nwpio/wrf_date.hpp"
#include "util/agree.hpp"

namespace nwpio {

namespace detail {

namespace {

constexpr const char* kTime = "time_control";
constexpr const char* kDomains = "domains";

// dx (or dy) of a domain: its column if given, else its parent's divided by parent_grid_ratio.
double grid_spacing(const Namelist& nl, const char* key, int domain, int depth = 0) {
  NamelistReader r(nl, domain);
  if (const NamelistValue* v = r.find(kDomains, key, Columns::PerDomain)) return value_as_real(nl, key, *v);
  if (domain == 1 || depth > 64) return r.required_real(kDomains, key, Columns::PerDomain);
  const int parent = int_value(r, kDomains, "parent_id", Columns::PerDomain, r.integer(kDomains, "parent_id", Columns::PerDomain, domain - 1));
  const std::int64_t ratio = r.integer(kDomains, "parent_grid_ratio", Columns::PerDomain, 1);
  if (parent < 1 || parent >= domain || ratio < 1) return r.required_real(kDomains, key, Columns::PerDomain);
  return grid_spacing(nl, key, parent, depth + 1) / static_cast<double>(ratio);
}

// WRF: the head domain's step is time_step + num/den; a nest's is its parent's / parent_time_step_ratio.
double time_step_of(const Namelist& nl, int domain, int depth = 0) {
  NamelistReader r(nl, domain);
  if (domain == 1 || depth > 64) {
    const std::int64_t ts = r.required_integer(kDomains, "time_step", Columns::One);
    const std::int64_t num = r.integer(kDomains, "time_step_fract_num", Columns::One, 0);
    const std::int64_t den = r.integer(kDomains, "time_step_fract_den", Columns::One, 1);
    if (den == 0) {
      throw Error(ErrorKind::Config, r.where_key(kDomains, "time_step_fract_den") + "expected a nonzero time_step_fract_den, found 0");
    }
    return static_cast<double>(ts) + static_cast<double>(num) / static_cast<double>(den);
  }
  const int parent = int_value(r, kDomains, "parent_id", Columns::PerDomain, r.integer(kDomains, "parent_id", Columns::PerDomain, domain - 1));
  const std::int64_t ratio = r.integer(kDomains, "parent_time_step_ratio", Columns::PerDomain, 1);
  if (parent < 1 || parent >= domain || ratio < 1) {
    throw Error(ErrorKind::Config, r.where_key(kDomains, "parent_id") + "expected parent_id < " + std::to_string(domain) +
                                       " and parent_time_step_ratio >= 1 for domain " + std::to_string(domain) +
                                       ", found parent_id " + std::to_string(parent) + " and ratio " + std::to_string(ratio));
  }
  return time_step_of(nl, parent, depth + 1) / static_cast<double>(ratio);
}

}  // namespace

ModelSettings model_settings_from(const Namelist& nl, int domain_id) {
  NamelistReader r(nl, domain_id);
  ModelSettings m;
  m.max_dom = checked_max_dom(r, domain_id);
  const auto size = [&](const char* key) {
    const std::int64_t v = r.required_integer(kDomains, key, Columns::PerDomain);
    if (v < 2) {
      throw Error(ErrorKind::Config, where(nl.file(), r.find(kDomains, key, Columns::PerDomain)->pos) + "expected " + key +
                                         " >= 2 (a staggered point count), found " + std::to_string(v));
    }
    return int_value(r, kDomains, key, Columns::PerDomain, v);
  };
  m.e_we = size("e_we");
  m.e_sn = size("e_sn");
  m.e_vert = size("e_vert");
  m.dx = grid_spacing(nl, "dx", domain_id);
  m.dy = grid_spacing(nl, "dy", domain_id);
  m.time_step = time_step_of(nl, domain_id);
  m.nproc_x = int_value(r, kDomains, "nproc_x", Columns::One, r.integer(kDomains, "nproc_x", Columns::One, -1));
  m.nproc_y = int_value(r, kDomains, "nproc_y", Columns::One, r.integer(kDomains, "nproc_y", Columns::One, -1));
  m.start_date = wrf_date_of(r, "start");

  // WRF: run_days/hours/minutes/seconds (one value) set the head domain's run length when any
  // is > 0; otherwise (and always for nests) end_* is the end.
  std::int64_t run = 0;
  if (domain_id == 1) {
    run = duration_part(r, kTime, "run_days", Columns::One, 86400) + duration_part(r, kTime, "run_hours", Columns::One, 3600) +
          duration_part(r, kTime, "run_minutes", Columns::One, 60) + duration_part(r, kTime, "run_seconds", Columns::One, 1);
  }
  m.end_date = run > 0 ? wrf::add_seconds(m.start_date, run) : wrf_date_of(r, "end");
  if (wrf::date_to_seconds(m.end_date) < wrf::date_to_seconds(m.start_date)) {
    throw Error(ErrorKind::Config, r.where_key(kTime, "end_year") + "expected an end date not before the start date " +
                                       m.start_date + " for domain " + std::to_string(domain_id) + ", found " + m.end_date);
  }
  return m;
}

}  // namespace detail

ModelSettings read_model_settings(const std::string& path, int domain_id, MPI_Comm comm) {
  const detail::Namelist nl = detail::load_namelist(path, comm);
  ModelSettings settings;
  detail::run_and_agree(comm, [&] { settings = detail::model_settings_from(nl, domain_id); });
  return settings;
}

}  // namespace nwpio
