// libFuzzer target: the hints profile reader (TOML, toml11). read_profile() takes a path only, so
// the bytes are written to an anonymous in-memory file (memfd) and read through
// /proc/self/fd/N. Every profile the file names is read (which follows `extends` chains). Bad
// input must end in nwpio::Error(Config); anything else is a bug.
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "hints/hints_profile.hpp"
#include "nwpio/error.hpp"

namespace {

// One memfd for the whole run, rewritten for every input.
int memfd() {
  static const int fd = [] {
    const int f = memfd_create("nwpio-fuzz-hints.toml", 0);
    if (f < 0) std::abort();
    return f;
  }();
  return fd;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const int fd = memfd();
  if (ftruncate(fd, 0) != 0) std::abort();
  std::size_t done = 0;
  while (done < size) {
    const ssize_t n = pwrite(fd, data + done, size - done, static_cast<off_t>(done));
    if (n <= 0) std::abort();
    done += static_cast<std::size_t>(n);
  }
  const std::string path = "/proc/self/fd/" + std::to_string(fd);

  std::vector<std::string> names{"default"};
  try {
    std::vector<std::string> warnings;
    const auto values = nwpio::detail::hints::read_profile(path, "", warnings);
    names = values.profiles;
  } catch (const nwpio::Error& e) {
    if (e.kind() != nwpio::ErrorKind::Config) std::abort();  // the file itself is always readable
  }
  // The file's other profiles, at most a few (each read re-parses the file).
  for (std::size_t i = 0; i < names.size() && i < 4; ++i) {
    try {
      std::vector<std::string> warnings;
      (void)nwpio::detail::hints::read_profile(path, names[i], warnings);
    } catch (const nwpio::Error& e) {
      if (e.kind() != nwpio::ErrorKind::Config) std::abort();
    }
  }
  return 0;
}
