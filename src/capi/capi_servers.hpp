// The I/O servers of the C API: one IoServers object per process (started by
// nwpio_servers_start), part of L4's global state, which nwpio_open consults.
#pragma once

#include <mpi.h>

#include "nwpio/io_servers.hpp"

namespace nwpio::capi {

// The running servers if `comm` is their compute communicator (or congruent with it), else null.
const IoServers* servers_for(MPI_Comm comm);

}  // namespace nwpio::capi
