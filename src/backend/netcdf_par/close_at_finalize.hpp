// L0: a parallel netCDF-4 file that a rank had to give up (its Writer destroyed during stack
// unwinding, when a collective nc_close could no longer be matched) is closed at MPI_Finalize.
//
// HDF5 would close it there by itself, from its delete callback on MPI_COMM_SELF; but ROMIO
// frees its own state from such a callback too, and MPI runs them in the reverse order of their
// setting. In a process whose first MPI-IO file was netCDF-4 (HDF5 started before ROMIO), ROMIO
// is gone when HDF5 flushes the file, and the process crashes inside MPI_Finalize
// (MPI_File_set_view). The callback set here, when the file is given up (after both), runs
// before both, while MPI-IO and HDF5 still work, on every rank that gave the file up.
#pragma once

namespace nwpio::detail {

// Local, never throws: `ncid` is closed with nc_close inside MPI_Finalize (collective then, as
// nc_close is: every rank of the file's communicator must have given it up the same way).
void close_at_mpi_finalize(int ncid) noexcept;

}  // namespace nwpio::detail
