// nwpio-demo's settings: command line (CLI11) over namelist.input over built-in defaults.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <optional>
#include <string>

#include "nwpio/options.hpp"
#include "nwpio_model/wrf_history.hpp"

namespace nwpio::demo {

struct DemoConfig {
  int e_we = 426, e_sn = 301, e_vert = 36;  // staggered counts (a CONUS 12 km-like grid)
  int nproc_x = -1, nproc_y = -1;           // -1: as WRF chooses (wrf::choose_nproc)
  int halo = 3;
  double dx = 12000.0, dy = 12000.0, time_step = 60.0;
  std::string start_date = "2019-06-01_00:00:00";
  std::string end_date;   // from the namelist; bounds the run when --frames is not given
  int frames = 3;         // frames to write; 0 with a namelist: every output time up to end_date
  bool verify = false;
  bool memory_report = false;  // print each rank's peak RSS and what of it is nwpio's (tests/sizing)
  bool error_every_rank = false;  // every rank prints its error (tests/cluster/readonly_switch.sh)
  std::string output_dir_source;  // which setting chose output.output_dir, for the banner
  std::string namelist;   // --namelist FILE (its &namelist_quilt makes I/O servers), empty: none
  OutputOptions output;   // history stream settings (from the namelist, then the command line)

  wrf::HistorySchemaOptions schema_options() const;
};

// What parse_command_line decided.
struct ParseOutcome {
  std::optional<DemoConfig> config;  // empty: exit with `exit_code` (after --help or an error)
  int exit_code = 0;
};

// Parses the command line (every rank parses the same arguments, so every rank decides alike),
// reads --namelist FILE collectively and applies the explicit options over it. Rank 0 prints
// --help and parse errors. Throws nwpio::Error (on every rank) for a bad namelist or values.
ParseOutcome parse_command_line(int argc, char** argv, MPI_Comm comm);

}  // namespace nwpio::demo
