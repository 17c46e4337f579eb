#include "core/disk_guard.hpp"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "nwpio/error.hpp"
#include "util/mpi_call.hpp"

namespace nwpio::detail {

FileExtent share_file_extent(const FileExtent& extent, MPI_Comm comm) {
  std::int64_t v[5] = {extent.known ? 1 : 0, extent.fixed_end, extent.last_record_var, extent.record_size,
                       extent.last_record_var_bytes};
  mpi_check(MPI_Bcast(v, 5, MPI_INT64_T, 0, comm), "MPI_Bcast(file extent)");
  FileExtent e;
  e.known = v[0] == 1;
  e.fixed_end = v[1];
  e.last_record_var = v[2];
  e.record_size = v[3];
  e.last_record_var_bytes = v[4];
  return e;
}

void check_file_size_limit(const std::string& path, std::int64_t end) {
  rlimit limit{};
  if (::getrlimit(RLIMIT_FSIZE, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return;
  if (static_cast<std::uint64_t>(end) <= static_cast<std::uint64_t>(limit.rlim_cur)) return;
  throw Error(ErrorKind::Io, path + ": " + std::strerror(EFBIG) + ": the file would reach " + std::to_string(end) +
                                 " bytes, over this process's file-size limit of " +
                                 std::to_string(static_cast<std::uint64_t>(limit.rlim_cur)) + " bytes (ulimit -f)");
}

void reserve_space(const std::string& path, std::int64_t begin, std::int64_t end) {
  if (end <= begin) return;
  // Never through a symbolic link, never blocking on a FIFO: the file is nwpio's own temporary.
  const int fd = ::open(path.c_str(), O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) throw Error(ErrorKind::Io, path + ": " + std::strerror(errno) + " (opening it to reserve disk space)");
  const int rc = ::fallocate(fd, FALLOC_FL_KEEP_SIZE, static_cast<off_t>(begin), static_cast<off_t>(end - begin));
  const int err = errno;
  ::close(fd);
  if (rc == 0 || err == EOPNOTSUPP || err == ENOSYS || err == EINVAL) return;
  throw Error(ErrorKind::Io, path + ": " + std::strerror(err) + " (reserving bytes " + std::to_string(begin) + " to " +
                                 std::to_string(end) + " of the file before writing the frame)");
}

void reserve_slice(const std::string& path, std::int64_t begin, std::int64_t end, int rank, int ranks) {
  const std::int64_t n = end - begin;
  if (n <= 0 || ranks < 1) return;
  // Whole 1 MiB pieces per rank, so that slices do not share blocks.
  constexpr std::int64_t kGrain = std::int64_t{1} << 20;
  const std::int64_t pieces = (n + kGrain - 1) / kGrain;
  const std::int64_t lo = begin + pieces * rank / ranks * kGrain;
  const std::int64_t hi = std::min(end, begin + pieces * (rank + 1) / ranks * kGrain);
  reserve_space(path, lo, hi);
}

void check_complete_size(const std::string& path, std::int64_t end) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) throw Error(ErrorKind::Io, path + ": " + std::strerror(errno));
  if (st.st_size >= end) return;
  throw Error(ErrorKind::Io, path + " is " + std::to_string(static_cast<std::int64_t>(st.st_size)) +
                                 " bytes, its header promises " + std::to_string(end) +
                                 ": data were lost on the way to the disk (a write error the MPI-IO layer did "
                                 "not report); the file keeps its temporary name");
}

}  // namespace nwpio::detail
