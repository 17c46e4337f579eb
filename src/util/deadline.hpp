// A time limit on a step that must not wait forever: a collective open or close of a file.
//
// nwpio agrees on every outcome it sees, but a hang inside a library never returns for it to
// see: Open MPI 4.1's OMPIO waits forever inside MPI_File_open when a rank's own open fails
// after rank 0 created the file (a file system failing under some nodes only). A job stuck there
// burns its allocation until the scheduler's time limit, with no word in its log. A Deadline
// turns that into an end with a message: when the step has not returned after its limit, the
// message goes to standard error and the process ends with status 124 (as timeout(1)), which
// makes mpirun or srun end the job's other processes.
//
// One watchdog thread per process keeps every live Deadline's expiry; it makes no MPI call and
// touches nothing of the step it watches. It starts with the first Deadline that has a limit.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>

namespace nwpio::detail {

class Deadline {
 public:
  // What happens at expiry; by default end_process(message). Tests pass their own.
  using Expired = std::function<void(const std::string& message)>;

  // Local. `limit` 0: no limit (nothing is watched). `message`: the whole text printed at
  // expiry.
  Deadline(std::chrono::seconds limit, std::string message, Expired on_expiry = nullptr);
  ~Deadline();
  Deadline(const Deadline&) = delete;
  Deadline& operator=(const Deadline&) = delete;

 private:
  std::uint64_t id_ = 0;  // 0: not watched
};

// Writes `message` and a newline to standard error and ends the process with status 124,
// without running exit handlers (MPI's would wait for the ranks the step waits for).
[[noreturn]] void end_process(const std::string& message) noexcept;

}  // namespace nwpio::detail
