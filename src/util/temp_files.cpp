// Temporary files in a folder only the job's user can write (temp_files.hpp).
#include "util/temp_files.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>

#include "nwpio/error.hpp"

namespace nwpio::detail {

namespace {

std::string system_text(int err) { return std::strerror(err); }

// What a path holds, for messages.
std::string kind_of(const struct stat& st) {
  if (S_ISLNK(st.st_mode)) return "a symbolic link";
  if (S_ISFIFO(st.st_mode)) return "a FIFO";
  if (S_ISDIR(st.st_mode)) return "a folder";
  if (S_ISSOCK(st.st_mode)) return "a socket";
  if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)) return "a device";
  if (S_ISREG(st.st_mode)) return "a file";
  return "something";
}

std::string folder_of(const std::string& path) {
  const std::string d = std::filesystem::path(path).parent_path().string();
  return d.empty() ? std::string(".") : d;
}

const char* const kWhy = "nwpio writes files there until they are complete and needs a folder only this user can write";

// Opens the folder `path` names, never through a symbolic link, without blocking on a FIFO.
// Throws Error(Io) saying what is there instead; -1 when nothing is there and `missing_ok`.
int open_folder(const std::string& path, bool missing_ok = false) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd >= 0) return fd;
  const int err = errno;
  if (err == ENOENT && missing_ok) return -1;
  struct stat st {};
  if (::lstat(path.c_str(), &st) == 0 && !S_ISDIR(st.st_mode)) {
    throw Error(ErrorKind::Io, path + " is " + kind_of(st) + ", not a folder; " + kWhy + ": remove it");
  }
  throw Error(ErrorKind::Io, "cannot open " + path + ": " + system_text(err));
}

// The folder held by `fd` must be a real folder of this user that nobody else may enter;
// `close_it`: a mode that lets others in is set to 0700 (the folder's owner may), else refused.
void check_folder(int fd, const std::string& path, bool close_it, struct stat& st) {
  if (::fstat(fd, &st) != 0) throw Error(ErrorKind::Io, "cannot inspect " + path + ": " + system_text(errno));
  if (st.st_uid != ::geteuid()) {
    throw Error(ErrorKind::Io, path + " belongs to user id " + std::to_string(st.st_uid) + ", not to this job's user " +
                                   std::to_string(::geteuid()) + "; " + kWhy);
  }
  if ((st.st_mode & 0077) == 0) return;
  if (!close_it || ::fchmod(fd, 0700) != 0) {
    throw Error(ErrorKind::Io, path + " may be entered or written by others and its mode cannot be set to 0700 (" +
                                   system_text(close_it ? errno : EPERM) + "); " + kWhy);
  }
}

// The path that reaches the folder of `fd` itself, or "" where the system offers none.
std::string path_through(int fd, std::uint64_t inode) {
  const std::string via = "/proc/self/fd/" + std::to_string(fd);
  struct stat st {};
  if (::stat(via.c_str(), &st) == 0 && S_ISDIR(st.st_mode) && static_cast<std::uint64_t>(st.st_ino) == inode) return via;
  return {};
}

