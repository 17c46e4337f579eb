// Where nwpio keeps a file until it is complete, as docs/RELIABILITY.md states it (written out
// here, not taken from the library, so that a change of the documented place fails the tests):
// <dir>/.nwpio-tmp-<uid>/<name>.nwpio-tmp
#pragma once

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <thread>

namespace nwpio::test {

inline std::string private_dir_of(const std::string& dir) {
  return (std::filesystem::path(dir) / (".nwpio-tmp-" + std::to_string(::geteuid()))).string();
}

inline std::string temp_of(const std::string& final_path) {
  const std::filesystem::path p(final_path);
  const std::string dir = p.parent_path().empty() ? std::string(".") : p.parent_path().string();
  return (std::filesystem::path(private_dir_of(dir)) / (p.filename().string() + ".nwpio-tmp")).string();
}

// Whether `path` exists within `seconds` (polled): a file committed behind the model appears
// without any further call into nwpio.
inline bool appears_within(const std::string& path, double seconds) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (!std::filesystem::exists(path)) {
    if (std::chrono::steady_clock::now() > end) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return true;
}

}  // namespace nwpio::test
