// descriptor_diversion.hpp: the descriptors are found by device and inode in /proc/self/fd.
#include "backend/netcdf/descriptor_diversion.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <vector>

namespace nwpio::detail {

int divert_descriptors_to_memory(const std::string& path) noexcept {
  struct stat target {};
  if (::stat(path.c_str(), &target) != 0) return 0;
  std::vector<int> found;
  DIR* fds = ::opendir("/proc/self/fd");
  if (fds == nullptr) return 0;
  const int own = ::dirfd(fds);
  while (const dirent* e = ::readdir(fds)) {
    char* end = nullptr;
    const long fd = std::strtol(e->d_name, &end, 10);
    if (end == e->d_name || *end != '\0' || fd == own) continue;
    struct stat st {};
    if (::fstat(static_cast<int>(fd), &st) == 0 && st.st_dev == target.st_dev && st.st_ino == target.st_ino) {
      found.push_back(static_cast<int>(fd));
    }
  }
  ::closedir(fds);
  if (found.empty()) return 0;
  const int memory = ::memfd_create("nwpio-failed-close", MFD_CLOEXEC);
  if (memory < 0) return 0;
  int diverted = 0;
  for (int fd : found) {
    if (::dup3(memory, fd, O_CLOEXEC) == fd) ++diverted;
  }
  ::close(memory);
  return diverted;
}

}  // namespace nwpio::detail
