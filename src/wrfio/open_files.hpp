// The package's table of open files (WRF's DataHandles) and the guard every C entry point runs
// in. WRF's I/O API is handle-based, so the package keeps the one global table it needs here,
// next to the C boundary, as the C API keeps its last-error text.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "wrfio/read_file.hpp"
#include "wrfio/write_stream.hpp"

namespace nwpio::wrfio {

struct OpenFile {
  std::unique_ptr<WriteStream> write;
  std::unique_ptr<ReadFile> read;
  int errors_shown = 0;

  const std::string& wrf_file_name() const { return write ? write->wrf_file_name() : read->wrf_file_name(); }
  int file_state() const { return write ? write->file_state() : read->file_state(); }
};

// Handles are 1, 2, ... (0 and negatives are never valid).
int add_open_file(OpenFile file);
// Throws WrfError(kBadDataHandle) for a handle that is not open.
OpenFile& open_file(int handle);
OpenFile* find_open_file(int handle) noexcept;
void remove_open_file(int handle) noexcept;
// ioexit: forgets every open file (their destructors close or abandon them).
void remove_all_open_files() noexcept;

bool package_initialized() noexcept;
void set_package_initialized(bool on) noexcept;

// The last error text of this process (for tests and the Fortran driver).
const std::string& last_error() noexcept;

// Runs `body` (returns a WRF status) catching everything: an error becomes its WRF status, its
// message is kept as last_error() and -- unless the status is a quiet protocol answer -- printed
// as "nwpio [rank r] <entry>(<file>): <message>" on stderr of this rank (WRF ignores most
// statuses; this is how its user learns what went wrong). At most a few messages per file are
// printed; the rest are counted.
int run_entry(std::string_view entry, int handle, int (*body)(void*), void* context) noexcept;

template <class F>
int guarded(std::string_view entry, int handle, F&& body) noexcept {
  auto trampoline = [](void* ctx) -> int { return (*static_cast<F*>(ctx))(); };
  return run_entry(entry, handle, trampoline, &body);
}

}  // namespace nwpio::wrfio
