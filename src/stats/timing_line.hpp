// The line a frame prints on rank 0, as WRF prints it (rsl.out), with the rate appended:
//   Timing for Writing wrfout_d01_0001-01-01_00:05:00 for domain        1:    0.03144 elapsed seconds (1233.4 MB/s)
#pragma once

#include <string>
#include <string_view>

#include "nwpio/options.hpp"

namespace nwpio::detail {

// WRF's med_hist_out (share/mediation_integrate.F) names the file by history_outname with the
// frame's OWN date (open_hist_w rebuilds the name at every frame, colons kept unless nocolons;
// the PnetCDF package replaces them only in the name it creates) and formats
//   '("Writing ",A," for domain ",I8)'  then  '("Timing for ",A,": ",F10.5," elapsed seconds")'
// (frame/module_timing.F). Fortran's I8 and F10.5 print asterisks when the number does not fit,
// and so does this.
std::string wrf_timing_line(const OutputOptions& options, std::string_view frame_date, double seconds,
                            double mb_per_s);
// The same line with `note` in the parentheses instead of the rate (a frame handed to I/O
// servers: the seconds are the time the model was blocked).
std::string wrf_timing_line(const OutputOptions& options, std::string_view frame_date, double seconds,
                            std::string_view note);

// Fortran's Iw and Fw.d edit descriptors: right-aligned in `width`, all '*' when too wide.
std::string fortran_integer(long long value, int width);
std::string fortran_fixed(double value, int width, int decimals);

}  // namespace nwpio::detail
