// The hints of one file open: resolved from defaults < profile < namelist < API < environment,
// turned into MPI_Info for MPI-IO / PnetCDF, then verified against the file's real layout and
// reported. The file sink uses exactly this interface. The parts live in hints_settings (the
// table), hints_profile (TOML), hints_merge (precedence and derived defaults), hints_translate
// (what each setting becomes in the MPI-IO layer underneath) and hints_report; the platform
// (which layer, the MPI_Info every rank passes) in src/mpiio.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <memory>
#include <set>
#include <string>

#include "hints/node_map.hpp"
#include "layout/layout_facts.hpp"
#include "nwpio/hint_options.hpp"
#include "nwpio/options.hpp"

namespace nwpio::detail {

// What a stream's hints resolve to once, when the stream is opened: the levels merged (defaults,
// profile file, namelist, API, environment: the one place nwpio's hints read the environment),
// checked, and the MPI-IO implementation detected. Rank 0 holds it; the other ranks hold an
// empty plan. Only what depends on a file's size is derived later, per file (HintSession).
class HintPlan {
 public:
  // Collective: rank 0 reads the environment and the profile file and detects MPI-IO; every
  // rank throws the same Error(Config / Io) for a bad profile, NWPIO_HINTS or value. Warnings
  // (keys nobody reads) are printed here, once per stream.
  static HintPlan resolve(const HintOptions& options, MPI_Comm comm);
  HintPlan();
  ~HintPlan();
  HintPlan(const HintPlan&);
  HintPlan& operator=(const HintPlan&);
  HintPlan(HintPlan&&) noexcept;
  HintPlan& operator=(HintPlan&&) noexcept;

 private:
  friend class HintSession;
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

class HintSession {
 public:
  // Collective, per file: derives what depends on the file's size from `plan` and translates
  // for the detected MPI-IO; the keys are broadcast so that every rank passes identical values
  // (ROMIO requires it). `uses_mpiio` false: nothing is passed (serial netCDF, no file), and
  // the report says so. `contiguous_writers`: the frame is rearranged into contiguous slabs per
  // writer (derived default collective_write = false).
  // `io_form` names the stream's io_form in the report. `placement`: whether this rank is one of
  // the stream's writers (and the test hook's node size): every rank's is gathered on rank 0
  // (hints::gather_node_map) for the report's per-node part and for aggregators_per_node.
  static HintSession for_file(const HintPlan& plan, MPI_Comm comm, IoForm io_form, bool uses_mpiio,
                              std::int64_t expected_file_bytes, bool contiguous_writers,
                              const hints::NodePlacement& placement = {});
  // Both steps at once, for tools and tests that open one file through MPI-IO.
  static HintSession resolve(const HintOptions& options, IoForm io_form, MPI_Comm comm,
                             std::int64_t expected_file_bytes, bool contiguous_writers = false);
  HintSession();
  ~HintSession();
  HintSession(HintSession&&) noexcept;
  HintSession& operator=(HintSession&&) noexcept;

  MPI_Info info() const noexcept;  // MPI_INFO_NULL when nothing is set; owned by this HintSession
  // The same on every rank: what was passed turns collective buffering off and leaves
  // independent I/O allowed, so a writer's contiguous slab may go out as an independent write
  // (io_form 11's write-behind; its wait is then local). False when nothing goes to MPI-IO.
  bool independent_writes() const noexcept;

  // Optional: the record variables of the file, so that record_align can be verified.
  void set_record_variables(std::set<std::string> names);

  // After create(): checks what took effect. Not collective. On rank 0 (which holds the facts
  // from the backend) returns the full report as JSON text and prints it to stderr as the
  // resolved HintReport asks (one summary line, the full table, or nothing); other ranks return
  // a stub object. `file` is the path that was opened (statfs and the Lustre layout are read
  // from it); `final_name` the name the complete file gets (what the report names).
  // `write_behind_asked`: the stream would write its slabs behind the model (write_behind, writers
  // holding contiguous slabs): the report says whether these hints allow it, and if not, which
  // setting stops it. `options`: the stream's hint options as they are now (how much to print:
  // hints::report_level).
  std::string verify_and_report(const std::string& file, const LayoutFacts& facts,
                                const std::string& final_name = {}, bool write_behind_asked = false,
                                const HintOptions& options = {});

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace nwpio::detail
