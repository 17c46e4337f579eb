// The one checked wrapper for MPI calls: names the call and gives MPI's own message.
#pragma once

#include <mpi.h>

#include <string>
#include <string_view>

#include "nwpio/error.hpp"

namespace nwpio::detail {

std::string mpi_error_string(int code);

// Usage: mpi_check(MPI_Allreduce(...), "MPI_Allreduce");
inline void mpi_check(int rc, std::string_view call) {
  if (rc != MPI_SUCCESS) {
    throw Error(ErrorKind::Mpi, std::string(call) + " failed: " + mpi_error_string(rc));
  }
}

}  // namespace nwpio::detail
