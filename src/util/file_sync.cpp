#include "util/file_sync.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "nwpio/error.hpp"

namespace nwpio::detail {

void sync_descriptor(int fd, const std::string& path) {
  if (::fsync(fd) != 0) throw Error(ErrorKind::Io, "fsync " + path + ": " + std::strerror(errno));
}

void sync_path(const std::string& path, int flags) {
  // O_NONBLOCK: a FIFO under the name never blocks the open (and is not a file to sync).
  const int fd = ::open(path.c_str(), flags | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) throw Error(ErrorKind::Io, "open " + path + " for fsync: " + std::strerror(errno));
  const int rc = ::fsync(fd);
  const int err = errno;
  ::close(fd);
  // Some file systems cannot fsync a folder (EINVAL); that is not a failure of the data.
  if (rc != 0 && !(err == EINVAL && (flags & O_DIRECTORY))) {
    throw Error(ErrorKind::Io, "fsync " + path + ": " + std::strerror(err));
  }
}

}  // namespace nwpio::detail
