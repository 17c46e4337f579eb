// Temporary files in a folder only the job's user can write (temp_files.hpp).
#include "util/temp_files.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

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

// The private folder must be a real folder of this user that nobody else may write.
void check_private_dir(const std::string& dir) {
  struct stat st {};
  if (::lstat(dir.c_str(), &st) != 0) throw Error(ErrorKind::Io, "cannot inspect " + dir + ": " + system_text(errno));
  const std::string why = "nwpio writes files there until they are complete and needs a folder only this user can write";
  if (!S_ISDIR(st.st_mode)) {
    throw Error(ErrorKind::Io, dir + " is " + kind_of(st) + ", not a folder; " + why + ": remove it");
  }
  if (st.st_uid != ::geteuid()) {
    throw Error(ErrorKind::Io, dir + " belongs to user id " + std::to_string(st.st_uid) + ", not to this job's user " +
                                   std::to_string(::geteuid()) + "; " + why);
  }
  if ((st.st_mode & 0077) != 0 && ::chmod(dir.c_str(), 0700) != 0) {
    throw Error(ErrorKind::Io, dir + " may be entered or written by others and its mode cannot be set to 0700 (" +
                                   system_text(errno) + "); " + why);
  }
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

std::string ledger_path_of(const std::string& final_path) {
  const std::filesystem::path p(final_path);
  return (std::filesystem::path(private_dir_of(folder_of(final_path))) /
          (p.filename().string() + std::string(kLedgerSuffix)))
      .string();
}

std::string ensure_private_dir(const std::string& dir) {
  const std::string mine = private_dir_of(dir);
  if (::mkdir(mine.c_str(), 0700) != 0 && errno != EEXIST) {
    throw Error(ErrorKind::Io, "cannot create " + mine + ": " + system_text(errno));
  }
  check_private_dir(mine);
  return mine;
}

void create_exclusive(const std::string& path) {
  for (int attempt = 0;; ++attempt) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd >= 0) {
      ::close(fd);
      return;
    }
    const int err = errno;
    if (err == ENOENT && attempt == 0) {  // the private folder went away (another stream emptied it)
      ensure_private_dir(folder_of(folder_of(path)));
      continue;
    }
    if (err != EEXIST || attempt > 0) throw Error(ErrorKind::Io, "cannot create " + path + ": " + system_text(err));
    // Something is there: a leftover of a crashed run is removed when it is a regular file of
    // this user; anything else is not touched.
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0) throw Error(ErrorKind::Io, "cannot inspect " + path + ": " + system_text(errno));
    if (!S_ISREG(st.st_mode) || st.st_uid != ::geteuid()) {
      throw Error(ErrorKind::Io, "cannot create " + path + ": " + kind_of(st) +
                                     (S_ISREG(st.st_mode) ? " of user id " + std::to_string(st.st_uid) : std::string()) +
                                     " is there; nwpio removes only its own leftover files");
    }
    if (::unlink(path.c_str()) != 0) throw Error(ErrorKind::Io, "cannot remove the leftover " + path + ": " + system_text(errno));
  }
}

void write_file_atomically(const std::string& path, std::string_view text) {
  const std::string dir = folder_of(path);
  ensure_private_dir(dir);
  const std::string temp = temporary_path_of(path);
  create_exclusive(temp);
  const int fd = ::open(temp.c_str(), O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) throw Error(ErrorKind::Io, "cannot open " + temp + ": " + system_text(errno));
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
  if (err == 0 && std::rename(temp.c_str(), path.c_str()) != 0) err = errno;
  if (err != 0) {
    ::unlink(temp.c_str());
    throw Error(ErrorKind::Io, "cannot write " + path + ": " + system_text(err));
  }
  remove_private_dir_if_empty(dir);
}

void remove_private_dir_if_empty(const std::string& dir) noexcept {
  ::rmdir(private_dir_of(dir).c_str());  // fails (ENOTEMPTY) while another stream uses it
}

}  // namespace nwpio::detail
