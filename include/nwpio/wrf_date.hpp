// WRF dates: "YYYY-MM-DD_HH:MM:SS" (19 characters), proleptic Gregorian calendar, UTC.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace nwpio::wrf {

// A date in WRF's form that names a real time (month 1-12, day within the month, ...).
bool is_valid_date(std::string_view date) noexcept;
// Seconds since 0001-01-01_00:00:00. Throws Error(InvalidArgument) naming the date and what is wrong.
std::int64_t date_to_seconds(std::string_view date);
std::string seconds_to_date(std::int64_t seconds);
std::string add_seconds(std::string_view date, std::int64_t seconds);
// WRF's date from its namelist parts (start_year, start_month, ...).
std::string make_date(int year, int month, int day, int hour, int minute, int second);

// The global attributes JULYR, JULDAY and GMT of a date, as WRF derives them from the
// simulation start (share/module_date_time.F get_julgmt, via real.exe's wrfinput): the year,
// the 1-based day of the year, and the hour of the day in single precision, computed as WRF
// does (hour + minute/60. + second/3600. in REAL), so the attribute's bits match WRF's.
struct JulianDate {
  int julyr = 0;
  int julday = 1;
  float gmt = 0.0f;
};
JulianDate julian_date(std::string_view date);

// XTIME's description and units as WRF writes them (share/output_wrf.F): "minutes since " and
// the simulation start with a space instead of '_' ("minutes since 2019-06-01 00:00:00").
std::string minutes_since(std::string_view simulation_start);

}  // namespace nwpio::wrf
