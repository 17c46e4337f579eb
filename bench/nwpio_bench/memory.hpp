// Resident memory of this process, for peak RSS per method.
//
// getrusage's ru_maxrss is the process's high-water mark since it started: it never goes down,
// so after the first method it says nothing about the next one. Linux lets a process reset its
// own high-water mark (writing "5" to /proc/self/clear_refs resets VmHWM to the current RSS,
// Linux >= 4.0). nwpio-bench resets it before each method's set-up and reads VmHWM after the
// method's timed frame: that is the peak of this process WHILE that method ran, including
// what was resident before (the model's fields, MPI). Where the reset is not possible the
// process maximum from getrusage is reported instead and marked as such.
#pragma once

#include <cstdint>

namespace nwpio::bench {

struct RssProbe {
  // Tries to reset the high-water mark; false when /proc/self/clear_refs cannot be written.
  static bool reset_peak() noexcept;
  static std::int64_t current_bytes() noexcept;    // VmRSS, 0 if unknown
  static std::int64_t peak_bytes() noexcept;       // VmHWM, 0 if unknown
  static std::int64_t shared_bytes() noexcept;     // RssShmem: shared memory pages in VmRSS
  // Pss (smaps_rollup): the RSS with every shared page divided among the processes mapping it,
  // so that the ranks of a node add up to the node's memory. Current value, not a peak.
  static std::int64_t proportional_bytes() noexcept;
  static std::int64_t process_max_bytes() noexcept;  // getrusage ru_maxrss (KiB -> bytes)
};

}  // namespace nwpio::bench
