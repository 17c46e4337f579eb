// Which MPI-IO implementation will open the file, and what each logical setting becomes in it.
//
// Detection (detect_mpiio, cached per process) relies on two things only:
//  1. MPI_Get_library_version: "Open MPI vX.Y.Z..." or an MPICH-derived library (MPICH,
//     Intel MPI, MVAPICH, Cray MPICH), which always use ROMIO.
//  2. Under Open MPI, the MPI_T control variables of the MCA io framework: "io" (the component
//     selection, e.g. "romio321" or "^ompio", from OMPI_MCA_io, mpirun --mca io, or an
//     mca-params.conf file alike) and "io_<component>_priority". Open MPI picks the allowed
//     component with the highest priority, so nwpio does the same.
// MPI_File_get_info cannot be used: Open MPI 4.1 answers it from its own copy of the info
// object, under ROMIO as under OMPIO, so it only echoes what was passed.
#pragma once

#include <map>
#include <string>

namespace nwpio::detail {

enum class IoLayer { Romio, Ompio };

struct MpiIo {
  std::string library;    // first line of MPI_Get_library_version
  std::string vendor;     // "Open MPI", "MPICH", "Intel MPI", "MVAPICH", "Cray MPICH", "unknown"
  int major = 0, minor = 0, patch = 0;
  IoLayer layer = IoLayer::Romio;
  std::string component;  // "ompio", "romio321", "romio341", "ROMIO"
  std::string how;        // how the layer was determined (for the report)
  bool lockahead = false;           // ROMIO knows romio_lustre_cb_lock_ahead_write
  bool ompio_standard_striping = false;  // OMPIO reads striping_factor/unit (Open MPI >= 4.1.6)
  std::string layer_name() const { return layer == IoLayer::Romio ? "ROMIO" : "OMPIO"; }
};

// Pure classification, for tests: `io_selection` is the "io" MCA variable ("" when unset),
// `priorities` maps component names to their priority variables.
MpiIo classify(const std::string& library_version, const std::string& io_selection,
               const std::map<std::string, int>& priorities);
// The running process (MPI must be initialised). Cached after the first call.
MpiIo detect_mpiio();

}  // namespace nwpio::detail
