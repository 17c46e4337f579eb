// The C boundary's error handling: the one global (thread-local) message store, the mapping
// from nwpio::ErrorKind to status codes, and the guard every C entry point runs its body in.
#pragma once

#include <exception>
#include <string>
#include <string_view>
#include <utility>

#include "nwpio/error.hpp"

namespace nwpio::capi {

// Stores `message` as the calling thread's last error and returns the status of `kind`.
int record_error(ErrorKind kind, std::string message);
int status_of(ErrorKind kind) noexcept;

// Maps the exception in flight to a status, recording "<where>: <message>".
int record_current_exception(std::string_view where) noexcept;

// Runs `body` (returning void); NWPIO_OK, or the status of what it threw. Never throws.
template <class F>
int guard(std::string_view where, F&& body) noexcept {
  try {
    std::forward<F>(body)();
    return 0;
  } catch (...) {
    return record_current_exception(where);
  }
}

// Checks a NUL-terminated name (variable, dimension, attribute): not NULL, terminated within
// NC_MAX_NAME + 1 bytes, not blank. Returns it as a string; throws Error(InvalidArgument).
std::string checked_name(const char* name, std::string_view what);
// Optional text (description, units, output_dir): NULL -> "".
std::string optional_text(const char* text);
// A date argument: not NULL, terminated within a few bytes of YYYY-MM-DD_HH:MM:SS.
std::string checked_date(const char* date);

}  // namespace nwpio::capi
