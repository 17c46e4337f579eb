// BackendTraits: everything the core may know about a backend, in one value returned by the
// factory. The core asks these questions and never tests io_form; a new backend adds a
// traits value and a class under src/backend/, and nothing else.
#pragma once

#include <string>

#include "nwpio/options.hpp"

namespace nwpio::detail {

// How the bytes a writer stages must look for its backend.
enum class ByteOrder {
  Native,     // the machine's own (netCDF-C and HDF5 convert themselves)
  BigEndian,  // netCDF classic on disk: the pack converts in the same pass
};

struct BackendTraits {
  IoForm io_form{};  // set by the registry; for messages and statistics only; the core never branches on it
  std::string name;                   // statistics: "pnetcdf", "netcdf-serial", "null"
  bool parallel = true;      // every rank may write its own pieces; false: rank 0 writes alone
  bool writes_file = true;   // false: no file is created, nothing is committed (io_form 0)
  bool uses_mpiio = true;    // the file is opened through MPI-IO: hints are passed and reported
  ByteOrder byte_order = ByteOrder::BigEndian;
  // WRF's io_form 11 rule: ':' becomes '_' in file names (some file systems and tools choke on it).
  bool colon_free_names = false;
  FileFormat format = FileFormat::Cdf2;  // the format files are created in
  // The core may switch a CDF-2 layout to CDF-5 when a variable outgrows CDF-2 (PnetCDF can
  // write both); otherwise the backend reports the format that works when it refuses.
  bool may_switch_to_cdf5 = false;
  // Every write of the backend is collective per variable (parallel HDF5 writes one dataset per
  // collective call, and filters need collective writes). The core then gives every writer a
  // share of EVERY variable, cut at chunk boundaries (one variable per round), and chunks the
  // layout along those shares (src/layout/writer_chunks.hpp): all writers compress at once, and
  // each chunk is written and compressed by exactly one rank.
  bool shares_each_variable = false;
  // A writer's slab is the file's own bytes at an offset: when the hints let writers write on
  // their own, the backend leaves the slab's write to the caller (Backend::write_deferred), which
  // writes it behind the model.
  bool writes_behind = false;
};

}  // namespace nwpio::detail
