#include "nwpio/wrf_date.hpp"

#include <array>
#include <cstdio>
#include <optional>

#include "nwpio/error.hpp"

namespace nwpio::wrf {
namespace {

constexpr std::int64_t kSecondsPerDay = 86400;
constexpr std::int64_t kDaysPer400Years = 146097;

struct Fields {
  int year, month, day, hour, minute, second;
};

bool is_leap(int y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

int days_in_month(int y, int m) {
  static constexpr std::array<int, 12> kDays = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && is_leap(y) ? 29 : kDays[static_cast<std::size_t>(m - 1)];
}

// Days from 0001-01-01 to the first of January of year y (proleptic Gregorian).
std::int64_t days_before_year(int y) {
  const std::int64_t p = y - 1;
  return 365 * p + p / 4 - p / 100 + p / 400;
}

std::string two(int v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%02d", v);
  return buf;
}

// What is wrong with these fields, or nothing.
std::optional<std::string> check_fields(const Fields& f) {
  if (f.year < 1 || f.year > 9999) return "year " + std::to_string(f.year) + " is not 1-9999";
  if (f.month < 1 || f.month > 12) return "month " + std::to_string(f.month) + " is not 1-12";
  const int dim = days_in_month(f.year, f.month);
  if (f.day < 1 || f.day > dim) {
    return "day " + std::to_string(f.day) + " is not 1-" + std::to_string(dim) + " in " + std::to_string(f.year) + "-" +
           two(f.month);
  }
  if (f.hour < 0 || f.hour > 23) return "hour " + std::to_string(f.hour) + " is not 0-23";
  if (f.minute < 0 || f.minute > 59) return "minute " + std::to_string(f.minute) + " is not 0-59";
  if (f.second < 0 || f.second > 59) return "second " + std::to_string(f.second) + " is not 0-59";
  return std::nullopt;
}

// Parses exactly "YYYY-MM-DD_HH:MM:SS"; on failure, `error` says what is wrong.
std::optional<Fields> parse(std::string_view d, std::string& error) {
  static constexpr std::string_view kForm = "YYYY-MM-DD_HH:MM:SS";
  if (d.size() != kForm.size()) {
    error = "has " + std::to_string(d.size()) + " characters, expected 19 as YYYY-MM-DD_HH:MM:SS";
    return std::nullopt;
  }
  for (std::size_t p = 0; p < kForm.size(); ++p) {
    const bool digit = kForm[p] >= 'A' && kForm[p] <= 'Z';
    if (digit && (d[p] < '0' || d[p] > '9')) {
      error = "character " + std::to_string(p + 1) + " '" + std::string(1, d[p]) + "' is not a digit (form YYYY-MM-DD_HH:MM:SS)";
      return std::nullopt;
    }
    if (!digit && d[p] != kForm[p]) {
      error = "character " + std::to_string(p + 1) + " '" + std::string(1, d[p]) + "' should be '" + std::string(1, kForm[p]) +
              "' (form YYYY-MM-DD_HH:MM:SS)";
      return std::nullopt;
    }
  }
  auto num = [&](std::size_t pos, std::size_t len) {
    int v = 0;
    for (std::size_t p = pos; p < pos + len; ++p) v = v * 10 + (d[p] - '0');
    return v;
  };
  Fields f{num(0, 4), num(5, 2), num(8, 2), num(11, 2), num(14, 2), num(17, 2)};
  if (auto bad = check_fields(f)) {
    error = *bad;
    return std::nullopt;
  }
  return f;
}

std::int64_t to_seconds(const Fields& f) {
  std::int64_t days = days_before_year(f.year);
  for (int m = 1; m < f.month; ++m) days += days_in_month(f.year, m);
  days += f.day - 1;
  return days * kSecondsPerDay + f.hour * 3600 + f.minute * 60 + f.second;
}

std::string format(const Fields& f) {
  char buf[80];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02d_%02d:%02d:%02d", f.year, f.month, f.day, f.hour, f.minute, f.second);
  return buf;
}

// 9999-12-31_23:59:59, the last second a 4-digit year can name.
std::int64_t max_seconds() { return days_before_year(10000) * kSecondsPerDay - 1; }

[[noreturn]] void bad_date(std::string_view date, const std::string& what) {
  throw Error(ErrorKind::InvalidArgument, "date '" + std::string(date) + "': " + what);
}

}  // namespace

bool is_valid_date(std::string_view date) noexcept {
  try {
    std::string error;
    return parse(date, error).has_value();
  } catch (...) {  // only std::bad_alloc could get here
    return false;
  }
}

std::int64_t date_to_seconds(std::string_view date) {
  std::string error;
  auto f = parse(date, error);
  if (!f) bad_date(date, error);
  return to_seconds(*f);
}

std::string seconds_to_date(std::int64_t seconds) {
  if (seconds < 0 || seconds > max_seconds()) {
    throw Error(ErrorKind::InvalidArgument, "date: " + std::to_string(seconds) +
                                                " seconds since 0001-01-01_00:00:00 is outside the years 0001-9999");
  }
  std::int64_t days = seconds / kSecondsPerDay;
  std::int64_t rest = seconds % kSecondsPerDay;
  Fields f{};
  // Whole 400-year cycles first, then years one at a time (at most 400 steps).
  f.year = 1 + static_cast<int>(days / kDaysPer400Years) * 400;
  days %= kDaysPer400Years;
  while (days >= (is_leap(f.year) ? 366 : 365)) days -= is_leap(f.year++) ? 366 : 365;
  f.month = 1;
  while (days >= days_in_month(f.year, f.month)) days -= days_in_month(f.year, f.month++);
  f.day = static_cast<int>(days) + 1;
  f.hour = static_cast<int>(rest / 3600);
  f.minute = static_cast<int>(rest % 3600 / 60);
  f.second = static_cast<int>(rest % 60);
  return format(f);
}

std::string add_seconds(std::string_view date, std::int64_t seconds) {
  const std::int64_t start = date_to_seconds(date);  // in [0, max_seconds()], so no overflow below
  if (seconds < -start || seconds > max_seconds() - start) {
    bad_date(date, "adding " + std::to_string(seconds) + " seconds leaves the years 0001-9999");
  }
  return seconds_to_date(start + seconds);
}

std::string make_date(int year, int month, int day, int hour, int minute, int second) {
  Fields f{year, month, day, hour, minute, second};
  if (auto bad = check_fields(f)) {
    throw Error(ErrorKind::InvalidArgument, "date " + std::to_string(year) + "-" + std::to_string(month) + "-" +
                                                std::to_string(day) + " " + std::to_string(hour) + ":" +
                                                std::to_string(minute) + ":" + std::to_string(second) + ": " + *bad);
  }
  return format(f);
}

JulianDate julian_date(std::string_view date) {
  std::string error;
  const auto f = parse(date, error);
  if (!f) bad_date(date, error);
  JulianDate j;
  j.julyr = f->year;
  j.julday = f->day;
  for (int m = 1; m < f->month; ++m) j.julday += days_in_month(f->year, m);
  // Single precision, left to right, as gfortran evaluates WRF's GMT=nh+FLOAT(ni)/60.+FLOAT(ns)/3600.
  j.gmt = static_cast<float>(f->hour) + static_cast<float>(f->minute) / 60.0f;
  j.gmt += static_cast<float>(f->second) / 3600.0f;
  return j;
}

std::string minutes_since(std::string_view simulation_start) {
  (void)date_to_seconds(simulation_start);  // validates; throws naming the date and what is wrong
  std::string date(simulation_start);
  date[10] = ' ';
  return "minutes since " + date;
}

}  // namespace nwpio::wrf
