// L0: serial netCDF backend (io_form 2). Owned by the io_form 2 work (issue 3).
#pragma once

#include <memory>

#include "backend/backend.hpp"

namespace nwpio::detail {

// Only rank 0 of comm touches the file; parallel() is false, so the Writer gathers all data to
// rank 0 (in rounds bounded by OutputOptions::serial_chunk_bytes) before write().
std::unique_ptr<Backend> make_netcdf_serial_backend(MPI_Comm comm, const OutputOptions& options);

}  // namespace nwpio::detail
