// Scratch directory of the running MPI test (NWPIO_TEST_TMPDIR, else /tmp/nwpio-test).
#pragma once

#include <cstdlib>
#include <filesystem>
#include <string>

namespace nwpio::test {

inline std::string scratch_dir(const std::string& sub = {}) {
  const char* d = std::getenv("NWPIO_TEST_TMPDIR");
  std::filesystem::path p = d ? d : "/tmp/nwpio-test";
  if (!sub.empty()) p /= sub;
  return p.string();
}

}  // namespace nwpio::test
