// nwpio-bench progress-probe: see progress_probe.hpp.
#include "progress_probe.hpp"

#include <CLI/CLI.hpp>
#include <mpi.h>

#include <cstdio>
#include <cstring>
#include <vector>

#include "version_flag.hpp"

namespace nwpio::bench {
namespace {

void compute_for(double seconds) {
  const double t0 = MPI_Wtime();  // (MPI_Wtime is a clock read, not a progress call)
  volatile double x = 1.0;
  while (MPI_Wtime() - t0 < seconds) x = x * 1.0000001 + 1e-9;
}

}  // namespace

int run_progress_probe(int argc, char** argv) {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double mb = 200, seconds = 1.0;
  int repeat = 3;
  CLI::App app{"nwpio-bench progress-probe: does a large MPI_Isend move while the sender computes?"};
  app.add_option("--mb", mb, "message size in MB")->check(CLI::Range(0.001, 2000.0));
  app.add_option("--seconds", seconds, "compute without MPI calls after posting the send")->check(CLI::Range(0.0, 60.0));
  app.add_option("--repeat", repeat, "repetitions")->check(CLI::Range(1, 100));
  tools::add_version_flag(app, "nwpio-bench");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (rank == 0) app.exit(e);
    return e.get_exit_code();
  }
  if (size != 2) {
    if (rank == 0) std::fprintf(stderr, "progress-probe: run it on exactly 2 ranks\n");
    return 2;
  }
  const auto bytes = static_cast<int>(mb * 1e6);
  std::vector<char> buffer(static_cast<std::size_t>(bytes));
  std::memset(buffer.data(), 1, buffer.size());
  for (int rep = 0; rep < repeat; ++rep) {
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    MPI_Request r = MPI_REQUEST_NULL;
    double times[2] = {0, 0};  // receiver: data there after; sender: wait after computing
    if (rank == 0) {
      MPI_Isend(buffer.data(), bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD, &r);
      compute_for(seconds);
      const double t1 = MPI_Wtime();
      MPI_Wait(&r, MPI_STATUS_IGNORE);
      times[1] = MPI_Wtime() - t1;
    } else {
      MPI_Irecv(buffer.data(), bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD, &r);
      MPI_Wait(&r, MPI_STATUS_IGNORE);
      times[0] = MPI_Wtime() - t0;
    }
    MPI_Allreduce(MPI_IN_PLACE, times, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    if (rank == 0) {
      std::printf("progress-probe: %.0f MB, sender computes %.2f s: receiver had the data after %.3f s; "
                  "the sender then waited %.3f s\n",
                  mb, seconds, times[0], times[1]);
    }
  }
  return 0;
}

}  // namespace nwpio::bench
