// memory_room.hpp: the cgroup's files found through /proc/self/cgroup and /proc/self/mounts.
#include "util/memory_room.hpp"

#include <fstream>
#include <optional>
#include <sstream>
#include <string_view>
#include <vector>

namespace nwpio::detail {

namespace {

// A number in a cgroup file ("max" and absurd sizes -- cgroup v1's "no limit" is 2^63 rounded
// to a page -- are no limit).
std::optional<std::int64_t> read_bytes(const std::string& path) {
  std::ifstream in(path);
  std::string word;
  if (!(in >> word) || word == "max") return std::nullopt;
  try {
    const long long v = std::stoll(word);
    if (v <= 0 || v >= (std::int64_t{1} << 60)) return std::nullopt;
    return v;
  } catch (...) {
    return std::nullopt;
  }
}

struct Mount {
  std::string point, type, options;
};

std::vector<Mount> cgroup_mounts() {
  std::vector<Mount> out;
  std::ifstream in("/proc/self/mounts");
  for (std::string line; std::getline(in, line);) {
    std::istringstream fields(line);
    Mount m;
    std::string device;
    if (!(fields >> device >> m.point >> m.type >> m.options)) continue;
    if (m.type == "cgroup2" || m.type == "cgroup") out.push_back(m);
  }
  return out;
}

bool has_option(const std::string& options, std::string_view name) {
  std::istringstream in(options);
  for (std::string o; std::getline(in, o, ',');) {
    if (o == name) return true;
  }
  return false;
}

// This process's cgroup path for the v2 hierarchy ("0::/...") or a v1 controller ("4:memory:/...").
std::optional<std::string> cgroup_path(bool v2) {
  std::ifstream in("/proc/self/cgroup");
  for (std::string line; std::getline(in, line);) {
    const auto a = line.find(':'), b = line.find(':', a + 1);
    if (a == std::string::npos || b == std::string::npos) continue;
    const std::string controllers = line.substr(a + 1, b - a - 1);
    if (v2 ? controllers.empty() : has_option(controllers, "memory")) return line.substr(b + 1);
  }
  return std::nullopt;
}

// A key's value in a cgroup's memory.stat (0 when absent).
std::int64_t stat_value(const std::string& path, std::string_view key) {
  std::ifstream in(path);
  std::string k;
  long long v = 0;
  while (in >> k >> v) {
    if (k == key) return v;
  }
  return 0;
}

// The cgroup's usage less its page cache that the kernel reclaims before it kills (files read
// and written: a run that wrote files would otherwise look full); shared memory (the writers'
// slabs live in /dev/shm) stays counted.
std::int64_t held_bytes(const std::string& dir, const char* usage_file, bool v2) {
  const std::int64_t usage = read_bytes(dir + "/" + usage_file).value_or(0);
  const std::string stat = dir + "/memory.stat";
  const std::int64_t cache = stat_value(stat, v2 ? "file" : "total_cache");
  const std::int64_t shmem = stat_value(stat, v2 ? "shmem" : "total_shmem");
  const std::int64_t reclaimable = cache > shmem ? cache - shmem : 0;
  return usage > reclaimable ? usage - reclaimable : 0;
}

// The tightest limit from `dir` up to `root`, less what the cgroup holding it uses.
void consider_cgroup(const std::string& root, const std::string& path, const char* limit_file, const char* usage_file,
                     MemoryRoom& room) {
  const bool v2 = std::string_view(limit_file) == "memory.max";
  std::string p = path;
  while (true) {
    const std::string dir = root + (p == "/" ? "" : p);
    if (const auto limit = read_bytes(dir + "/" + limit_file)) {
      const std::int64_t used = held_bytes(dir, usage_file, v2);
      const std::int64_t left = *limit > used ? *limit - used : 0;
      if (room.available < 0 || left < room.available) {
        room = {left, *limit, used, dir + "/" + limit_file};
      }
    }
    if (p.empty() || p == "/") break;
    const auto slash = p.find_last_of('/');
    p = slash == 0 ? "/" : p.substr(0, slash);
  }
}

}  // namespace

MemoryRoom memory_room() noexcept {
  MemoryRoom room;
  try {
    for (const Mount& m : cgroup_mounts()) {
      if (m.type == "cgroup2") {
        if (const auto p = cgroup_path(true)) consider_cgroup(m.point, *p, "memory.max", "memory.current", room);
      } else if (has_option(m.options, "memory")) {
        if (const auto p = cgroup_path(false)) {
          consider_cgroup(m.point, *p, "memory.limit_in_bytes", "memory.usage_in_bytes", room);
        }
      }
    }
    std::ifstream in("/proc/meminfo");
    std::int64_t total = -1, available = -1;
    for (std::string key; in >> key;) {
      long long kib = 0;
      in >> kib;
      if (key == "MemTotal:") total = kib * 1024;
      if (key == "MemAvailable:") available = kib * 1024;
      in.ignore(64, '\n');
    }
    if (available >= 0 && (room.available < 0 || available < room.available)) {
      room = {available, total, total - available, "/proc/meminfo MemAvailable"};
    }
  } catch (...) {
  }
  return room;
}

}  // namespace nwpio::detail
