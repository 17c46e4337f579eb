// RssProbe: VmRSS / VmHWM from /proc/self/status, the reset through /proc/self/clear_refs, and
// getrusage (see memory.hpp).
#include "memory.hpp"

#include <sys/resource.h>

#include <cstdio>
#include <cstring>

namespace nwpio::bench {
namespace {

std::int64_t file_kib(const char* path, const char* key) noexcept {
  std::FILE* f = std::fopen(path, "r");
  if (!f) return 0;
  char line[256];
  std::int64_t kib = 0;
  const std::size_t n = std::strlen(key);
  while (std::fgets(line, sizeof line, f)) {
    if (std::strncmp(line, key, n) == 0 && line[n] == ':') {
      long long v = 0;
      if (std::sscanf(line + n + 1, "%lld", &v) == 1) kib = v;
      break;
    }
  }
  std::fclose(f);
  return kib * 1024;
}

std::int64_t status_kib(const char* key) noexcept { return file_kib("/proc/self/status", key); }

}  // namespace

bool RssProbe::reset_peak() noexcept {
  std::FILE* f = std::fopen("/proc/self/clear_refs", "w");
  if (!f) return false;
  const bool ok = std::fputs("5", f) >= 0;
  return std::fclose(f) == 0 && ok;
}

std::int64_t RssProbe::current_bytes() noexcept { return status_kib("VmRSS"); }
std::int64_t RssProbe::peak_bytes() noexcept { return status_kib("VmHWM"); }
std::int64_t RssProbe::shared_bytes() noexcept { return status_kib("RssShmem"); }
std::int64_t RssProbe::proportional_bytes() noexcept { return file_kib("/proc/self/smaps_rollup", "Pss"); }

std::int64_t RssProbe::process_max_bytes() noexcept {
  struct rusage ru{};
  if (getrusage(RUSAGE_SELF, &ru) != 0) return 0;
  return static_cast<std::int64_t>(ru.ru_maxrss) * 1024;
}

}  // namespace nwpio::bench
