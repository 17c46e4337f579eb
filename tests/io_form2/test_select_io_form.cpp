// The io_form switch: unknown values, io_form 11 without PnetCDF, the fallback and its one line.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "backend/backend_registry.hpp"
#include "nwpio/error.hpp"

namespace nwpio::detail {
namespace {

OutputOptions with_io_form(int value, bool fallback = false) {
  OutputOptions o;
  o.io_form = static_cast<IoForm>(value);
  o.fallback_to_serial = fallback;
  return o;
}

int count_lines(const std::string& s) {
  int n = 0;
  for (char c : s) n += c == '\n';
  return n;
}

TEST(SelectIoForm, SupportedValuesPassThrough) {
  for (bool have : {true, false}) {
    std::ostringstream log;
    EXPECT_EQ(resolve_io_form(with_io_form(0), have, 0, log), IoForm::Null);
    EXPECT_EQ(resolve_io_form(with_io_form(2), have, 0, log), IoForm::NetcdfSerial);
    EXPECT_TRUE(log.str().empty());
  }
  std::ostringstream log;
  EXPECT_EQ(resolve_io_form(with_io_form(11, true), true, 0, log), IoForm::Pnetcdf);
  EXPECT_TRUE(log.str().empty()) << "no fallback when PnetCDF is there";
}

TEST(SelectIoForm, UnknownValueListsTheSupportedOnes) {
  for (int bad : {1, 5, 12, 14, 102, -1}) {
    std::ostringstream log;
    try {
      resolve_io_form(with_io_form(bad), true, 0, log);
      FAIL() << "io_form " << bad << " accepted";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::Unsupported);
      const std::string m = e.what();
      EXPECT_NE(m.find("io_form " + std::to_string(bad) + " is not supported"), std::string::npos) << m;
      EXPECT_NE(m.find(supported_io_forms(true)), std::string::npos) << m;
      for (const char* v : {"0 (null", "2 (serial netCDF)", "11 (PnetCDF", "13 (parallel netCDF-4"}) EXPECT_NE(m.find(v), std::string::npos) << m;
    }
  }
}

TEST(SelectIoForm, PnetcdfMissingIsUnsupportedWithoutFallback) {
  std::ostringstream log;
  try {
    resolve_io_form(with_io_form(11), false, 0, log);
    FAIL() << "io_form 11 accepted without PnetCDF";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Unsupported);
    const std::string m = e.what();
    EXPECT_NE(m.find("built without PnetCDF"), std::string::npos) << m;
    EXPECT_NE(m.find("fallback_to_serial"), std::string::npos) << m;
  }
  EXPECT_TRUE(log.str().empty());
}

TEST(SelectIoForm, FallbackSwitchesToSerialWithOneLineOnRankZero) {
  for (int rank : {0, 1, 3}) {
    std::ostringstream log;
    EXPECT_EQ(resolve_io_form(with_io_form(11, true), false, rank, log), IoForm::NetcdfSerial);
    if (rank == 0) {
      EXPECT_EQ(count_lines(log.str()), 1) << log.str();
      EXPECT_NE(log.str().find("io_form 2"), std::string::npos) << log.str();
    } else {
      EXPECT_TRUE(log.str().empty()) << "rank " << rank << " logged: " << log.str();
    }
  }
}

TEST(SelectIoForm, BuildFlagMatchesTheBuild) {
#ifdef NWPIO_TEST_HAVE_PNETCDF
  EXPECT_TRUE(built_with_pnetcdf());
#else
  EXPECT_FALSE(built_with_pnetcdf());
#endif
}

}  // namespace
}  // namespace nwpio::detail

namespace nwpio::detail {
namespace {

// io_form 13 follows the same rule as 11: itself when built, else the error or the fallback.
TEST(SelectIoForm, ParallelNetcdf4NeedsItsBuild) {
  std::ostringstream log;
  EXPECT_EQ(resolve_io_form(with_io_form(13), BuiltBackends{true, true}, 0, log), IoForm::NetcdfParallel);
  try {
    resolve_io_form(with_io_form(13), BuiltBackends{true, false}, 0, log);
    FAIL() << "io_form 13 accepted without parallel netCDF-4";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Unsupported);
    const std::string m = e.what();
    EXPECT_NE(m.find("built without parallel netCDF-4"), std::string::npos) << m;
    EXPECT_NE(m.find("NWPIO_NETCDF"), std::string::npos) << m;
  }
  EXPECT_TRUE(log.str().empty());
  EXPECT_EQ(resolve_io_form(with_io_form(13, true), BuiltBackends{true, false}, 0, log), IoForm::NetcdfSerial);
  EXPECT_EQ(count_lines(log.str()), 1) << log.str();
  EXPECT_NE(supported_io_forms(BuiltBackends{true, false}).find("13 (parallel netCDF-4; not in this build)"), std::string::npos);
}

}  // namespace
}  // namespace nwpio::detail
