#include "capi/capi_error.hpp"

#include <cstring>
#include <new>

#include "nwpio/nwpio.h"

namespace nwpio::capi {
namespace {

// The only global state of the library: the last error message of each thread (each MPI rank
// is a process, so this is "the last error on the calling rank").
thread_local std::string g_last_error;

std::string shown(const char* text, std::size_t max) {
  std::size_t n = strnlen(text, max);
  std::string s(text, n);
  return n == max ? s + "..." : s;
}

}  // namespace

int status_of(ErrorKind kind) noexcept {
  switch (kind) {
    case ErrorKind::InvalidArgument: return NWPIO_ERR_INVALID_ARGUMENT;
    case ErrorKind::Decomposition: return NWPIO_ERR_DECOMPOSITION;
    case ErrorKind::Schema: return NWPIO_ERR_SCHEMA;
    case ErrorKind::State: return NWPIO_ERR_STATE;
    case ErrorKind::Config: return NWPIO_ERR_CONFIG;
    case ErrorKind::Io: return NWPIO_ERR_IO;
    case ErrorKind::Mpi: return NWPIO_ERR_MPI;
    case ErrorKind::Pnetcdf: return NWPIO_ERR_PNETCDF;
    case ErrorKind::Netcdf: return NWPIO_ERR_NETCDF;
    case ErrorKind::Unsupported: return NWPIO_ERR_UNSUPPORTED;
    case ErrorKind::Internal: return NWPIO_ERR_INTERNAL;
  }
  return NWPIO_ERR_INTERNAL;
}

int record_error(ErrorKind kind, std::string message) {
  try {
    g_last_error = std::move(message);
  } catch (...) {
    // Out of memory while storing the message: keep what we have, the status still tells.
  }
  return status_of(kind);
}

int record_current_exception(std::string_view where) noexcept {
  try {
    throw;
  } catch (const Error& e) {
    return record_error(e.kind(), std::string(where) + ": " + e.what());
  } catch (const std::bad_alloc&) {
    return record_error(ErrorKind::Internal, std::string(where) + ": out of memory");
  } catch (const std::exception& e) {
    return record_error(ErrorKind::Internal, std::string(where) + ": " + e.what());
  } catch (...) {
    return record_error(ErrorKind::Internal, std::string(where) + ": unknown exception");
  }
}

std::string checked_name(const char* name, std::string_view what) {
  const std::string kind(what);
  if (name == nullptr) throw Error(ErrorKind::InvalidArgument, kind + " name is NULL");
  constexpr std::size_t kMax = NWPIO_MAX_NAME;
  std::size_t n = strnlen(name, kMax + 1);
  if (n > kMax) {
    throw Error(ErrorKind::InvalidArgument,
                kind + " name '" + shown(name, 40) + "' is longer than NC_MAX_NAME (" + std::to_string(kMax) +
                    ") characters or not NUL-terminated");
  }
  std::string s(name, n);
  if (s.find_first_not_of(' ') == std::string::npos) throw Error(ErrorKind::InvalidArgument, kind + " name is blank");
  return s;
}

std::string optional_text(const char* text) { return text ? std::string(text) : std::string(); }

std::string checked_date(const char* date) {
  if (date == nullptr) throw Error(ErrorKind::InvalidArgument, "date is NULL");
  constexpr std::size_t kMax = 64;
  std::size_t n = strnlen(date, kMax + 1);
  if (n > kMax) {
    throw Error(ErrorKind::InvalidArgument,
                "date '" + shown(date, 40) + "' is not a YYYY-MM-DD_HH:MM:SS date or not NUL-terminated");
  }
  return std::string(date, n);
}

}  // namespace nwpio::capi

extern "C" {

const char* nwpio_last_error(void) { return nwpio::capi::g_last_error.c_str(); }

size_t nwpio_last_error_copy(char* buf, size_t size) {
  const std::string& e = nwpio::capi::g_last_error;
  if (buf != nullptr && size > 0) {
    std::size_t n = e.size() < size - 1 ? e.size() : size - 1;
    std::memcpy(buf, e.data(), n);
    buf[n] = '\0';
  }
  return e.size();
}

const char* nwpio_status_name(int status) {
  switch (status) {
    case NWPIO_OK: return "NWPIO_OK";
    case NWPIO_ERR_INVALID_ARGUMENT: return "NWPIO_ERR_INVALID_ARGUMENT";
    case NWPIO_ERR_DECOMPOSITION: return "NWPIO_ERR_DECOMPOSITION";
    case NWPIO_ERR_SCHEMA: return "NWPIO_ERR_SCHEMA";
    case NWPIO_ERR_STATE: return "NWPIO_ERR_STATE";
    case NWPIO_ERR_CONFIG: return "NWPIO_ERR_CONFIG";
    case NWPIO_ERR_IO: return "NWPIO_ERR_IO";
    case NWPIO_ERR_MPI: return "NWPIO_ERR_MPI";
    case NWPIO_ERR_PNETCDF: return "NWPIO_ERR_PNETCDF";
    case NWPIO_ERR_NETCDF: return "NWPIO_ERR_NETCDF";
    case NWPIO_ERR_UNSUPPORTED: return "NWPIO_ERR_UNSUPPORTED";
    case NWPIO_ERR_INTERNAL: return "NWPIO_ERR_INTERNAL";
    default: return "unknown status";
  }
}

}  // extern "C"
