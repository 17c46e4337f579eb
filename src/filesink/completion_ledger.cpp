// The completion ledger (completion_ledger.hpp): plain POSIX calls, one open per step, so that a
// file system with close-to-open consistency (NFS) sees fresh contents whenever it can.
#include "filesink/completion_ledger.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

#include "util/temp_files.hpp"
#include "nwpio/error.hpp"

namespace nwpio::detail {

namespace {

constexpr char kMarked = 1;

[[noreturn]] void fail(const std::string& what, const std::string& path, int err) {
  throw Error(ErrorKind::Io, what + " " + path + ": " + std::strerror(err));
}

}  // namespace

void create_ledger(const PrivateDir& folder, const std::string& name, int slots) {
  create_exclusive(folder, name);
  const std::string shown = folder.readable(folder.path_of(name));
  const int fd = ::openat(folder.descriptor(), name.c_str(), O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) fail("cannot open", shown, errno);
  const int rc = ::ftruncate(fd, std::max(slots, 1));
  const int err = errno;
  ::close(fd);
  if (rc != 0) fail("cannot size", shown, err);
}

bool mark_ledger(const std::string& path, int slot, int slots) {
  {
    const int fd = ::open(path.c_str(), O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) fail("cannot open the completion ledger", path, errno);
    const ssize_t w = ::pwrite(fd, &kMarked, 1, static_cast<off_t>(slot));
    const int err = errno;
    const int closed = ::close(fd);
    if (w != 1) fail("cannot mark the completion ledger", path, w < 0 ? err : EIO);
    if (closed != 0) fail("cannot close the completion ledger", path, errno);
  }
  return ledger_complete(path, slots);
}

bool ledger_complete(const std::string& path, int slots) noexcept {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return false;
  std::vector<char> marks(static_cast<std::size_t>(std::max(slots, 1)), 0);
  std::size_t done = 0;
  while (done < marks.size()) {
    const ssize_t r = ::pread(fd, marks.data() + done, marks.size() - done, static_cast<off_t>(done));
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) break;
    done += static_cast<std::size_t>(r);
  }
  ::close(fd);
  return done == marks.size() && std::all_of(marks.begin(), marks.end(), [](char c) { return c == kMarked; });
}

void remove_ledger(const std::string& path) noexcept { ::unlink(path.c_str()); }

}  // namespace nwpio::detail
