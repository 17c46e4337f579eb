// The statistics of one frame as every rank measured them, reduced to one value per phase.
#pragma once

#include <mpi.h>

#include "nwpio/statistics.hpp"

namespace nwpio::detail {

// Collective: every measured phase, byte count of buffers and flag of `stats` becomes its maximum
// over the ranks of comm (one allreduce). Names, dates and the record are left as they are.
void reduce_max(FrameStats& stats, MPI_Comm comm);

}  // namespace nwpio::detail
