// Failures on an I/O server reach the compute ranks: a server that fails in open, write or
// close (fault injection on one server, armed to hit the second file), an output directory
// that went away, a file-size limit (EFBIG) and a full file system (ENOSPC) on the servers.
// Every compute rank must get the same Error at one of its next calls (begin_frame, end_frame
// or close), naming the file and the cause, each call returning within kQuick (a hang hits the
// ctest TIMEOUT); the files finished before stay complete and exact, nothing incomplete takes
// a final name, and the servers still stop cleanly afterwards.
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <iostream>
#include <thread>

#include "core/test_hooks.hpp"
#include "file_check.hpp"
#include "servers_test_support.hpp"
#include "temp_paths.hpp"

namespace nwpio::test::servers {
namespace {

namespace fs = std::filesystem;
using detail::FaultPhase;

constexpr double kQuick = 20.0;  // seconds a failing call may take (the ctest TIMEOUT is larger)

// One server group: two servers from 3 world ranks on, one below.
int tasks_for_world() { return world_size() >= 3 ? 2 : 1; }

// Writes frames 0..frames-1 and closes, timing every call; the first Error ends it. `failed_in`
// says which call threw.
void run_frames(Writer& w, Model& m, int frames, std::string* failed_in = nullptr) {
  const auto timed = [&](const std::string& what, const std::function<void()>& call) {
    const auto t0 = std::chrono::steady_clock::now();
    try {
      call();
    } catch (...) {
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      EXPECT_LT(s, kQuick) << "the failing call took " << s << " s";
      if (failed_in) *failed_in = what;
      throw;
    }
  };
  for (int t = 0; t < frames; ++t) {
    m.fill(t);
    timed("begin_frame", [&] { w.begin_frame(date_at(t)); });
    m.put_all([&](const std::string& n, const void* p, DataType ty) { w.put(n, p, ty); });
    timed("end_frame", [&] { w.end_frame(); });
  }
  timed("close", [&] { w.close(); });
}

void close_quietly(Writer& w) {
  try {
    w.close();
  } catch (const Error&) {
  }
}

// Compute rank 0: `path` complete and exact (nwpio-check, ncvalidator, every value by netCDF-C).
void expect_complete(const std::string& path, const std::vector<int>& frames, const Model& m, const ModelShape& shape) {
  const auto verdict = check::check_file(path);
  EXPECT_EQ(verdict.verdict, check::Verdict::Ok) << verdict.line;
  EXPECT_TRUE(ncvalidator_ok(path)) << path;
  std::vector<std::string> dates;
  for (int t : frames) dates.push_back(date_at(t));
  check_file({path, frames, dates}, m.schema(), shape, NC_FORMAT_64BIT_OFFSET);
}

// Compute rank 0: nothing incomplete carries a final name in `dir`.
void expect_no_incomplete_final_file(const std::string& dir) {
  for (const auto& e : fs::directory_iterator(dir)) {
    if (!e.is_regular_file()) continue;
    const std::string p = e.path().string();
    const auto verdict = check::check_file(p);
    EXPECT_FALSE(p.ends_with(".nwpio-tmp")) << "a temporary file outside the private folder: " << p;
    EXPECT_EQ(verdict.verdict, check::Verdict::Ok) << verdict.line;
  }
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(test::private_dir_of(dir), ec)) {
    const std::string p = e.path().string();
    if (p.ends_with(".nwpio-tmp")) {
      EXPECT_EQ(check::check_file(p).verdict, check::Verdict::Temporary) << p;
    }
  }
}

struct FaultCase {
  FaultPhase phase;
  bool last_server;  // the failing server: the group's last, else its first
};

class ServerFault : public ::testing::TestWithParam<FaultCase> {};

TEST_P(ServerFault, EveryComputeRankGetsTheServersErrorEarlierFilesIntact) {
  const FaultCase c = GetParam();
  const int tasks = tasks_for_world();
  const int failing = c.last_server ? tasks - 1 : 0;
  const std::string dir = server_dir(std::string("fault_") + std::string(detail::to_string(c.phase)) + "_" +
                                    std::to_string(failing));
  // The second file fails: its open, its first frame's write, or its close.
  auto hooks = std::make_shared<detail::TestHooks>();
  hooks->faults.arm(c.phase, failing, ErrorKind::Io, c.phase == FaultPhase::EndFrame ? 2 : 1);
  IoServers servers(MPI_COMM_WORLD, tasks, 1, hooks);
  if (servers.is_server()) return;
  const MPI_Comm comm = servers.compute_comm();
  ModelShape shape;
  Model model(comm, shape);
  OutputOptions o = options_for(dir);
  o.frames_per_file = 2;
  Writer w = build_stream(comm, model, o, &servers);
  std::string failed_in;
  const auto e = expect_same_error([&] { run_frames(w, model, 6, &failed_in); }, comm);
  ASSERT_TRUE(e.has_value());
  const std::string want = "injected fault at " + std::string(detail::to_string(c.phase)) + " on rank " + std::to_string(failing);
  EXPECT_TRUE(contains(e->what(), want)) << e->what();
  EXPECT_TRUE(contains(e->what(), "I/O server group 0")) << e->what();
  if (rank_of(comm) == 0) std::cout << "  every compute rank got, in " << failed_in << ": " << e->what() << std::endl;
  // Once reported, the stream refuses further frames on every rank (after close(): closed).
  const auto again = expect_same_error([&] { w.begin_frame(date_at(6)); }, comm);
  if (again) {
    EXPECT_TRUE(contains(again->what(), failed_in == "close" ? "ends at close()" : "failed on its I/O servers earlier"))
        << again->what();
  }
  close_quietly(w);
  servers.stop();
  if (rank_of(comm) != 0) return;
  expect_complete(file_at(dir, 0), {0, 1}, model, shape);
  EXPECT_FALSE(fs::exists(file_at(dir, 2))) << "the failed file took its final name";
  expect_no_incomplete_final_file(dir);
}

INSTANTIATE_TEST_SUITE_P(Phases, ServerFault,
                         ::testing::Values(FaultCase{FaultPhase::Open, false}, FaultCase{FaultPhase::Open, true},
                                           FaultCase{FaultPhase::EndFrame, false}, FaultCase{FaultPhase::EndFrame, true},
                                           FaultCase{FaultPhase::Close, false}, FaultCase{FaultPhase::Close, true}),
                         [](const ::testing::TestParamInfo<FaultCase>& i) {
                           return std::string(detail::to_string(i.param.phase)) + (i.param.last_server ? "_last" : "_first");
                         });

// The output directory moves away after the first file: the servers cannot create the second.
TEST(ServerFailure, DirectoryGoneReachesEveryComputeRank) {
  const std::string dir = server_dir("dir_gone");
  const std::string moved = dir + ".moved";
  IoServers servers(MPI_COMM_WORLD, tasks_for_world(), 1);
  if (servers.is_server()) return;
  const MPI_Comm comm = servers.compute_comm();
  ModelShape shape;
  Model model(comm, shape);
  OutputOptions o = options_for(dir);
  o.frames_per_file = 2;
  Writer w = build_stream(comm, model, o, &servers);
  write_frame(w, model, 0);
  write_frame(w, model, 1);
  // The servers commit the first file on their own time: wait for it (bounded), then move the
  // directory away.
  int committed = 0;
  if (rank_of(comm) == 0) {
    for (int i = 0; i < 600 && !fs::exists(file_at(dir, 0)); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    committed = fs::exists(file_at(dir, 0)) ? 1 : 0;
    std::error_code ec;
    fs::remove_all(moved, ec);
    if (committed) fs::rename(dir, moved);
  }
  MPI_Bcast(&committed, 1, MPI_INT, 0, comm);
  ASSERT_TRUE(committed) << "the servers did not commit the first file within 30 s";
  const auto e = expect_same_error([&] {
    for (int t = 2; t < 6; ++t) write_frame(w, model, t);
    w.close();
  }, comm);
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(e->kind(), ErrorKind::Io) << e->what();
  EXPECT_TRUE(contains(e->what(), fs::path(file_at(dir, 2)).filename().string())) << e->what();
  EXPECT_TRUE(contains(e->what(), "No such file or directory")) << e->what();
  close_quietly(w);
  servers.stop();
  if (rank_of(comm) == 0) expect_complete(file_at(moved, 0), {0, 1}, model, shape);
}

// Size of a file with `frames` frames of the test model (written by all ranks, before a split).
// `blocks`: the bytes of disk blocks the file takes (its unused header space is a hole), else its length.
std::int64_t file_bytes(int frames, const std::string& name, bool blocks = false) {
  const std::string dir = server_dir(name);
  ModelShape shape;
  Model model(MPI_COMM_WORLD, shape);
  OutputOptions o = options_for(dir);
  o.frames_per_file = frames;
  {
    Writer w = build_stream(MPI_COMM_WORLD, model, o, nullptr);
    for (int t = 0; t < frames; ++t) write_frame(w, model, t);
    w.close();
  }
  std::int64_t size = 0;
  struct stat st {};
  if (rank_of(MPI_COMM_WORLD) == 0 && ::stat(file_at(dir, 0).c_str(), &st) == 0) {
    size = blocks ? static_cast<std::int64_t>(st.st_blocks) * 512 : static_cast<std::int64_t>(st.st_size);
  }
  MPI_Bcast(&size, 1, MPI_INT64_T, 0, MPI_COMM_WORLD);
  return size;
}

// A file-size limit on the server processes only: the second frame of the file passes it.
TEST(ServerFailure, FileSizeLimitOnTheServersGivesEfbig) {
  const std::int64_t one = file_bytes(1, "efbig_probe1"), two = file_bytes(2, "efbig_probe2");
  const std::string dir = server_dir("efbig");
  const int tasks = tasks_for_world();
  const bool server_rank = rank_of(MPI_COMM_WORLD) >= world_size() - tasks;
  rlimit old{};
  auto* old_handler = SIG_DFL;
  if (server_rank) {  // (no ASSERT before the collective split: a rank that left would hang the others)
    EXPECT_EQ(::getrlimit(RLIMIT_FSIZE, &old), 0);
    old_handler = std::signal(SIGXFSZ, SIG_IGN);
    rlimit limited = old;
    limited.rlim_cur = static_cast<rlim_t>(one + (two - one) / 2);
    EXPECT_EQ(::setrlimit(RLIMIT_FSIZE, &limited), 0);
  }
  IoServers servers(MPI_COMM_WORLD, tasks, 1);
  if (servers.is_server()) {
    ::setrlimit(RLIMIT_FSIZE, &old);
    std::signal(SIGXFSZ, old_handler);
    return;
  }
  const MPI_Comm comm = servers.compute_comm();
  ModelShape shape;
  Model model(comm, shape);
  OutputOptions o = options_for(dir);
  o.frames_per_file = 2;
  // The limit holds for every file of the server processes, Open MPI's shared-memory backing
  // file of the servers' slabs too: each server its own "node" keeps that file at one slab.
  o.shared_memory_exchange = false;
  Writer w = build_stream(comm, model, o, &servers);
  const auto e = expect_same_error([&] { run_frames(w, model, 4); }, comm);
  ASSERT_TRUE(e.has_value());
  EXPECT_TRUE(contains(e->what(), fs::path(file_at(dir, 0)).filename().string())) << e->what();
  EXPECT_TRUE(contains(e->what(), "File too large")) << e->what();
  close_quietly(w);
  servers.stop();
  // The refused frame wrote nothing: at close the servers commit the file with frame 0 alone.
  if (rank_of(comm) == 0) {
    expect_complete(file_at(dir, 0), {0}, model, shape);
    expect_no_incomplete_final_file(dir);
  }
}

// A full file system (tmpfs of one and a half files): the first file fits, the second cannot.
TEST(ServerFailure, FullFileSystemGivesEnospc) {
  const std::int64_t one = file_bytes(1, "enospc_probe", true);
  const std::string dir = server_dir("enospc");
  const std::string mnt = dir + "/small_fs";
  int err = 0;
  if (rank_of(MPI_COMM_WORLD) == 0) {
    fs::create_directories(mnt);
    const std::string opts = "size=" + std::to_string(one + one / 2);
    if (::mount("tmpfs", mnt.c_str(), "tmpfs", 0, opts.c_str()) != 0) err = errno;
  }
  MPI_Bcast(&err, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (err != 0) GTEST_SKIP() << "the sandbox refuses a tmpfs mount (" << std::strerror(err) << ")";
  {
    IoServers servers(MPI_COMM_WORLD, tasks_for_world(), 1);
    if (!servers.is_server()) {
      const MPI_Comm comm = servers.compute_comm();
      ModelShape shape;
      Model model(comm, shape);
      Writer w = build_stream(comm, model, options_for(mnt), &servers);
      const auto e = expect_same_error([&] { run_frames(w, model, 3); }, comm);
      if (e) {
        EXPECT_TRUE(contains(e->what(), fs::path(file_at(mnt, 1)).filename().string())) << e->what();
        // The MPI-IO layer's words, or PnetCDF's NC_ENOSPC where its GIO driver (1.14+) wrote.
        EXPECT_TRUE(contains(e->what(), "No space left on device") || contains(e->what(), "Not enough space")) << e->what();
      }
      close_quietly(w);
      servers.stop();
      if (rank_of(comm) == 0) {
        expect_complete(file_at(mnt, 0), {0}, model, shape);
        EXPECT_FALSE(fs::exists(file_at(mnt, 1)));
        expect_no_incomplete_final_file(mnt);
      }
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank_of(MPI_COMM_WORLD) == 0 && ::umount(mnt.c_str()) != 0) ::umount2(mnt.c_str(), MNT_DETACH);
}

// stop() with a stream still open is an error on every compute rank; afterwards it works.
TEST(ServerShutdown, StopWithAnOpenStreamIsAnError) {
  const std::string dir = server_dir("stop_open");
  IoServers servers(MPI_COMM_WORLD, 1, 1);
  if (servers.is_server()) return;
  const MPI_Comm comm = servers.compute_comm();
  ModelShape shape;
  Model model(comm, shape);
  Writer w = build_stream(comm, model, options_for(dir), &servers);
  write_frame(w, model, 0);
  const auto e = expect_same_error([&] { servers.stop(); }, comm);
  if (e) {
    EXPECT_TRUE(contains(e->what(), "still open")) << e->what();
  }
  w.close();
  servers.stop();
  if (rank_of(comm) == 0) expect_complete(file_at(dir, 0), {0}, model, shape);
}

// A stream left behind by an exception (its Writer destroyed while unwinding: no collective,
// nothing more sent) and servers left to their destructor: the servers close the stream when
// they stop (its frames are complete, so its file is committed) and every rank gets out.
TEST(ServerShutdown, AbandonedStreamAndDestructorsEndCleanly) {
  const std::string dir = server_dir("abandoned");
  {
    IoServers servers(MPI_COMM_WORLD, 1, 1);
    if (!servers.is_server()) {
      const MPI_Comm comm = servers.compute_comm();
      ModelShape shape;
      Model model(comm, shape);
      OutputOptions o = options_for(dir);
      o.frames_per_file = 2;
      try {
        Writer w = build_stream(comm, model, o, &servers);
        for (int t = 0; t < 3; ++t) write_frame(w, model, t);
        throw std::runtime_error("the model failed");
      } catch (const std::runtime_error&) {
      }
      // (no stop(): the destructor stops the servers; the files are checked after that)
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank_of(MPI_COMM_WORLD) == 0) {
    ModelShape shape;
    const Schema schema = make_test_schema(shape);
    for (int first : {0, 2}) {
      ExpectedFile f{file_at(dir, first), {}, {}};
      for (int t = first; t < std::min(3, first + 2); ++t) {
        f.frames.push_back(t);
        f.dates.push_back(date_at(t));
      }
      ASSERT_TRUE(fs::exists(f.path)) << f.path;
      check_file(f, schema, shape, NC_FORMAT_64BIT_OFFSET);
      EXPECT_TRUE(ncvalidator_ok(f.path)) << f.path;
    }
  }
}

// Sizes that make no sense fail on every rank of the world (no hang, no server loop).
TEST(ServerSplit, NonsenseSizesFailOnEveryRank) {
  // (the pair by name: clang 14 does not let a lambda capture a structured binding)
  for (const auto& sizes : {std::pair{world_size(), 1}, std::pair{0, 2}, std::pair{-1, 1}}) {
    const auto e =
        expect_same_error([&] { IoServers s(MPI_COMM_WORLD, sizes.first, sizes.second); }, MPI_COMM_WORLD);
    if (e) {
      EXPECT_EQ(e->kind(), ErrorKind::Config) << e->what();
    }
  }
  // No servers: everything as without them.
  IoServers none(MPI_COMM_WORLD, 0, 1);
  EXPECT_FALSE(none.enabled());
  EXPECT_FALSE(none.is_server());
  EXPECT_EQ(none.compute_comm(), MPI_COMM_WORLD);
}

}  // namespace
}  // namespace nwpio::test::servers
