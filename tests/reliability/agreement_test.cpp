// Collective agreement: exactly one rank fails in each phase of a stream --
// open, define, put, end_frame, close -- at 2 to 4 ranks, first the last rank, then rank 0.
// Every rank must get the same Error (kind and text, naming the failing rank), quickly (no rank
// waits in a collective the failed rank never joins: a hang would hit the ctest TIMEOUT, and
// each failing call must return within kQuick), and no incomplete file may take a final name.
// Faults come from src/util/fault_injection.hpp (test-only, handed to the stream through
// the stream's private context and armed here on every rank; only the named rank fails).
// The second suite (BackendStep) fails a backend's own local step on one rank: the library's
// open of a new file, the rank's slab handle, the close of its slab descriptor.
#include <stdlib.h>

#include <chrono>
#include <stdexcept>

#include "api/stream_context.hpp"
#include "core/test_hooks.hpp"
#include "reliability_support.hpp"

namespace nwpio::test::rel {
namespace {

namespace fs = std::filesystem;
using detail::FaultPhase;

// A failing collective call returns within this (the ctest TIMEOUT is 120 s).
constexpr double kQuick = 20.0;

struct Case {
  FaultPhase phase;
  int rank;  // failing rank
};

std::string case_name(const Case& c) { return std::string(detail::to_string(c.phase)) + "_rank" + std::to_string(c.rank); }

// Runs `step` (which must fail on every rank because of the armed fault) and checks the error.
void expect_injected(detail::TestHooks& hooks, const Case& c, const std::function<void()>& step) {
  const auto t0 = std::chrono::steady_clock::now();
  const auto e = expect_same_error(step);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_LT(seconds, kQuick) << "the failing call took " << seconds << " s";
  ASSERT_TRUE(e.has_value());
  const std::string want = "injected fault at " + std::string(detail::to_string(c.phase)) + " on rank " + std::to_string(c.rank);
  EXPECT_TRUE(contains(e->what(), want)) << e->what();
  if (nranks() > 1) {
    EXPECT_EQ(std::string(e->what()).rfind("rank " + std::to_string(c.rank) + ": ", 0), 0u)
        << "names the failing rank first: " << e->what();
  }
  hooks.faults.clear();
}

// A stream whose faults this test arms (the hooks reach it through its private context).
Writer hooked_writer(const Model& model, const OutputOptions& o, const std::shared_ptr<detail::TestHooks>& hooks) {
  return detail::make_writer(model.decomposition(), model.schema(), o, {hooks, nullptr, nullptr});
}

// After a failure inside a frame: the stream refuses the next frame on every rank, and closing it
// leaves `file` under its temporary name only.
void expect_stopped_and_temporary(Writer& w, int next_frame, const std::string& file, const char* what) {
  const auto again = expect_same_error([&] { w.begin_frame(date_at(next_frame)); });
  if (again) {
    EXPECT_TRUE(contains(again->what(), "failed earlier")) << again->what();
  }
  w.close();
  MPI_Barrier(world());
  if (my_rank() == 0) {
    EXPECT_FALSE(fs::exists(file)) << what;
    EXPECT_TRUE(fs::exists(temp_of(file)));
  }
}

// File 0 (frames 0, 1) is written; the fault is armed for the open of file 1 (frame 2): the
// frame never begins, nothing of file 1 stays, and the frame is retried; file 1 is then whole.
void expect_failed_open_is_retried(Writer& w, Model& model, const ModelShape& shape, detail::TestHooks& hooks,
                                   const Case& c, const std::string& dir, int format = NC_FORMAT_64BIT_OFFSET) {
  expect_injected(hooks, c, [&] { w.begin_frame(date_at(2)); });
  MPI_Barrier(world());
  if (my_rank() == 0) {
    EXPECT_FALSE(fs::exists(file_at(dir, 2)));
    EXPECT_FALSE(fs::exists(temp_of(file_at(dir, 2)))) << "a failed open leaves no temporary file";
  }
  write_frame(w, model, 2);
  write_frame(w, model, 3);
  expect_complete(file_at(dir, 2), {2, 3}, model, shape, format);
}

// File 0 (frames 0, 1) is written; the fault is armed for the close of file 1, which is full
// after frame 3: the close fails on every rank, and file 1 keeps its temporary name.
void expect_failed_close_keeps_temporary(Writer& w, Model& model, detail::TestHooks& hooks, const Case& c,
                                         const std::string& dir) {
  write_frame(w, model, 2);
  w.begin_frame(date_at(3));
  put_all(w, model);
  expect_injected(hooks, c, [&] { w.end_frame(); });
  w.close();
  MPI_Barrier(world());
  if (my_rank() == 0) {
    EXPECT_FALSE(fs::exists(file_at(dir, 2))) << "a file whose close failed took its final name";
    EXPECT_TRUE(fs::exists(temp_of(file_at(dir, 2))));
  }
}

class Agreement : public ::testing::TestWithParam<FaultPhase> {};

TEST_P(Agreement, OneRankFailsEveryRankGetsTheSameError) {
  const FaultPhase phase = GetParam();
  for (int failing : {nranks() - 1, 0}) {
    const Case c{phase, failing};
    SCOPED_TRACE(case_name(c));
    const std::string dir = fresh_dir("agree_" + case_name(c));
    ModelShape shape;
    Model model(world(), shape);
    auto hooks = std::make_shared<detail::TestHooks>();
    OutputOptions o = options_for(dir);
    o.frames_per_file = 2;
    Writer w = hooked_writer(model, o, hooks);
    // File 0 (frames 0, 1) is written and committed before any fault.
    write_frame(w, model, 0);
    write_frame(w, model, 1);

    hooks->faults.arm(phase, failing);
    model.fill(2);
    switch (phase) {
      case FaultPhase::Open:
      case FaultPhase::Define:
        expect_failed_open_is_retried(w, model, shape, *hooks, c, dir);
        break;
      case FaultPhase::Put:
        // put() throws on the failing rank only; end_frame raises it everywhere; nothing was
        // written, and the frame can be retried.
        w.begin_frame(date_at(2));
        if (my_rank() == failing) {
          EXPECT_THROW(put_all(w, model), Error);
        } else {
          put_all(w, model);
        }
        expect_injected(*hooks, c, [&] { w.end_frame(); });
        w.begin_frame(date_at(2));
        put_all(w, model);
        w.end_frame();
        write_frame(w, model, 3);
        expect_complete(file_at(dir, 2), {2, 3}, model, shape);
        break;
      case FaultPhase::EndFrame:
        // The file holds part of a frame: it keeps its temporary name, the stream stops.
        w.begin_frame(date_at(2));
        put_all(w, model);
        expect_injected(*hooks, c, [&] { w.end_frame(); });
        expect_stopped_and_temporary(w, 3, file_at(dir, 2), "a partial file took its final name");
        break;
      case FaultPhase::WriteBehind:
        // Frame 2 went out behind (write_behind, the default); its write fails on one rank in
        // the background, found when frame 3 begins: file 1 misses a frame, keeps its temporary
        // name, and the stream stops.
        write_frame(w, model, 2);
        ASSERT_TRUE(w.statistics().frames.back().written_behind) << "frame 2 was not written behind";
        expect_injected(*hooks, c, [&] { w.begin_frame(date_at(3)); });
        expect_stopped_and_temporary(w, 4, file_at(dir, 2), "a file whose write-behind failed took its final name");
        break;
      case FaultPhase::Close:
        expect_failed_close_keeps_temporary(w, model, *hooks, c, dir);
        break;
      case FaultPhase::CreateOpen:
      case FaultPhase::SlabOpen:
      case FaultPhase::SlabClose:
        FAIL() << "a backend's step: see the suite BackendStep";
    }
    w.close();
    // Whatever failed: file 0 intact and exact, nothing incomplete under a final name.
    expect_complete(file_at(dir, 0), {0, 1}, model, shape);
    expect_no_incomplete_final_file(dir);
  }
}

TEST(AgreementClose, FailureInExplicitCloseLeavesTemporaryName) {
  // close() of a file that is not full (1 frame of 2): the fault hits the collective close.
  const std::string dir = fresh_dir("agree_explicit_close");
  ModelShape shape;
  Model model(world(), shape);
  auto hooks = std::make_shared<detail::TestHooks>();
  OutputOptions o = options_for(dir);
  o.frames_per_file = 2;
  Writer w = hooked_writer(model, o, hooks);
  write_frame(w, model, 0);
  const Case c{FaultPhase::Close, nranks() - 1};
  hooks->faults.arm(c.phase, c.rank);
  expect_injected(*hooks, c, [&] { w.close(); });
  MPI_Barrier(world());
  if (my_rank() == 0) {
    EXPECT_FALSE(fs::exists(file_at(dir, 0)));
    EXPECT_TRUE(fs::exists(temp_of(file_at(dir, 0))));
  }
  expect_no_incomplete_final_file(dir);
}

TEST(AgreementAbandon, CompleteFileWaitingForItsCommitGetsItsFinalName) {
  // One frame per file, written behind: file 0 is complete and its commit waits on the background
  // thread (held) when frame 1 fails on one rank; the failed stream is then abandoned (the
  // Writer's destructor). The model saw frame 0 succeed, so file 0 still gets its final name;
  // frame 1's file does not.
  const std::string dir = fresh_dir("agree_abandon_behind");
  ModelShape shape;
  Model model(world(), shape);
  auto hooks = std::make_shared<detail::TestHooks>();
  hooks->hold_commits = true;
  OutputOptions o = options_for(dir);
  o.frames_per_file = 1;
  {
    Writer w = hooked_writer(model, o, hooks);
    write_frame(w, model, 0);
    MPI_Barrier(world());
    if (my_rank() == 0) {
      EXPECT_FALSE(fs::exists(file_at(dir, 0))) << "the commit was held: file 0 has no final name yet";
    }
    const Case c{FaultPhase::EndFrame, nranks() - 1};
    hooks->faults.arm(c.phase, c.rank);
    model.fill(1);
    w.begin_frame(date_at(1));
    put_all(w, model);
    expect_injected(*hooks, c, [&] { w.end_frame(); });
  }  // abandoned: the stream failed
  MPI_Barrier(world());
  expect_complete(file_at(dir, 0), {0}, model, shape);
  if (my_rank() == 0) {
    EXPECT_FALSE(fs::exists(file_at(dir, 1))) << "the failed frame's file took its final name";
  }
  expect_no_incomplete_final_file(dir);
}

#ifdef NWPIO_HAVE_NETCDF_PAR
TEST(AgreementAbandon, ParallelNetcdf4FileAbandonedDuringUnwindingKeepsItsTemporaryName) {
  // io_form 13: the Writer dies during unwinding with a file open (a frame of two written): its
  // backend forgets the file (nc_close is collective), which keeps its temporary name; HDF5 still
  // holds it and closes it in MPI_Finalize (on every rank alike), which must end (this binary's
  // exit, under OMPIO and under ROMIO).
  const std::string dir = fresh_dir("agree_abandon_io13");
  ModelShape shape;
  Model model(world(), shape);
  OutputOptions o = options_for(dir);
  o.io_form = IoForm::NetcdfParallel;
  o.nocolons = true;
  o.frames_per_file = 2;
  try {
    Writer w(model.decomposition(), model.schema(), o);
    write_frame(w, model, 0);
    throw std::runtime_error("model failed");
  } catch (const std::runtime_error&) {
  }
  MPI_Barrier(world());
  if (my_rank() == 0) {
    EXPECT_FALSE(fs::exists(file_at(dir, 0)));
    EXPECT_TRUE(fs::exists(temp_of(file_at(dir, 0))));
  }
}
#endif

// One local step of a backend that can fail on one rank alone.
struct BackendCase {
  FaultPhase phase;
  IoForm io_form;
  bool collective_writes;  // slabs through the second MPI-IO handle (else each writer's descriptor)
  bool behind;             // write_behind
  const char* name;
  bool pnetcdf_safe_mode = false;  // PNETCDF_SAFE_MODE=1: PnetCDF's own steps after its open agree
};

class BackendStep : public ::testing::TestWithParam<BackendCase> {};

// The step fails on one rank (the last, then rank 0): every rank gets the same error, quickly (a
// rank waiting in a collective the failed rank never joins would hang until the ctest TIMEOUT),
// nothing incomplete takes a final name, and the stream goes on where the failure allows it (a
// failed open: the frame is retried).
TEST_P(BackendStep, OneRankFailsEveryRankGetsTheSameError) {
  const BackendCase& b = GetParam();
  if (b.pnetcdf_safe_mode) ::setenv("PNETCDF_SAFE_MODE", "1", 1);
  const int format = b.io_form == IoForm::NetcdfParallel ? NC_FORMAT_NETCDF4 : NC_FORMAT_64BIT_OFFSET;
  for (int failing : {nranks() - 1, 0}) {
    const Case c{b.phase, failing};
    SCOPED_TRACE(std::string(b.name) + "_rank" + std::to_string(failing));
    const std::string dir = fresh_dir("step_" + std::string(b.name) + "_rank" + std::to_string(failing));
    ModelShape shape;
    Model model(world(), shape);
    auto hooks = std::make_shared<detail::TestHooks>();
    OutputOptions o = options_for(dir);
    o.frames_per_file = 2;
    o.io_form = b.io_form;
    o.nocolons = true;  // io_form 13 under ROMIO: WRF's dated names keep no ':'
    o.write_behind = b.behind;
    if (b.collective_writes) o.hints.overrides["collective_write"] = "true";
    Writer w = hooked_writer(model, o, hooks);
    write_frame(w, model, 0);
    write_frame(w, model, 1);  // file 0 complete before any fault

    hooks->faults.arm(b.phase, failing);
    model.fill(2);
    if (b.phase == FaultPhase::SlabClose) {
      expect_failed_close_keeps_temporary(w, model, *hooks, c, dir);
    } else {
      expect_failed_open_is_retried(w, model, shape, *hooks, c, dir, format);
    }
    w.close();
    expect_complete(file_at(dir, 0), {0, 1}, model, shape, format);
    expect_no_incomplete_final_file(dir);
  }
  ::unsetenv("PNETCDF_SAFE_MODE");
}

std::vector<BackendCase> backend_cases() {
  std::vector<BackendCase> c = {
      {FaultPhase::CreateOpen, IoForm::Pnetcdf, false, true, "create_open_io11"},
      // In safe mode PnetCDF's define step (ncmpi_enddef) is collective: nothing may reach it
      // before every rank's open is known to have succeeded.
      {FaultPhase::CreateOpen, IoForm::Pnetcdf, false, true, "create_open_io11_safe_mode", true},
      {FaultPhase::SlabOpen, IoForm::Pnetcdf, false, true, "slab_open_descriptor"},
      {FaultPhase::SlabOpen, IoForm::Pnetcdf, true, false, "slab_open_mpiio"},
      {FaultPhase::SlabClose, IoForm::Pnetcdf, false, true, "slab_close_behind"},
      {FaultPhase::SlabClose, IoForm::Pnetcdf, false, false, "slab_close"},
  };
#ifdef NWPIO_HAVE_NETCDF_PAR
  c.push_back({FaultPhase::CreateOpen, IoForm::NetcdfParallel, false, false, "create_open_io13"});
#endif
  return c;
}

INSTANTIATE_TEST_SUITE_P(Steps, BackendStep, ::testing::ValuesIn(backend_cases()),
                         [](const auto& param_info) { return std::string(param_info.param.name); });

INSTANTIATE_TEST_SUITE_P(Phases, Agreement,
                         ::testing::Values(FaultPhase::Open, FaultPhase::Define, FaultPhase::Put, FaultPhase::EndFrame,
                                           FaultPhase::Close, FaultPhase::WriteBehind),
                         [](const auto& param_info) { return std::string(detail::to_string(param_info.param)); });

}  // namespace
}  // namespace nwpio::test::rel
