#include "backend/deferred_write.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "nwpio/error.hpp"

namespace nwpio::detail {

void write_all_at(int fd, const std::string& path, std::int64_t offset, const std::byte* data, std::int64_t size) {
  // At most 1 GiB per call: Linux writes at most 0x7ffff000 bytes at once anyway.
  constexpr std::int64_t kMaxCall = std::int64_t{1} << 30;
  std::int64_t done = 0;
  while (done < size) {
    const ssize_t w = ::pwrite(fd, data + done, static_cast<std::size_t>(std::min(size - done, kMaxCall)),
                               static_cast<off_t>(offset + done));
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      const int err = w < 0 ? errno : EIO;
      throw Error(ErrorKind::Io, "write of " + std::to_string(size) + " bytes at offset " + std::to_string(offset) +
                                     " of " + path + " failed after " + std::to_string(done) + " bytes: " +
                                     std::strerror(err));
    }
    done += w;
  }
}

DeferredWrite::~DeferredWrite() {
  if (fd_ >= 0) ::close(fd_);
}

void DeferredWrite::run() { write_all_at(fd_, path_, offset_, data_, size_); }

}  // namespace nwpio::detail
