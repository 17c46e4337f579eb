// L0: the PnetCDF backend (io_form 11). Every rank writes its own requests; one
// ncmpi_wait_all per write() call (one per round of a frame).
#pragma once

#include <memory>

#include "backend/backend.hpp"

namespace nwpio::detail {

std::unique_ptr<Backend> make_pnetcdf_backend(MPI_Comm comm);

}  // namespace nwpio::detail
