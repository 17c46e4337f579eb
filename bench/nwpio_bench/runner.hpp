// The measurement loop: per case, every method in alternating repetitions (round-robin, the
// starting method rotating each repetition), each timed frame between two barriers with
// MPI_Wtime, the time of a repetition the maximum over ranks.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "bench_options.hpp"
#include "workload.hpp"

namespace nwpio::bench {

struct MethodResult {
  std::string method;
  std::vector<double> seconds;      // per repetition, max over ranks
  double median = 0, min = 0, max = 0;
  std::int64_t bytes = 0;           // as the method counted them (all ranks)
  bool bytes_stable = true;         // the same in every repetition
  std::int64_t file_bytes = -1;     // size of the file written (first repetition), -1: no file
  std::vector<std::int64_t> peak_rss_per_rank;    // max over repetitions (see memory.hpp)
  std::vector<std::int64_t> rss_growth_per_rank;  // peak minus RSS just before the method's set-up
  std::vector<std::int64_t> rss_shmem_per_rank;   // RssShmem after the method (shared pages in the RSS)
  std::vector<std::int64_t> pss_per_rank;         // Pss after the method (shared pages divided)
  std::int64_t process_maxrss = 0;  // getrusage after the method's last repetition, max over ranks
  std::int64_t buffer_bytes = 0;    // staging buffers (nwpio: FrameStats::peak_buffer_bytes)
  std::map<std::string, double> phases_median;
  std::string mode;
  std::string best_of;              // ceiling / netcdf-floor: the variant whose numbers these are
  std::string verify;               // --verify: the read-back summary of the first repetition
  bool verify_ok = true;
};

struct CaseResult {
  Case bench_case;
  std::vector<std::int64_t> model_bytes_per_rank;   // the model's arrays (halos included)
  std::vector<std::int64_t> baseline_rss_per_rank;  // RSS before the model was allocated
  std::int64_t largest_variable_bytes = 0;          // one variable, whole domain (io_form 2 target)
  std::vector<MethodResult> methods;
  const MethodResult* find(const std::string& name) const;
};

struct RunInfo {
  bool rss_reset = false;           // VmHWM could be reset per method
  std::string hints_report_json;    // nwpio's hint report for the run directory (rank 0)
  std::string run_dir;
};

// Collective. Runs every case of the workload; results are complete on rank 0.
std::vector<CaseResult> run_all(const BenchOptions& options, std::vector<Case> cases, MPI_Comm comm, RunInfo& info);

double median_of(std::vector<double> v);

}  // namespace nwpio::bench
