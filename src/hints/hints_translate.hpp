// What each logical setting becomes in the MPI-IO implementation that opens the file (its
// MPI_Info keys, or nothing where that implementation does not read the setting), for the report.
#pragma once

#include <string>
#include <vector>

#include "hints/hints_merge.hpp"
#include "mpiio/mpiio_layer.hpp"

namespace nwpio::detail::hints {

struct Key {
  std::string key, value;
};

// One line of the report: a logical setting or a raw key, and what it became.
struct Entry {
  std::string name;     // setting name, or "raw:<key>"
  std::string asked, origin, value, rule;
  std::string target;   // "MPI-IO" or "PnetCDF"
  std::vector<Key> keys;  // passed in the MPI_Info object
  std::string status;   // after translate: "default", "passed", "dropped"
  std::string why;      // reason for dropped / notes
  std::string overridden_by;  // another hint or variable that wins over this one
};

std::vector<Entry> translate(const Resolved& resolved, const MpiIo& io);

// Whether a writer's own contiguous slab may go out on its own (an independent write: write-behind),
// decided from the settings as the layer reads them: collective buffering off (collective_write
// false, or the raw key of this layer: romio_cb_write = disable under ROMIO, collective_buffering =
// false under OMPIO; a raw key wins over the setting, as in MPI_Info) and independent I/O not
// forbidden (no_indep_rw, which only ROMIO reads). `blocker`: the setting that keeps the write
// collective, as users wrote it ("collective_write=true <lustre.toml:33>"); empty when allowed.
struct IndependentWrites {
  bool allowed = false;
  std::string blocker;
};
IndependentWrites independent_writes(const Resolved& resolved, const MpiIo& io);

}  // namespace nwpio::detail::hints
