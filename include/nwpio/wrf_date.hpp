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

}  // namespace nwpio::wrf
