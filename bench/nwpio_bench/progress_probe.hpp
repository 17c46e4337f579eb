// nwpio-bench progress-probe: does a large nonblocking send move while the
// sender computes without calling MPI? Rank 0 posts MPI_Isend of --mb megabytes to rank 1 (which
// posted its MPI_Irecv first and waits in it), computes --seconds without an MPI call, then
// waits for the send. Printed per repetition: when rank 1 had the data, and how long rank 0 then
// still waited. Run it over each transport of interest, e.g.
//   mpirun -np 2 nwpio-bench progress-probe                          (shared memory: vader, CMA)
//   mpirun -np 2 --mca btl self,tcp nwpio-bench progress-probe       (TCP, as between nodes)
#pragma once

namespace nwpio::bench {

int run_progress_probe(int argc, char** argv);

}  // namespace nwpio::bench
