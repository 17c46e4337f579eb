// WRF dates: the 19-character form, the proleptic Gregorian calendar and date arithmetic.
#include <gtest/gtest.h>

#include "nwpio/error.hpp"
#include "nwpio/wrf_date.hpp"

namespace nwpio {
namespace {

std::string error_of(std::string_view date) {
  try {
    wrf::date_to_seconds(date);
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::InvalidArgument);
    return e.what();
  }
  return "<no error>";
}

TEST(WrfDate, Epoch) {
  EXPECT_EQ(wrf::date_to_seconds("0001-01-01_00:00:00"), 0);
  EXPECT_EQ(wrf::seconds_to_date(0), "0001-01-01_00:00:00");
  EXPECT_EQ(wrf::date_to_seconds("0001-01-02_00:00:01"), 86401);
}

TEST(WrfDate, AgreesWithUnixTime) {
  // 1970-01-01 is day 719162 of the proleptic Gregorian calendar counted from 0001-01-01.
  const std::int64_t unix_epoch = wrf::date_to_seconds("1970-01-01_00:00:00");
  EXPECT_EQ(unix_epoch, 719162LL * 86400);
  // 2019-06-01T00:00:00Z is Unix time 1559347200; 2000-02-29T12:34:56Z is 951827696.
  EXPECT_EQ(wrf::date_to_seconds("2019-06-01_00:00:00") - unix_epoch, 1559347200);
  EXPECT_EQ(wrf::date_to_seconds("2000-02-29_12:34:56") - unix_epoch, 951827696);
}

TEST(WrfDate, RoundTripEveryDayOfFourCenturies) {
  // Day by day over 1600-2400 (leap rules of 4, 100 and 400 years all occur), seconds_to_date
  // inverts date_to_seconds and the days are consecutive.
  const std::int64_t first = wrf::date_to_seconds("1600-01-01_00:00:00");
  const std::int64_t last = wrf::date_to_seconds("2400-12-31_00:00:00");
  std::string prev = wrf::seconds_to_date(first - 1);
  for (std::int64_t day = first; day <= last; day += 86400) {
    const std::int64_t s = day + (day / 86400 * 7919) % 86400;  // some time of that day
    const std::string d = wrf::seconds_to_date(s);
    ASSERT_TRUE(wrf::is_valid_date(d)) << d;
    ASSERT_EQ(wrf::date_to_seconds(d), s) << d;
    ASSERT_LT(prev, d);  // the text form sorts like time
    prev = d;
  }
}

TEST(WrfDate, LeapYears) {
  for (const char* d : {"2020-02-29_00:00:00", "2000-02-29_00:00:00", "1600-02-29_00:00:00", "0004-02-29_00:00:00"})
    EXPECT_TRUE(wrf::is_valid_date(d)) << d;
  for (const char* d : {"2019-02-29_00:00:00", "1900-02-29_00:00:00", "2100-02-29_00:00:00"})
    EXPECT_FALSE(wrf::is_valid_date(d)) << d;
  EXPECT_EQ(error_of("1900-02-29_00:00:00"), "date '1900-02-29_00:00:00': day 29 is not 1-28 in 1900-02");
  EXPECT_EQ(wrf::add_seconds("2020-02-28_23:00:00", 3600), "2020-02-29_00:00:00");
  EXPECT_EQ(wrf::add_seconds("2019-02-28_23:00:00", 3600), "2019-03-01_00:00:00");
  EXPECT_EQ(wrf::date_to_seconds("2021-01-01_00:00:00") - wrf::date_to_seconds("2020-01-01_00:00:00"), 366 * 86400);
  EXPECT_EQ(wrf::date_to_seconds("2101-01-01_00:00:00") - wrf::date_to_seconds("2100-01-01_00:00:00"), 365 * 86400);
}

TEST(WrfDate, AddSecondsAcrossMonthsAndYears) {
  EXPECT_EQ(wrf::add_seconds("2019-06-30_23:00:00", 3600), "2019-07-01_00:00:00");
  EXPECT_EQ(wrf::add_seconds("2019-12-31_23:59:59", 1), "2020-01-01_00:00:00");
  EXPECT_EQ(wrf::add_seconds("2020-01-01_00:00:00", -1), "2019-12-31_23:59:59");
  EXPECT_EQ(wrf::add_seconds("2019-04-30_12:00:00", 86400), "2019-05-01_12:00:00");
  EXPECT_EQ(wrf::add_seconds("2019-06-01_00:00:00", 0), "2019-06-01_00:00:00");
  EXPECT_EQ(wrf::add_seconds("2019-01-01_00:00:00", 365LL * 86400), "2020-01-01_00:00:00");
  EXPECT_EQ(wrf::add_seconds("2019-06-01_00:00:00", 3 * 3600 + 25 * 60 + 7), "2019-06-01_03:25:07");
  EXPECT_THROW(wrf::add_seconds("9999-12-31_23:59:59", 1), Error);
  EXPECT_THROW(wrf::add_seconds("0001-01-01_00:00:00", -1), Error);
  EXPECT_THROW(wrf::add_seconds("2019-01-01_00:00:00", INT64_MAX), Error);
  EXPECT_THROW(wrf::add_seconds("2019-01-01_00:00:00", INT64_MIN), Error);
  EXPECT_THROW(wrf::seconds_to_date(-1), Error);
}

TEST(WrfDate, InvalidFields) {
  EXPECT_EQ(error_of("2019-13-01_00:00:00"), "date '2019-13-01_00:00:00': month 13 is not 1-12");
  EXPECT_EQ(error_of("2019-00-01_00:00:00"), "date '2019-00-01_00:00:00': month 0 is not 1-12");
  EXPECT_EQ(error_of("2019-04-31_00:00:00"), "date '2019-04-31_00:00:00': day 31 is not 1-30 in 2019-04");
  EXPECT_EQ(error_of("2019-01-00_00:00:00"), "date '2019-01-00_00:00:00': day 0 is not 1-31 in 2019-01");
  EXPECT_EQ(error_of("2019-01-01_24:00:00"), "date '2019-01-01_24:00:00': hour 24 is not 0-23");
  EXPECT_EQ(error_of("2019-01-01_00:60:00"), "date '2019-01-01_00:60:00': minute 60 is not 0-59");
  EXPECT_EQ(error_of("2019-01-01_00:00:60"), "date '2019-01-01_00:00:60': second 60 is not 0-59");
  EXPECT_EQ(error_of("0000-01-01_00:00:00"), "date '0000-01-01_00:00:00': year 0 is not 1-9999");
}

TEST(WrfDate, OnlyTheNineteenCharacterForm) {
  EXPECT_EQ(error_of("2019-06-01"), "date '2019-06-01': has 10 characters, expected 19 as YYYY-MM-DD_HH:MM:SS");
  EXPECT_EQ(error_of(""), "date '': has 0 characters, expected 19 as YYYY-MM-DD_HH:MM:SS");
  EXPECT_EQ(error_of("2019-06-01_00:00:00Z"), "date '2019-06-01_00:00:00Z': has 20 characters, expected 19 as YYYY-MM-DD_HH:MM:SS");
  EXPECT_EQ(error_of("2019-06-01T00:00:00"),
            "date '2019-06-01T00:00:00': character 11 'T' should be '_' (form YYYY-MM-DD_HH:MM:SS)");
  EXPECT_EQ(error_of("2019-06-01 00:00:00"),
            "date '2019-06-01 00:00:00': character 11 ' ' should be '_' (form YYYY-MM-DD_HH:MM:SS)");
  EXPECT_EQ(error_of("2019-06-01_00_00_00"),
            "date '2019-06-01_00_00_00': character 14 '_' should be ':' (form YYYY-MM-DD_HH:MM:SS)");
  EXPECT_EQ(error_of("2019-6-01_00:00:00x"), "date '2019-6-01_00:00:00x': character 7 '-' is not a digit (form YYYY-MM-DD_HH:MM:SS)");
  EXPECT_EQ(error_of("+019-06-01_00:00:00"), "date '+019-06-01_00:00:00': character 1 '+' is not a digit (form YYYY-MM-DD_HH:MM:SS)");
  EXPECT_FALSE(wrf::is_valid_date("2019-06-01_00:00"));
  EXPECT_TRUE(wrf::is_valid_date("2019-06-01_00:00:00"));
}

TEST(WrfDate, MakeDate) {
  EXPECT_EQ(wrf::make_date(2019, 6, 1, 0, 0, 0), "2019-06-01_00:00:00");
  EXPECT_EQ(wrf::make_date(7, 12, 31, 23, 59, 59), "0007-12-31_23:59:59");
  EXPECT_EQ(wrf::date_to_seconds(wrf::make_date(2022, 6, 22, 6, 30, 15)), wrf::date_to_seconds("2022-06-22_06:30:15"));
  try {
    wrf::make_date(2019, 2, 29, 0, 0, 0);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::InvalidArgument);
    EXPECT_STREQ(e.what(), "date 2019-2-29 0:0:0: day 29 is not 1-28 in 2019-02");
  }
  EXPECT_THROW(wrf::make_date(2019, 1, 1, -1, 0, 0), Error);
  EXPECT_THROW(wrf::make_date(10000, 1, 1, 0, 0, 0), Error);
}

}  // namespace
}  // namespace nwpio
