// L0: parallel netCDF-4 backend (io_form 13), through netCDF-C's parallel API over parallel
// HDF5 (the MPI build of netCDF-C; see cmake/NwpioNetcdf.cmake). Compiled only in that build.
//
// Every rank opens the file (nc_create_par with the MPI-IO hints), defines it identically, and
// writes its slab's pieces. HDF5 writes a dataset per call and needs collective calls where
// filters are on, so the backend's traits say `shares_each_variable`: the rearranger hands each
// writer a share of every variable, cut on chunk boundaries (the layout's chunks follow the
// shares, src/layout/writer_chunks.hpp). One write() makes, per variable any rank holds, the
// same number of collective nc_put_vara calls on every rank (ranks without a piece pass an empty
// one): every writer compresses its own chunks in the same call, and no chunk is shared between
// ranks, so HDF5 never moves a chunk between ranks.
#pragma once

#include <memory>

#include "backend/backend.hpp"

namespace nwpio::detail {

std::unique_ptr<Backend> make_netcdf_parallel_backend(MPI_Comm comm);

}  // namespace nwpio::detail
