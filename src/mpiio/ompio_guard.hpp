// Guard against a platform bug: Open MPI's default MPI-IO (OMPIO) before 5.0.6 -- Debian 12
// ships 4.1.4 -- does read-modify-write "data sieving" in its POSIX fbtl when one write call
// carries pieces with holes between them, without locking the range
// (open-mpi/ompi#12718, fixed in 5.0.6). Two processes that sieve over overlapping ranges at
// the same time write back each other's stale bytes: WRF's own io_form 11 package at 3 ranks
// wrote wrong Times, XLAT, MU, ... in every run measured here.
//
// guard_ompio_write_data_sieving() switches that sieving off for the process, before the first
// file is opened, where the library is affected:
//   1. MPI_Get_library_version says Open MPI older than 5.0.6 (ROMIO users: the OMPIO
//      component's variable simply is not consulted, switching it off costs nothing);
//   2. the control variable fbtl_posix_write_datasieving exists (MPI_T_cvar_get_index) and
//      reads true (an OMPI_MCA_fbtl_posix_write_datasieving=0 in the environment is respected);
//   3. MPI_T_cvar_write(0); Open MPI 4.1 registers the variable read-only for MPI_T (the write
//      is refused with MPI_T_ERR_CVAR_SET_NEVER, and the environment is read only at MPI_Init),
//      so then the value is set in the variable's storage, which the loaded component exports
//      as mca_fbtl_posix_write_datasieving;
//   4. read back through MPI_T: the note says what holds now.
// The MPI_T session stays open (MPI_T_finalize would unload the component, and the next file
// open would load it with sieving on again). Measured with the trigger pattern below (P ranks
// write adjacent 100-byte pieces with one MPI_File_write_at_all, cb_nodes=P, on disk, 300
// times): 34 and 46 of 300 pieces wrong at 3 ranks, 16 and 18 at 4 ranks without the guard;
// 0 in four runs with it (tests/ompio).
// Idempotent and cheap after the first call; never throws. Needs MPI to be initialised.
#pragma once

#include <string>

namespace nwpio::detail {

struct OmpioGuard {
  bool affected = false;     // an Open MPI whose OMPIO sieves writes unsafely
  bool sieving_off = false;  // fbtl_posix_write_datasieving reads false now
  std::string note;          // one line for the hint report / log, empty when not Open MPI
};

const OmpioGuard& guard_ompio_write_data_sieving() noexcept;

// Local. Parses an Open MPI version ("Open MPI v4.1.4, package: ...") and says whether it is
// older than 5.0.6; false for other libraries. (Pure; unit-tested.)
bool open_mpi_sieving_unsafe(const std::string& library_version) noexcept;

}  // namespace nwpio::detail
