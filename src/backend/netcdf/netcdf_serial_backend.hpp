// L0: serial netCDF backend (io_form 2), through netCDF-C.
//
// Only rank 0 of the communicator touches the file (traits: not parallel), so the Writer gathers
// the data to rank 0 in rounds bounded by OutputOptions::serial_chunk_bytes and calls write()
// once per round on every rank (rank 0 with its slab, the others with nothing). The
// backend never copies or buffers request data itself. create/write/close are collective:
// rank 0's outcome is agreed on (detail::run_and_agree), so every rank succeeds or throws the
// same Error.
//
// Format (as WRF's io_form 2): use_netcdf_classic = .true. -> CDF-2 (NC_64BIT_OFFSET) with the
// header reserve of FileLayout; .false. (WRF's default) -> netCDF-4/HDF5 where the horizontal
// fields get the layout's chunk shapes (WRF's, src/wrf/wrf_chunking.hpp) with shuffle and deflate
// at FileLayout::deflate_level. NOFILL in both formats.
#pragma once

#include <memory>

#include "backend/backend.hpp"

namespace nwpio::detail {

// The file format io_form 2 writes for these options: Cdf2 or Netcdf4.
FileFormat serial_file_format(const OutputOptions& options) noexcept;

std::unique_ptr<Backend> make_netcdf_serial_backend(MPI_Comm comm);

}  // namespace nwpio::detail
