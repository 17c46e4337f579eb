// A history stream that cannot fit in the job's memory is refused when it is built, on every
// rank, with the numbers: what its ranks on the node need, the limit and where the limit comes
// from (the memory cgroup, as a Slurm job's). Without the check the writers' slabs are touched at
// open and the kernel kills the job without a word.
//
// The ranks join a memory cgroup of their own (cgroup v1's memory controller, or v2 where the
// root delegates it) after the model's arrays exist, so only what nwpio takes counts against its
// limit. Needs root; where no such cgroup can be made the test says so and skips.
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <string>

#include "reliability_support.hpp"

namespace nwpio::test::rel {
namespace {

namespace fs = std::filesystem;

bool write_text(const std::string& path, const std::string& text) {
  std::ofstream out(path);
  out << text;
  out.flush();
  return static_cast<bool>(out);
}

std::string line_with(const std::string& path, const std::string& marker) {
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    if (line.find(marker) != std::string::npos) return line.substr(line.find(marker) + marker.size());
  }
  return {};
}

// A memory cgroup made by rank 0 with `limit` bytes; every rank joins it and goes back to the
// cgroup it came from at the end; rank 0 removes it.
class MemoryCgroup {
 public:
  explicit MemoryCgroup(std::int64_t limit) {
    int ok = 0;
    if (my_rank() == 0) ok = make(limit) ? 1 : 0;
    MPI_Bcast(&ok, 1, MPI_INT, 0, world());
    if (!ok) return;
    char buf[512] = {};
    if (my_rank() == 0) std::snprintf(buf, sizeof buf, "%s|%s", dir_.c_str(), limit_file_.c_str());
    MPI_Bcast(buf, sizeof buf, MPI_CHAR, 0, world());
    const std::string both(buf);
    dir_ = both.substr(0, both.find('|'));
    limit_file_ = both.substr(both.find('|') + 1);
    base_ = fs::path(dir_).parent_path().string();
    home_ = home_of();
    int joined = write_text(dir_ + "/cgroup.procs", std::to_string(::getpid())) ? 1 : 0;
    MPI_Allreduce(MPI_IN_PLACE, &joined, 1, MPI_INT, MPI_MIN, world());
    joined_ = joined == 1;
  }
  ~MemoryCgroup() {
    if (!home_.empty()) write_text(home_ + "/cgroup.procs", std::to_string(::getpid()));
    MPI_Barrier(world());
    if (my_rank() == 0 && !dir_.empty() && ::rmdir(dir_.c_str()) != 0) {
      ADD_FAILURE() << "cannot remove " << dir_ << ": " << std::strerror(errno);
    }
  }
  bool joined() const { return joined_; }
  std::string limit_file() const { return dir_ + "/" + limit_file_; }

 private:
  // cgroup v1's memory hierarchy, else v2's unified one where it offers the memory controller.
  bool make(std::int64_t limit) {
    const std::string name = "/nwpio-memory-test-" + std::to_string(::getpid());
    if (fs::exists("/sys/fs/cgroup/memory/memory.limit_in_bytes")) {
      base_ = "/sys/fs/cgroup/memory";
      limit_file_ = "memory.limit_in_bytes";
    } else if (line_with("/sys/fs/cgroup/cgroup.subtree_control", "").find("memory") != std::string::npos) {
      base_ = "/sys/fs/cgroup";
      limit_file_ = "memory.max";
    } else {
      return false;
    }
    dir_ = base_ + name;
    if (::mkdir(dir_.c_str(), 0755) != 0) return false;
    if (!write_text(dir_ + "/" + limit_file_, std::to_string(limit))) {
      ::rmdir(dir_.c_str());
      return false;
    }
    return true;
  }
  // This process's cgroup in the same hierarchy (v1: the memory line; v2: the "0::" line).
  std::string home_of() const {
    const bool v1 = limit_file_ == "memory.limit_in_bytes";
    std::ifstream in("/proc/self/cgroup");
    for (std::string line; std::getline(in, line);) {
      const auto a = line.find(':'), b = line.find(':', a + 1);
      const std::string controllers = line.substr(a + 1, b - a - 1);
      if (v1 ? controllers == "memory" : controllers.empty()) return base_ + line.substr(b + 1);
    }
    return {};
  }
  std::string base_, dir_, limit_file_, home_;
  bool joined_ = false;
};

TEST(MemoryLimit, StreamThatCannotFitIsRefusedAtOpen) {
  const std::string dir = fresh_dir("memory_limit");
  // About 15 MB per 3-D field, a frame of about 90 MB: the writers' slabs on this node hold it all.
  ModelShape shape;
  shape.e_we = 301;
  shape.e_sn = 301;
  shape.e_vert = 41;
  Model model(world(), shape);
  model.fill(0);
  constexpr std::int64_t kLimit = std::int64_t{24} << 20;
  MemoryCgroup cgroup(kLimit);
  if (!cgroup.joined()) GTEST_SKIP() << "no memory cgroup can be made here (needs root and a memory controller)";
  const auto e = expect_same_error([&] {
    Writer w(model.decomposition(), model.schema(), options_for(dir));
    write_frame(w, model, 0);
    w.close();
  });
  ASSERT_TRUE(e.has_value());
  const std::string text = e->what();
  if (my_rank() == 0) std::cout << "  every rank got: " << text << std::endl;
  EXPECT_EQ(e->kind(), ErrorKind::Config) << text;
  EXPECT_TRUE(contains(text, "not enough memory on ")) << text;
  EXPECT_TRUE(contains(text, "for the history stream's staging of a frame")) << text;
  EXPECT_TRUE(contains(text, "limit 24 MiB")) << text;
  EXPECT_TRUE(contains(text, cgroup.limit_file())) << text;
  MPI_Barrier(world());
  if (my_rank() == 0) {
    for (const auto& entry : fs::directory_iterator(dir)) ADD_FAILURE() << "written before the refusal: " << entry.path();
  }
}

}  // namespace
}  // namespace nwpio::test::rel
