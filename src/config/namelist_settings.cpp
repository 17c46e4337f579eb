// Mapping of namelist.input keys to nwpio settings, with WRF's registry defaults
// (Registry/registry.io_boilerplate, Registry.EM_COMMON) and WRF's timing rules
// (share/set_timekeeping.F). Every key and default is listed in docs/NAMELIST.md.
#include "config/namelist_settings.hpp"

#include <limits>
#include <string>

#include "backend/backend_registry.hpp"
#include "config/namelist_values.hpp"
#include "config/nwpio_keys.hpp"
#include "nwpio/error.hpp"
#include "nwpio/wrf_date.hpp"

namespace nwpio::detail {

namespace {

constexpr const char* kTime = "time_control";
constexpr const char* kDomains = "domains";

std::int64_t non_negative(const NamelistReader& r, const char* group, const char* key, Columns c, std::int64_t fallback) {
  const std::int64_t v = r.integer(group, key, c, fallback);
  if (v < 0) {
    throw Error(ErrorKind::Config, where(r.namelist().file(), r.find(group, key, c)->pos) + "expected an integer >= 0 for " +
                                       key + ", found " + std::to_string(v));
  }
  return v;
}

// The longest duration part: 10000 years, longer than any date WRF can name, so that the sum
// of the parts cannot overflow int64 (fuzz_namelist: history_interval_d = 106751991167300
// would).
constexpr std::int64_t kMaxDurationSeconds = std::int64_t{10000} * 366 * 86400;

// days/hours/minutes/seconds of `prefix` (history_interval, history_begin) in seconds.
std::int64_t wrf_duration(const NamelistReader& r, const std::string& prefix) {
  for (const char* unsupported : {"_y", "_mo"}) {
    const std::string key = prefix + unsupported;
    if (r.integer(kTime, key.c_str(), Columns::PerDomain, 0) != 0) {
      throw Error(ErrorKind::Config, where(r.namelist().file(), r.find(kTime, key, Columns::PerDomain)->pos) +
                                         "expected 0 for " + key + " (months and years have no fixed length; use " +
                                         prefix + "_d/_h/_m/_s), found " + std::to_string(r.integer(kTime, key, Columns::PerDomain, 0)));
    }
  }
  const auto part = [&](const char* suffix, std::int64_t unit) {
    const std::string key = prefix + suffix;
    return duration_part(r, kTime, key.c_str(), Columns::PerDomain, unit);
  };
  std::int64_t minutes = part("_m", 60);
  if (minutes == 0) minutes = part("", 60);
  return part("_d", 86400) + part("_h", 3600) + minutes + part("_s", 1);
}

// WRF's io_form_history as nwpio's IoForm (the backend registry knows the numbers); io_form 0,
// nwpio's own null backend, is for programs, not for a namelist.
IoForm io_form_of(const NamelistReader& r) {
  const std::int64_t v = r.integer(kTime, "io_form_history", Columns::One, 2);
  try {
    return io_form_from_wrf(v);
  } catch (const Error& e) {
    throw Error(ErrorKind::Config, where(r.namelist().file(), r.find(kTime, "io_form_history", Columns::One)->pos) + e.what());
  }
}

}  // namespace

int checked_max_dom(const NamelistReader& r, int domain_id) {
  const std::int64_t max_dom = r.integer(kDomains, "max_dom", Columns::One, 1);
  if (max_dom < 1) throw Error(ErrorKind::Config, r.where_key(kDomains, "max_dom") + "expected max_dom >= 1, found " + std::to_string(max_dom));
  if (domain_id < 1) throw Error(ErrorKind::InvalidArgument, "domain id " + std::to_string(domain_id) + " is not a WRF domain id (they count from 1)");
  if (domain_id > max_dom) {
    throw Error(ErrorKind::Config, r.where_key(kDomains, "max_dom") + "domain " + std::to_string(domain_id) +
                                       " is out of range: max_dom = " + std::to_string(max_dom));
  }
  return static_cast<int>(max_dom);
}

// A duration part in seconds: `key` (>= 0) times `unit` seconds, at most 10000 years.
std::int64_t duration_part(const NamelistReader& r, const char* group, const char* key, Columns c, std::int64_t unit) {
  const std::int64_t v = non_negative(r, group, key, c, 0);
  if (v > kMaxDurationSeconds / unit) {
    throw Error(ErrorKind::Config, where(r.namelist().file(), r.find(group, key, c)->pos) + "expected at most " +
                                       std::to_string(kMaxDurationSeconds / unit) + " for " + key +
                                       " (10000 years), found " + std::to_string(v));
  }
  return v * unit;
}

// An integer that must fit an int (dates, counts), else a Config error at the value, never a
// silent truncation (fuzz_namelist: start_year = 4294969315 would read as 2019).
int int_value(const NamelistReader& r, const char* group, const std::string& key, Columns c, std::int64_t v) {
  if (v < std::numeric_limits<int>::min() || v > std::numeric_limits<int>::max()) {
    throw Error(ErrorKind::Config, where(r.namelist().file(), r.find(group, key, c)->pos) + "expected a value of " + key +
                                       " within 32 bits, found " + std::to_string(v));
  }
  return static_cast<int>(v);
}

// WRF's date of `prefix` (start, end) for the reader's domain: year, month, day required;
// hour, minute, second default to 0.
std::string wrf_date_of(const NamelistReader& r, const std::string& prefix) {
  const auto part = [&](const char* suffix, bool required) {
    const std::string key = prefix + suffix;
    return int_value(r, kTime, key, Columns::PerDomain,
                     required ? r.required_integer(kTime, key, Columns::PerDomain) : r.integer(kTime, key, Columns::PerDomain, 0));
  };
  const int y = part("_year", true), mo = part("_month", true), d = part("_day", true);
  const int h = part("_hour", false), mi = part("_minute", false), s = part("_second", false);
  try {
    std::string date = wrf::make_date(y, mo, d, h, mi, s);
    if (!wrf::is_valid_date(date)) throw Error(ErrorKind::InvalidArgument, "'" + date + "' names no real time");
    return date;
  } catch (const Error& e) {
    throw Error(ErrorKind::Config, r.where_key(kTime, prefix + "_year") + "expected a valid " + prefix +
                                       " date for domain " + std::to_string(r.domain()) + ", found " + e.what());
  }
}


HistoryTiming history_timing_from(const Namelist& nl, int domain_id) {
  NamelistReader r(nl, domain_id);
  return HistoryTiming{wrf_duration(r, "history_interval"), wrf_duration(r, "history_begin")};
}

OutputOptions output_options_from(const Namelist& nl, int domain_id) {
  NamelistReader r(nl, domain_id);
  checked_max_dom(r, domain_id);
  OutputOptions o;
  o.domain_id = domain_id;
  o.start_date = wrf_date_of(r, "start");
  const HistoryTiming timing = history_timing_from(nl, domain_id);
  o.history_interval_seconds = timing.interval_seconds;
  o.history_begin_seconds = timing.begin_seconds;

  const std::int64_t frames = r.integer(kTime, "frames_per_outfile", Columns::PerDomain, 10);
  if (frames < 1) {
    throw Error(ErrorKind::Config, where(nl.file(), r.find(kTime, "frames_per_outfile", Columns::PerDomain)->pos) +
                                       "expected frames_per_outfile >= 1, found " + std::to_string(frames));
  }
  o.frames_per_file = int_value(r, kTime, "frames_per_outfile", Columns::PerDomain, frames);
  o.outname = r.string(kTime, "history_outname", Columns::One, "wrfout_d<domain>_<date>");
  o.io_form = io_form_of(r);
  o.nocolons = r.logical(kTime, "nocolons", Columns::One, false);
  o.use_netcdf_classic = r.logical(kTime, "use_netcdf_classic", Columns::One, false);
  std::string iofields = r.string(kTime, "iofields_filename", Columns::PerDomain, "NONE_SPECIFIED");
  o.iofields_file = iofields == "NONE_SPECIFIED" ? std::string() : iofields;
  o.ignore_iofields_warning = r.logical(kTime, "ignore_iofields_warning", Columns::One, true);

  o.e_we = r.integer(kDomains, "e_we", Columns::PerDomain, 0);
  o.e_sn = r.integer(kDomains, "e_sn", Columns::PerDomain, 0);
  o.e_vert = r.integer(kDomains, "e_vert", Columns::PerDomain, 0);

  apply_nwpio_group(nl, o);
  return o;
}

}  // namespace nwpio::detail
