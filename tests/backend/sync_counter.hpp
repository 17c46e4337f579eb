// Counts the calls that make a file's bytes durable, without changing them: fsync and fdatasync
// (nwpio's own and the libraries'), and MPI_File_sync through MPI's profiling interface (PMPI).
// The test executable exports its definitions (ENABLE_EXPORTS), so libnwpio, PnetCDF, HDF5 and
// the MPI library call them; each passes the call on to the real one.
#pragma once

#include <string>

namespace nwpio::test::sync_counter {

// Forgets what was counted so far (this process).
void reset();
// fsync/fdatasync calls on a descriptor open on `path` since reset().
int fsyncs_of(const std::string& path);
// MPI_File_sync calls since reset().
int mpi_file_syncs();

}  // namespace nwpio::test::sync_counter
