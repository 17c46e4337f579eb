// nwpio-bench: nwpio against the hardware ceiling and against the ways WRF itself writes.
// See docs/PERFORMANCE.md for what each method is and how to read the numbers.
#include <mpi.h>

#include <exception>
#include <iostream>
#include <string_view>

#include "bench_options.hpp"
#include "model_loop.hpp"
#include "progress_probe.hpp"
#include "report.hpp"
#include "runner.hpp"
#include "workload.hpp"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int rc = 0;
  try {
    // Subcommands: bench/nwpio_bench/model_loop.hpp, progress_probe.hpp
    const std::string_view sub = argc > 1 ? argv[1] : "";
    if (sub == "model-loop" || sub == "progress-probe") {
      rc = sub == "model-loop" ? nwpio::bench::run_model_loop(argc - 1, argv + 1)
                               : nwpio::bench::run_progress_probe(argc - 1, argv + 1);
      MPI_Finalize();
      return rc;
    }
    const auto options = nwpio::bench::parse_options(argc, argv, MPI_COMM_WORLD, rc);
    if (options) {
      nwpio::bench::RunInfo info;
      const auto results = nwpio::bench::run_all(*options, nwpio::bench::make_cases(*options, size), MPI_COMM_WORLD, info);
      // After the run: --dir exists now (its file system type is read from it).
      const auto env = nwpio::bench::probe_environment(*options, MPI_COMM_WORLD);
      if (rank == 0) {
        nwpio::bench::print_table(results, env, *options);
        nwpio::bench::write_json(options->json, results, env, *options, info);
        std::cout << "nwpio-bench: results in " << options->json << std::endl;
      }
      for (const auto& cr : results) {
        for (const auto& m : cr.methods) {
          if (!m.verify_ok) rc = 3;
        }
      }
    }
  } catch (const std::exception& e) {
    if (rank == 0) std::cerr << "nwpio-bench: error: " << e.what() << std::endl;
    rc = 1;
  }
  MPI_Finalize();
  return rc;
}
