// The OutputOptions one WRF file gets inside the ext_pnc_* package: the `&nwpio` group of the
// run's namelist.input (hints, output_dir, gather mode, statistics, ...), with everything WRF
// already decided taken from WRF (the file name, when frames are written, how many frames a
// file holds, which fields).
#pragma once

#include <mpi.h>

#include <string>
#include <string_view>

#include "nwpio/options.hpp"

namespace nwpio::wrfio {

// WRF's SysDepInfo string of open_for_write_begin, e.g.
// "DATASET=HISTORY,GRIDID=1,NTASKS_X=1,MYTASK_X=0,LOCAL_COMMUNICATOR_X=7".
struct SysDepInfo {
  std::string dataset;  // HISTORY, RESTART, AUXHIST1, ... (empty when not given)
  int grid_id = 1;
};
SysDepInfo parse_sysdep_info(std::string_view text);

// WRF's io_form 11 file-name rule: every ':' becomes '_' (the path as WRF passes it otherwise).
std::string pnetcdf_file_name(std::string_view wrf_name);

// Collective over comm. Reads the &nwpio group of `namelist` (WRF's namelist.input in the run
// directory) when the file exists -- nothing else of it: WRF already read and judged its own
// groups; then: io_form 11; outname = the file name WRF chose (':' -> '_')
// under the namelist's output_dir (a relative WRF path is taken relative to it, an absolute one
// as it is); every date is an output time; no frame limit per file (WRF closes the file); no
// iofields (WRF applied them already); no domain-size check; nwpio's own "Timing for Writing"
// line off (WRF prints its own). A history file (`dataset` HISTORY) is sized for the domain's
// frames_per_outfile (the stripe count follows the file's expected size), any other for one
// frame. Throws Error(Config) with file:line:column on every rank.
OutputOptions package_options(MPI_Comm comm, std::string_view wrf_file_name, int grid_id,
                              std::string_view dataset = {}, const std::string& namelist = "namelist.input");

// Where a file WRF asks to read lives: the name as given, else with WRF's io_form 11 rule applied,
// else the same under the namelist's output_dir. Local; empty when none exists.
std::string find_readable_file(std::string_view wrf_name, const std::string& output_dir);

}  // namespace nwpio::wrfio
