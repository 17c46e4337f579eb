// The hints of one file open: resolved from defaults < profile < namelist < API < environment,
// turned into MPI_Info for MPI-IO / PnetCDF, then verified against the file's real layout and
// reported. Owned by the hints work (issue 4); the Writer uses exactly this interface.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <memory>
#include <string>

#include "backend/backend.hpp"
#include "nwpio/hint_options.hpp"

namespace nwpio::detail {

class HintSession {
 public:
  // Collective: rank 0 reads profile files and the environment, then broadcasts.
  // `expected_file_bytes` lets derived defaults pick a stripe count by file size class.
  static HintSession resolve(const HintOptions& options, IoForm io_form, MPI_Comm comm,
                             std::int64_t expected_file_bytes);
  HintSession();
  ~HintSession();
  HintSession(HintSession&&) noexcept;
  HintSession& operator=(HintSession&&) noexcept;

  MPI_Info info() const noexcept;  // MPI_INFO_NULL when nothing is set
  // After create(): checks what took effect (rank 0: facts from the backend). Returns the
  // report as JSON text; rank 0 also logs it in human-readable form.
  std::string verify_and_report(const std::string& file, const LayoutFacts& facts);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace nwpio::detail
