#include "sync_counter.hpp"

#include <dlfcn.h>
#include <mpi.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <mutex>
#include <vector>

namespace nwpio::test::sync_counter {

namespace {

std::mutex mutex;
std::vector<std::string> synced;  // the file behind each descriptor synced, in call order
std::atomic<int> mpi_syncs{0};

void note(int fd) {
  std::error_code ec;
  const std::filesystem::path file = std::filesystem::read_symlink("/proc/self/fd/" + std::to_string(fd), ec);
  const std::lock_guard<std::mutex> lock(mutex);
  synced.push_back(ec ? std::string() : file.string());
}

using SyncFn = int (*)(int);

SyncFn real(const char* name) { return reinterpret_cast<SyncFn>(::dlsym(RTLD_NEXT, name)); }

}  // namespace

void reset() {
  const std::lock_guard<std::mutex> lock(mutex);
  synced.clear();
  mpi_syncs = 0;
}

int fsyncs_of(const std::string& path) {
  std::error_code ec;
  const std::string want = std::filesystem::weakly_canonical(path, ec).string();
  const std::lock_guard<std::mutex> lock(mutex);
  int n = 0;
  for (const std::string& s : synced) n += s == want ? 1 : 0;
  return n;
}

int mpi_file_syncs() { return mpi_syncs; }

}  // namespace nwpio::test::sync_counter

extern "C" int fsync(int fd) {
  static const nwpio::test::sync_counter::SyncFn next = nwpio::test::sync_counter::real("fsync");
  nwpio::test::sync_counter::note(fd);
  return next(fd);
}

extern "C" int fdatasync(int fd) {
  static const nwpio::test::sync_counter::SyncFn next = nwpio::test::sync_counter::real("fdatasync");
  nwpio::test::sync_counter::note(fd);
  return next(fd);
}

extern "C" int MPI_File_sync(MPI_File fh) {
  ++nwpio::test::sync_counter::mpi_syncs;
  return PMPI_File_sync(fh);
}
