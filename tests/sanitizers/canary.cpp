// Canaries for the sanitizer build: each mode commits one error on purpose, and its ctest
// passes only when the sanitizer reports it (PASS_REGULAR_EXPRESSION). They prove that the
// build is instrumented, that halt_on_error/print_stacktrace are in effect, and that the
// suppression files do not hide nwpio's own errors. Mode "mpi" does the opposite: a clean
// MPI_Init/MPI_Finalize under mpiexec must give no report at all, i.e. lsan.supp covers Open MPI's
// own noise.
#include <mpi.h>

#include <climits>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <thread>

namespace {

volatile int sink = 0;

int heap_overflow() {
  char* p = new char[16];
  std::memset(p, 1, 16);
  sink = p[16 + sink];  // one past the end
  delete[] p;
  return 0;
}

[[gnu::noinline]] void leak_block() {
  void* p = std::malloc(4096);  // never freed; the pointer dies with this frame
  std::memset(p, 2, 4096);
  sink = static_cast<char*>(p)[sink];
  p = nullptr;
}

// The block is leaked on a thread of its own that has ended when LeakSanitizer looks: it scans
// the stacks and registers of live threads conservatively, and on the main thread a stale copy of
// the pointer (a dead stack slot, an argument register an exit-path function spills) hid the
// leak in some runs (clang 14 at -O0: 2 reports in 5 runs).
int leak() {
  std::thread(leak_block).join();
  return 0;
}

int signed_overflow(int argc) {
  int big = INT_MAX - 1 + (argc > 100 ? 1 : 0);
  big += argc + 1;  // INT_MAX - 1 + 3 > INT_MAX
  sink = big;
  return 0;
}

int mpi(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm dup;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  int rank = 0, sum = 0;
  MPI_Comm_rank(dup, &rank);
  MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, dup);
  MPI_Comm_free(&dup);
  MPI_Finalize();
  if (rank == 0) std::cout << "mpi canary: clean (sum of ranks " << sum << ")" << std::endl;
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "heap-overflow") return heap_overflow();
  if (mode == "leak") return leak();
  if (mode == "ubsan") return signed_overflow(argc);
  if (mode == "mpi") return mpi(argc, argv);
  std::cerr << "usage: sanitizer_canary heap-overflow|leak|ubsan|mpi\n";
  return 2;
}
