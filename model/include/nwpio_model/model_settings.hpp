// Settings a WRF-like model reads from namelist.input for one domain (&domains, &time_control):
// grid size, grid spacing, time step, process grid and run dates, by WRF's rules (a nest's dx
// and time step from its parent's and the ratios, run_* over end_*). Part of libnwpio_model,
// the helpers of the demo models (nwpio-demo, mini_wrf); the history stream's own settings come
// from nwpio's OutputOptions::from_namelist.
#pragma once

#include <mpi.h>

#include <string>

namespace nwpio {

struct ModelSettings {
  int max_dom = 1;
  int e_we = 0, e_sn = 0, e_vert = 0;  // staggered counts of this domain
  double dx = 0, dy = 0;               // metres
  double time_step = 0;                // seconds (time_step + fractional parts)
  int nproc_x = -1, nproc_y = -1;      // -1: choose as WRF does
  std::string start_date, end_date;    // YYYY-MM-DD_HH:MM:SS of this domain
};

// Reads `path` on rank 0 of comm and broadcasts. Collective. Throws Error(Config) with
// file:line:column for malformed input, Error(Io) for a missing file.
ModelSettings read_model_settings(const std::string& path, int domain_id, MPI_Comm comm);

}  // namespace nwpio
