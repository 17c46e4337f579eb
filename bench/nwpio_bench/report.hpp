// The results: a table on stdout and the JSON file.
#pragma once

#include <mpi.h>

#include <string>
#include <vector>

#include "bench_options.hpp"
#include "runner.hpp"

namespace nwpio::bench {

// Facts about where the run happened (collective: every rank calls it; complete on rank 0).
struct Environment {
  int ranks = 1;
  int ranks_per_node = 1;
  int nodes = 1;
  long cores = 1;                   // online CPUs of rank 0's node
  bool ranks_exceed_cores = false;
  std::string host;
  std::string file_system;          // statfs type of --dir
  std::string mpi_library;          // MPI_Get_library_version, first line
};
Environment probe_environment(const BenchOptions& options, MPI_Comm comm);

// Rank 0 only.
void print_table(const std::vector<CaseResult>& results, const Environment& env, const BenchOptions& options);
void write_json(const std::string& path, const std::vector<CaseResult>& results, const Environment& env,
                const BenchOptions& options, const RunInfo& info);

}  // namespace nwpio::bench
