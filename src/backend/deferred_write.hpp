// DeferredWrite: a slab write a backend leaves to its caller (Backend::write_deferred): the bytes
// of one writer's slab, where they go in the file, and a descriptor of the file of its own. Plain
// POSIX, callable from any thread (no MPI call), valid after the backend closed the file or was
// destroyed: the file sink's background writer runs it while the model goes on.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace nwpio::detail {

class DeferredWrite {
 public:
  // Takes ownership of `fd` (closed by the destructor).
  DeferredWrite(int fd, std::string path, std::int64_t offset, const std::byte* data, std::int64_t size) noexcept
      : fd_(fd), path_(std::move(path)), offset_(offset), data_(data), size_(size) {}
  ~DeferredWrite();
  DeferredWrite(const DeferredWrite&) = delete;
  DeferredWrite& operator=(const DeferredWrite&) = delete;

  // Writes every byte (pwrite until done; EINTR retried). Throws Error(Io) naming the file, the
  // offset and the system's reason (a full disk, a quota, an I/O error).
  void run();

  std::int64_t size() const noexcept { return size_; }
  const std::string& path() const noexcept { return path_; }

 private:
  int fd_ = -1;
  std::string path_;
  std::int64_t offset_ = 0;
  const std::byte* data_ = nullptr;
  std::int64_t size_ = 0;
};

// The same write now, on the calling thread, through `fd` (not closed). Throws as run().
void write_all_at(int fd, const std::string& path, std::int64_t offset, const std::byte* data, std::int64_t size);

}  // namespace nwpio::detail
