// The commit of a complete file (file_commit.hpp).
#include "filesink/file_commit.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "core/disk_guard.hpp"
#include "nwpio/error.hpp"
#include "util/file_sync.hpp"

namespace nwpio::detail {

namespace {

// The final name, atomically: with noclobber an existing file there is never replaced, even one
// that appeared while the file was written (renameat2 RENAME_NOREPLACE; link + unlink where the
// file system lacks it). rename(2) never follows a symbolic link at the final name: it replaces
// the link itself.
void rename_into_place(const std::string& temp, const std::string& path, bool noclobber) {
  if (!noclobber) {
    if (std::rename(temp.c_str(), path.c_str()) == 0) return;
  } else if (::renameat2(AT_FDCWD, temp.c_str(), AT_FDCWD, path.c_str(), RENAME_NOREPLACE) == 0) {
    return;
  } else if (errno == EINVAL || errno == ENOSYS) {
    if (::link(temp.c_str(), path.c_str()) == 0) {
      ::unlink(temp.c_str());
      return;
    }
  }
  const int err = errno;
  std::string text = "rename " + temp + " to " + path + ": " + std::strerror(err);
  if (err == EEXIST) text += " (noclobber is set; the complete file stays at " + temp + ")";
  throw Error(ErrorKind::Io, text);
}

}  // namespace

void commit_file(const CommitPlan& plan) {
  try {
    if (plan.expected_size >= 0) check_complete_size(plan.temp, plan.expected_size);
    rename_into_place(plan.temp, plan.final_path, plan.noclobber);
  } catch (const Error& e) {
    throw Error(e.kind(), plan.readable(e.what()));
  }
  if (plan.sync) sync_path(plan.output_dir, O_RDONLY | O_DIRECTORY);
}

}  // namespace nwpio::detail
