// How much memory this process's job may still take on its node, and where that limit comes
// from: the memory cgroup the process runs in (a Slurm job's, a container's), else the whole
// machine's MemAvailable. Read when a stream is built, to refuse a run that cannot fit with the
// numbers, instead of leaving it to the kernel's OOM killer (no message at all) or to a bare
// std::bad_alloc.
#pragma once

#include <cstdint>
#include <string>

namespace nwpio::detail {

struct MemoryRoom {
  std::int64_t available = -1;  // bytes the job may still take on this node; -1: not known
  std::int64_t limit = -1;      // the limit itself (cgroup) or the machine's MemTotal
  std::int64_t used = 0;        // what counts against the limit now
  std::string source;           // where the numbers come from: a file's path and its key
};

// The tightest of: the cgroup v2 memory.max of this process's cgroup and its ancestors (less its
// memory.current), the cgroup v1 memory controller's memory.limit_in_bytes (less
// memory.usage_in_bytes), and /proc/meminfo's MemAvailable. Linux; never throws.
MemoryRoom memory_room() noexcept;

}  // namespace nwpio::detail
