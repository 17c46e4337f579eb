#include "memory_report.hpp"

#include <fstream>
#include <iostream>
#include <string>
#include <vector>

namespace nwpio::demo {

std::int64_t peak_resident_bytes() {
  std::ifstream status("/proc/self/status");
  std::string key;
  while (status >> key) {
    if (key == "VmHWM:") {
      std::int64_t kib = 0;
      status >> kib;
      return kib * 1024;
    }
    status.ignore(4096, '\n');
  }
  return 0;
}

void print_memory_report(MPI_Comm comm, std::int64_t before, std::int64_t peak, std::int64_t model) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const std::int64_t mine[3] = {before, peak, model};
  std::vector<std::int64_t> all(static_cast<std::size_t>(3 * size));
  MPI_Gather(mine, 3, MPI_INT64_T, all.data(), 3, MPI_INT64_T, 0, comm);
  if (rank != 0) return;
  for (int r = 0; r < size; ++r) {
    const std::int64_t* v = all.data() + 3 * r;
    std::cout << "nwpio-demo: memory rank " << r << ": before " << v[0] << " B, peak " << v[1] << " B, model " << v[2]
              << " B, output " << v[1] - v[0] - v[2] << " B" << std::endl;
  }
}

}  // namespace nwpio::demo
