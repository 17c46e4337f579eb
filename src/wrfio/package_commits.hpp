// The files WRF's package writes behind the model. WRF closes a history file (ioclose) as soon as
// its frame is handed over and expects to go on integrating; the file's last writes, its fsync and
// its final name come later, in the background. So the package keeps, per communicator WRF writes
// on (its compute ranks, or an I/O server group), ONE commit service and ONE Statistics for all
// the files of the run: each file's stream uses them, ioclose returns at once, and
//   - the next open_for_write_begin on that communicator raises, on every rank, a failure of an
//     earlier file (a background write or commit that failed; the file keeps its temporary name);
//   - ioexit waits until every file is committed (or failed) and raises what failed.
// The statistics JSON (&nwpio stats_json) then holds every file of the run, not only the last.
#pragma once

#include <mpi.h>

#include "api/stream_context.hpp"

namespace nwpio::wrfio {

// Collective over comm: what the next stream on comm shares (made at the first use), after any
// failure of an earlier file on comm was raised (the same Error on every rank). `stats_json`
// (&nwpio stats_json): where the run's statistics are written again at ioexit, when the last
// files' commit times are known; `output_dir`: where the stream writes (its private folder of
// temporary files is removed at ioexit when empty).
detail::StreamContext package_context(MPI_Comm comm, const std::string& stats_json, const std::string& output_dir);

// Collective over comm (a file opened for reading may be one the package is still committing):
// every file in flight on comm is committed (or its failure raised, agreed) first.
void settle_package_files(MPI_Comm comm);

// Collective over every communicator the package wrote on (ioexit): waits for every file in
// flight, commits what no background writer could, and throws the first failure, agreed.
void finish_package_files();

}  // namespace nwpio::wrfio
