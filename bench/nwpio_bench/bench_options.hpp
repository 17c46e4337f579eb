// nwpio-bench's command line:
//   mpirun -np N nwpio-bench --workload wrf|haps|matrix [--e-we N --e-sn N --e-vert N | --scale F]
//          [--nproc-x N --nproc-y N] [--fsync] --dir DIR --repeat R --json FILE [--methods a,b,...]
#pragma once

#include <mpi.h>

#include <optional>
#include <string>
#include <vector>

namespace nwpio::bench {

struct BenchOptions {
  std::string workload = "wrf";     // wrf | haps | matrix
  int e_we = 0, e_sn = 0, e_vert = 0;  // 0: the workload's default grid
  double scale = 1.0;               // haps: scales e_we - 1 and e_sn - 1 (mass points)
  int nproc_x = 0, nproc_y = 0;     // 0: as WRF chooses (matrix: its three decompositions)
  bool fsync = false;               // every method ends with a file sync inside its timing
  std::string dir;                  // where the files go (a run subdirectory is made inside)
  int repeat = 3;                   // timed repetitions per method (round-robin over methods)
  double round_mb = 0;              // nwpio methods' max_round_bytes in MB; 0 = the library default
  int warmup = 1;                   // untimed frames each Writer writes before its timed frame
  int frames_per_file = 1;          // nwpio methods: frames per file (the timed frame completes its file)
  std::string json;                 // result file (rank 0)
  std::vector<std::string> methods; // empty: all, in the canonical order
  double matrix_mb = 64;            // matrix: target frame size per cell (MB)
  bool verify = false;              // read every file of the first repetition back (netCDF-C)
  std::string hints_file, hints_profile;  // optional hints profile for every method
  std::vector<std::string> hints;   // --hint key=value (API-level overrides, every method)
};

// The methods every run measures by default, in the order they are reported.
const std::vector<std::string>& all_method_names();
// Methods measured only when named in --methods (the former nwpio-gather-bench's extra modes):
// nwpio-io11-direct-datatype (direct, ReorderMode::Datatype), reorder-pack and
// reorder-datatype (the reorder alone, no file).
const std::vector<std::string>& extra_method_names();

// Parses on every rank (identical argv); prints help/errors on rank 0. Returns nullopt with
// `exit_code` set when the program should stop (help, bad option).
std::optional<BenchOptions> parse_options(int argc, char** argv, MPI_Comm comm, int& exit_code);

}  // namespace nwpio::bench
