// nwpio::Error: the one exception type of the C++ API. Every collective public call either
// succeeds on every rank or throws an Error with the same kind and message on every rank.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

namespace nwpio {

enum class ErrorKind {
  InvalidArgument,  // a caller passed something malformed (name, date, size, type)
  Decomposition,    // patches do not tile the domain, memory does not contain the patch, ...
  Schema,           // undefined / duplicate variable, bad dimension
  State,            // call out of order (put before begin_frame, date going backwards, ...)
  Config,           // namelist, iofields or hints input (message carries file:line:column)
  Io,               // file system: missing directory, permission, disk full
  Mpi,              // an MPI call failed (message from MPI_Error_string)
  Pnetcdf,          // a PnetCDF call failed (message from ncmpi_strerror)
  Netcdf,           // a netCDF-C call failed (message from nc_strerror)
  Unsupported,      // built without a backend, format limits, ...
  Internal,         // a bug in nwpio
};

std::string_view to_string(ErrorKind kind) noexcept;

class Error : public std::runtime_error {
 public:
  // `agreed`: the error already went through a collective agreement, so every rank holds it
  // with the failing rank named; a further agreement passes it on unchanged.
  Error(ErrorKind kind, const std::string& message, bool agreed = false)
      : std::runtime_error(message), kind_(kind), agreed_(agreed) {}
  ErrorKind kind() const noexcept { return kind_; }
  bool agreed() const noexcept { return agreed_; }

 private:
  ErrorKind kind_;
  bool agreed_;
};

}  // namespace nwpio
