#include "stats/timing_line.hpp"

#include <cstdio>

#include "core/filename.hpp"

namespace nwpio::detail {

std::string fortran_integer(long long value, int width) {
  const std::string digits = std::to_string(value);
  if (static_cast<int>(digits.size()) > width) return std::string(static_cast<std::size_t>(width), '*');
  return std::string(static_cast<std::size_t>(width) - digits.size(), ' ') + digits;
}

std::string fortran_fixed(double value, int width, int decimals) {
  char text[64];
  const int n = std::snprintf(text, sizeof text, "%*.*f", width, decimals, value);
  if (n < 0 || n > width) return std::string(static_cast<std::size_t>(width), '*');
  return text;
}

std::string wrf_timing_line(const OutputOptions& options, std::string_view frame_date, double seconds,
                            std::string_view note) {
  const std::string name = expand_file_name(options.outname, options.domain_id, frame_date, options.nocolons);
  return "Timing for Writing " + name + " for domain " + fortran_integer(options.domain_id, 8) + ": " +
         fortran_fixed(seconds, 10, 5) + " elapsed seconds (" + std::string(note) + ")";
}

std::string wrf_timing_line(const OutputOptions& options, std::string_view frame_date, double seconds,
                            double mb_per_s) {
  char rate[64];
  std::snprintf(rate, sizeof rate, "%.1f MB/s", mb_per_s);
  return wrf_timing_line(options, frame_date, seconds, std::string_view(rate));
}

}  // namespace nwpio::detail