// Makes way for a new file `name` in the folder: a leftover of a crashed run is removed when it
// is a regular file of this user; anything else is not touched but refused. 0, or ENOENT when the
// folder itself is gone (removed after it was opened).
int clear_name(const PrivateDir& dir, std::string_view name) {
  const std::string n(name);
  const std::string shown = dir.readable(dir.path_of(name));
  struct stat st {};
  if (::fstatat(dir.descriptor(), n.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
    if (errno == ENOENT) return dir.removed() ? ENOENT : 0;
    throw Error(ErrorKind::Io, "cannot inspect " + shown + ": " + system_text(errno));
  }
  if (!S_ISREG(st.st_mode) || st.st_uid != ::geteuid()) {
    throw Error(ErrorKind::Io, "cannot create " + shown + ": " + kind_of(st) +
                                   (S_ISREG(st.st_mode) ? " of user id " + std::to_string(st.st_uid) : std::string()) +
                                   " is there; nwpio removes only its own leftover files");
  }
  if (::unlinkat(dir.descriptor(), n.c_str(), 0) != 0 && errno != ENOENT) {
    throw Error(ErrorKind::Io, "cannot remove the leftover " + shown + ": " + system_text(errno));
  }
  return 0;
}

// 0, or the errno of a create that did not happen because the folder is gone (ENOENT).
int try_create(const PrivateDir& dir, std::string_view name) {
  const std::string n(name);
  for (int attempt = 0;; ++attempt) {
    const int fd = ::openat(dir.descriptor(), n.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd >= 0) {
      ::close(fd);
      return 0;
    }
    const int err = errno;
    if (err == ENOENT) return err;
    if (err != EEXIST || attempt > 0) {
      throw Error(ErrorKind::Io, "cannot create " + dir.readable(dir.path_of(name)) + ": " + system_text(err));
    }
    if (const int gone = clear_name(dir, name); gone != 0) return gone;
  }
}

// The errno of the reason nobody may create a file in the folder now, or 0 when none is seen:
// the effective user's permission to write and enter it (a read-only file system answers EROFS)
// and a free inode. The create itself may still fail (a full disk, a quota).
int refusal_errno(const PrivateDir& dir) {
  if (::faccessat(dir.descriptor(), ".", W_OK | X_OK, AT_EACCESS) != 0) return errno;
  struct statvfs vfs {};
  if (::fstatvfs(dir.descriptor(), &vfs) == 0 && vfs.f_files > 0 && vfs.f_ffree == 0) return ENOSPC;
  return 0;
}

std::string refusal_text(int err) {
  return err == ENOSPC ? system_text(err) + " (no free inode)" : system_text(err);
}

// How many times a folder removed before a file could be created in it is made again: each time
// something removed it in the few system calls between its mkdir and the file's create, which
// another stream's close does at most once; ten in a row is someone removing it on purpose.
constexpr int kMakeAttempts = 10;

// The private folder of `dir`, held, with `name` created exclusively in it; `check` runs on the
// folder first and throws to refuse it. A folder removed before the file was in it (other
// streams and jobs of the user remove it when they find it empty) is made again.
std::shared_ptr<const PrivateDir> make_holding(const std::string& dir, std::string_view name,
                                               const std::function<void(const PrivateDir&)>& check) {
  for (int attempt = 1;; ++attempt) {
    auto folder = PrivateDir::make(dir);
    if (folder) {
      if (check) check(*folder);
      if (try_create(*folder, name) == 0) return folder;
    }
    if (attempt == kMakeAttempts) {
      throw Error(ErrorKind::Io, "cannot create " + private_dir_of(dir) + "/" + std::string(name) + ": the folder was removed " +
                                     std::to_string(kMakeAttempts) + " times before the file could be created in it; " +
                                     "something removes it as soon as it is empty");
    }
  }
}

// The pin of the file `name` (its temporary name or any other): <final name>.nwpio-creating.
std::string pin_name_of(std::string_view name) {
  if (name.ends_with(kTemporarySuffix)) name.remove_suffix(kTemporarySuffix.size());
  return std::string(name) + std::string(kPinSuffix);
}

}  // namespace

std::string private_dir_of(const std::string& dir) {
  return (std::filesystem::path(dir) / (std::string(kPrivateDirPrefix) + std::to_string(::geteuid()))).string();
}

std::string temporary_path_of(const std::string& final_path) {
  const std::filesystem::path p(final_path);
  return (std::filesystem::path(private_dir_of(folder_of(final_path))) /
          (p.filename().string() + std::string(kTemporarySuffix)))
      .string();
}

PrivateDir::PrivateDir(int fd, std::string shown, std::uint64_t inode)
    : fd_(fd), shown_(std::move(shown)), inode_(inode) {
  via_ = path_through(fd_, inode_);
  if (via_.empty()) via_ = shown_;  // no /proc: paths by name (checked once, not held)
}

PrivateDir::~PrivateDir() {
  if (fd_ >= 0) ::close(fd_);
}

std::shared_ptr<const PrivateDir> PrivateDir::make(const std::string& dir) {
  const std::string mine = private_dir_of(dir);
  if (::mkdir(mine.c_str(), 0700) != 0 && errno != EEXIST) {
    throw Error(ErrorKind::Io, "cannot create " + mine + ": " + system_text(errno));
  }
  const int fd = open_folder(mine, true);
  if (fd < 0) return nullptr;  // removed since the mkdir
  struct stat st {};
  try {
    check_folder(fd, mine, true, st);
  } catch (...) {
    ::close(fd);
    throw;
  }
  return std::shared_ptr<const PrivateDir>(new PrivateDir(fd, mine, static_cast<std::uint64_t>(st.st_ino)));
}

std::shared_ptr<const PrivateDir> PrivateDir::join(const std::string& dir, std::uint64_t inode) {
  const std::string mine = private_dir_of(dir);
  const int fd = open_folder(mine);
  struct stat st {};
  try {
    check_folder(fd, mine, false, st);
    if (static_cast<std::uint64_t>(st.st_ino) != inode) {
      throw Error(ErrorKind::Io, mine + " is not the folder this file was created in (someone renamed or replaced it "
                                        "meanwhile); " + kWhy);
    }
  } catch (...) {
    ::close(fd);
    throw;
  }
  return std::shared_ptr<const PrivateDir>(new PrivateDir(fd, mine, inode));
}

std::string PrivateDir::path_of(std::string_view name) const { return via_ + "/" + std::string(name); }

