// nwpio-demo --memory-report: every rank's peak resident memory (VmHWM) before the history
// stream exists and after its last frame, and the model's own arrays, printed by rank 0 one line
// per rank. What writing the history held is the difference less the arrays; tests compare it
// with nwpio-check --plan's memory model (tests/sizing).
#pragma once

#include <mpi.h>

#include <cstdint>

namespace nwpio::demo {

// VmHWM of this process in bytes (/proc/self/status), 0 where the kernel does not say.
std::int64_t peak_resident_bytes();

// Collective: rank 0 prints "nwpio-demo: memory rank R: before B0 B, peak B1 B, model M B,
// output B1-B0-M B" for every rank, in rank order.
void print_memory_report(MPI_Comm comm, std::int64_t before, std::int64_t peak, std::int64_t model);

}  // namespace nwpio::demo
