// The variable set of a real WRF V4.4.1 history file (wrfout): 201 data variables with WRF's
// names, types, dimensions and attributes, and the global attributes of its header. The
// project keeps this table itself (taken once from a real wrfout header) so that nwpio-demo,
// the tests, the benchmarks and nwpio-check's sizing plan write (or size) what a WRF model
// writes, without reading any file. Part of libnwpio_model; not installed: it is a fixture of
// the project's own programs, not an API for models.
#pragma once

#include <string>
#include <vector>

#include "nwpio/schema.hpp"
#include "nwpio/types.hpp"

namespace nwpio::wrf {

struct HistorySchemaOptions {
  // Staggered counts of the domain (WRF's e_we, e_sn, e_vert): they go into the grid global
  // attributes (WEST-EAST_GRID_DIMENSION, *_PATCH_*); the file's dimensions come from the
  // Decomposition handed to the Writer.
  int e_we = 426, e_sn = 301, e_vert = 36;
  std::string start_date = "2019-06-01_00:00:00";  // START_DATE (this run's start)
  // SIMULATION_START_DATE, JULYR, JULDAY, GMT and XTIME's units (the first run's start, which a
  // restart keeps); empty: start_date.
  std::string simulation_start_date;
  double dx = 12000.0, dy = 12000.0;               // DX, DY in metres
  double time_step = 60.0;                         // DT in seconds
  int nproc_x = 1, nproc_y = 1;                    // NTASKS_X, NTASKS_Y, NTASKS_TOTAL
  int num_soil_layers = 4;                         // soil_layers_stag
  int seed_dim = 8;                                // seed_dim_stag
  // How the model holds its 3-D arrays: XZY (i, k, j) as WRF does, or XYZ. The file is the same.
  MemoryOrder order_3d = MemoryOrder::XZY;
};

// WRF's time coordinate: XTIME holds minutes since the simulation start, and its description
// and units say so ("minutes since 2019-06-01 00:00:00", wrf::minutes_since).
inline constexpr const char* kTimeCoordinate = "XTIME";

// Number of data variables of the table (Times, which the Writer adds itself, not counted).
inline constexpr int kHistoryVariableCount = 201;

// The schema of WRF's history stream: dimensions soil_layers_stag and seed_dim_stag, the 201
// data variables in the order of the real file (schema variable s gets netCDF id s + 1, after
// Times), and the global attributes in the order of the real file. Throws Error(InvalidArgument)
// for a start date not in WRF's form or counts < 2.
Schema history_schema(const HistorySchemaOptions& options = {});

// The date the run's time axis counts from: simulation_start_date, or start_date when empty.
std::string simulation_start_date(const HistorySchemaOptions& options);

// The global attributes of the real header, in its order, with the run-dependent ones
// (dates, grid dimensions, DX, DY, DT, NTASKS_*, JULYR, JULDAY, GMT) taken from `options`.
std::vector<Attribute> history_global_attributes(const HistorySchemaOptions& options);

}  // namespace nwpio::wrf