bool PrivateDir::removed() const noexcept {
  // A network file system may answer for a folder another client removed with an error instead.
  struct stat st {};
  if (::fstat(fd_, &st) != 0) return errno == ENOENT || errno == ESTALE;
  return st.st_nlink == 0;
}

std::string PrivateDir::readable(std::string text) const {
  if (via_ == shown_) return text;
  const std::string from = via_ + "/", to = shown_ + "/";
  for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
  return text;
}

void create_exclusive(const PrivateDir& dir, std::string_view name) {
  if (const int err = try_create(dir, name); err != 0) {
    throw Error(ErrorKind::Io, "cannot create " + dir.readable(dir.path_of(name)) + ": " + system_text(err));
  }
}

std::shared_ptr<const PrivateDir> make_with_file(const std::string& dir, std::string_view name) {
  return make_holding(dir, name, {});
}

FolderPin::FolderPin(std::shared_ptr<const PrivateDir> folder, std::string name) noexcept
    : folder_(std::move(folder)), name_(std::move(name)) {}

FolderPin::~FolderPin() { ::unlinkat(folder_->descriptor(), name_.c_str(), 0); }

std::unique_ptr<FolderPin> make_ready_for(const std::string& dir, std::string_view name) {
  // The folder's refusal first, so that the error names the file the caller wants.
  const auto refuse_full_or_closed = [&](const PrivateDir& folder) {
    if (const int err = refusal_errno(folder); err != 0) {
      throw Error(ErrorKind::Io, "cannot create " + folder.readable(folder.path_of(name)) + ": " + refusal_text(err));
    }
  };
  const std::string pin_name = pin_name_of(name);
  auto pin = std::make_unique<FolderPin>(make_holding(dir, pin_name, refuse_full_or_closed), pin_name);
  const PrivateDir& folder = *pin->folder();
  // Pinned, the folder cannot be removed by rmdir: gone means someone removed the pin too, which
  // only this user or root can.
  if (const int gone = clear_name(folder, name); gone != 0) {
    throw Error(ErrorKind::Io, "cannot create " + folder.readable(folder.path_of(name)) + ": " + system_text(gone));
  }
  return pin;
}

std::string refusal_of(const PrivateDir& dir) {
  const int err = refusal_errno(dir);
  return err == 0 ? std::string() : refusal_text(err);
}

void write_file_atomically(const std::string& path, std::string_view text) {
  const std::string dir = folder_of(path);
  const std::string name = std::filesystem::path(path).filename().string() + std::string(kTemporarySuffix);
  {
    const auto folder = make_with_file(dir, name);
    const int fd = ::openat(folder->descriptor(), name.c_str(), O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) throw Error(ErrorKind::Io, "cannot open " + temporary_path_of(path) + ": " + system_text(errno));
    std::size_t done = 0;
    int err = 0;
    while (done < text.size()) {
      const ssize_t w = ::write(fd, text.data() + done, text.size() - done);
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) {
        err = w < 0 ? errno : EIO;
        break;
      }
      done += static_cast<std::size_t>(w);
    }
    if (::close(fd) != 0 && err == 0) err = errno;
    if (err == 0 && ::renameat(folder->descriptor(), name.c_str(), AT_FDCWD, path.c_str()) != 0) err = errno;
    if (err != 0) {
      ::unlinkat(folder->descriptor(), name.c_str(), 0);
      throw Error(ErrorKind::Io, "cannot write " + path + ": " + system_text(err));
    }
  }
  remove_private_dir_if_empty(dir);
}

void check_file_writable(const std::string& path) {
  const std::string dir = folder_of(path);
  const std::string name = std::filesystem::path(path).filename().string() + std::string(kTemporarySuffix);
  try {
    const auto folder = make_with_file(dir, name);
    ::unlinkat(folder->descriptor(), name.c_str(), 0);
  } catch (const Error& e) {
    remove_private_dir_if_empty(dir);
    throw Error(ErrorKind::Io, "cannot write " + path + ": " + e.what());
  }
  remove_private_dir_if_empty(dir);
  // The rename replaces whatever name is there (a symbolic link itself, not its target), except
  // a folder.
  struct stat st {};
  if (::lstat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
    throw Error(ErrorKind::Io, "cannot write " + path + ": " + system_text(EISDIR) + " (a folder is not replaced)");
  }
}

void remove_private_dir_if_empty(const std::string& dir) noexcept {
  // Only this user's own folder: a name someone else planted there (their folder, empty or not,
  // a symbolic link) is left as it is. rmdir fails (ENOTEMPTY) while another stream uses it.
  const std::string mine = private_dir_of(dir);
  struct stat st {};
  if (::lstat(mine.c_str(), &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != ::geteuid()) return;
  ::rmdir(mine.c_str());
}

}  // namespace nwpio::detail
