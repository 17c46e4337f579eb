// The timing line against WRF's: the line of a real WRF 4.7.1 rsl.out (em_quarter_ss, second
// frame of a 3-frame file) and Fortran's I8 / F10.5 rules.
#include <gtest/gtest.h>

#include "stats/timing_line.hpp"

namespace {

// rsl.out.0000 of the reference run (../shared/wrf/em_quarter_ss), the frame at 00:05.
constexpr const char* kWrfLine =
    "Timing for Writing wrfout_d01_0001-01-01_00:05:00 for domain        1:    0.03144 elapsed seconds";

TEST(TimingLine, IsWrfsLineNamingTheFramesOwnDate) {
  nwpio::OutputOptions o;  // history_outname "wrfout_d<domain>_<date>", domain 1
  const std::string line = nwpio::detail::wrf_timing_line(o, "0001-01-01_00:05:00", 0.03144, 1233.44);
  EXPECT_EQ(line, std::string(kWrfLine) + " (1233.4 MB/s)");
}

TEST(TimingLine, NocolonsAndDomainAsWrf) {
  nwpio::OutputOptions o;
  o.nocolons = true;
  o.domain_id = 3;
  EXPECT_EQ(nwpio::detail::wrf_timing_line(o, "2019-12-31_23:30:00", 12.5, 0.04),
            "Timing for Writing wrfout_d03_2019-12-31_23_30_00 for domain        3:   12.50000 elapsed seconds (0.0 MB/s)");
}

TEST(TimingLine, FortranEditDescriptors) {
  using nwpio::detail::fortran_fixed;
  using nwpio::detail::fortran_integer;
  EXPECT_EQ(fortran_integer(1, 8), "       1");
  EXPECT_EQ(fortran_integer(12345678, 8), "12345678");
  EXPECT_EQ(fortran_integer(123456789, 8), "********");
  EXPECT_EQ(fortran_fixed(0.03144, 10, 5), "   0.03144");
  EXPECT_EQ(fortran_fixed(9999.99999, 10, 5), "9999.99999");
  EXPECT_EQ(fortran_fixed(10000.0, 10, 5), "**********");
}

}  // namespace
