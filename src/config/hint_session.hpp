// The hints of one file open: resolved from defaults < profile < namelist < API < environment,
// turned into MPI_Info for MPI-IO / PnetCDF, then verified against the file's real layout and
// reported. Owned by the hints work (issue 4); the Writer uses exactly this interface.
// The parts live in hints_settings (the table), hints_profile (TOML), hints_merge
// (precedence and derived defaults), hints_mpiio (detection, translation) and hints_report.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <memory>
#include <set>
#include <string>

#include "backend/backend.hpp"
#include "nwpio/hint_options.hpp"

namespace nwpio::detail {

class HintSession {
 public:
  // Collective: rank 0 reads the environment (the one place nwpio's hints read it), the
  // profile file, detects the MPI-IO implementation and translates; the resulting keys are
  // broadcast so that every rank passes identical values (ROMIO requires it). Every rank
  // throws the same Error(Config / Io) for a bad profile or value.
  // `expected_file_bytes` lets derived defaults pick a stripe count by file size class.
  // `contiguous_writers`: the frame is rearranged into contiguous slabs per writer (derived
  // default collective_write = false).
  static HintSession resolve(const HintOptions& options, IoForm io_form, MPI_Comm comm,
                             std::int64_t expected_file_bytes, bool contiguous_writers = false);
  HintSession();
  ~HintSession();
  HintSession(HintSession&&) noexcept;
  HintSession& operator=(HintSession&&) noexcept;

  MPI_Info info() const noexcept;  // MPI_INFO_NULL when nothing is set; owned by the session

  // Optional: the record variables of the file, so that record_align can be verified.
  void set_record_variables(std::set<std::string> names);

  // After create(): checks what took effect. Not collective. On rank 0 (which holds the facts
  // from the backend) returns the full report as JSON text and prints it to stderr as the
  // resolved HintReport asks (one summary line, the full table, or nothing); other ranks return
  // a stub object. `file` is the path that was opened (statfs and the Lustre layout are read
  // from it); `final_name` the name the complete file gets (what the report names).
  std::string verify_and_report(const std::string& file, const LayoutFacts& facts,
                                const std::string& final_name = {});

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace nwpio::detail
