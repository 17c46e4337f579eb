#include "wrfio/open_files.hpp"

#include <mpi.h>

#include <cstdio>
#include <map>
#include <new>

#include "wrfio/wrf_status.hpp"

namespace nwpio::wrfio {

namespace {

// The package's global state: WRF's DataHandles -> files, and the last error text.
std::map<int, OpenFile> g_files;
int g_next_handle = 1;
bool g_initialized = false;
std::string g_last_error;

constexpr int kMessagesPerFile = 10;

int world_rank() noexcept {
  int inited = 0, finalized = 0, rank = 0;
  MPI_Initialized(&inited);
  MPI_Finalized(&finalized);
  if (inited && !finalized) MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

void report(std::string_view entry, int handle, const std::string& message, bool quiet) noexcept {
  try {
    OpenFile* file = find_open_file(handle);
    std::string where(entry);
    if (file) where += "(" + file->wrf_file_name() + ")";
    g_last_error = where + ": " + message;
    if (quiet) return;
    if (file && ++file->errors_shown > kMessagesPerFile) {
      if (file->errors_shown == kMessagesPerFile + 1) {
        std::fprintf(stderr, "nwpio [rank %d] %s: further errors of this file are not shown\n", world_rank(),
                     where.c_str());
      }
      return;
    }
    std::fprintf(stderr, "nwpio [rank %d] %s\n", world_rank(), g_last_error.c_str());
    std::fflush(stderr);
  } catch (...) {
    // out of memory while reporting: the status still tells
  }
}

}  // namespace

int add_open_file(OpenFile file) {
  const int handle = g_next_handle++;
  g_files.emplace(handle, std::move(file));
  return handle;
}

OpenFile* find_open_file(int handle) noexcept {
  const auto it = g_files.find(handle);
  return it == g_files.end() ? nullptr : &it->second;
}

OpenFile& open_file(int handle) {
  OpenFile* f = find_open_file(handle);
  if (f == nullptr) {
    throw WrfError(wrf_status::kBadDataHandle, ErrorKind::State,
                   "DataHandle " + std::to_string(handle) + " is not an open file of this package");
  }
  return *f;
}

void remove_open_file(int handle) noexcept { g_files.erase(handle); }
void remove_all_open_files() noexcept { g_files.clear(); }

bool package_initialized() noexcept { return g_initialized; }
void set_package_initialized(bool on) noexcept { g_initialized = on; }

const std::string& last_error() noexcept { return g_last_error; }

int run_entry(std::string_view entry, int handle, int (*body)(void*), void* context) noexcept {
  try {
    return body(context);
  } catch (const WrfError& e) {
    report(entry, handle, e.what(), e.quiet());
    return e.wrf_status();
  } catch (const Error& e) {
    report(entry, handle, e.what(), false);
    return wrf_status_of(e);
  } catch (const std::bad_alloc&) {
    report(entry, handle, "out of memory", false);
    return wrf_status::kNetcdf;
  } catch (const std::exception& e) {
    report(entry, handle, e.what(), false);
    return wrf_status::kNetcdf;
  } catch (...) {
    report(entry, handle, "unknown exception", false);
    return wrf_status::kNetcdf;
  }
}

}  // namespace nwpio::wrfio
