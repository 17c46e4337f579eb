// The Backend contract (src/backend/backend.hpp), the same checks against every backend this
// build has (the registry's table: io_form 0, 2, 11, 13), each with every format its options
// give, at 1 to 4 ranks (uneven patches; above one rank one rank writes nothing). Frames reach
// the backend as the core hands them over: slabs staged by the rearranger at the backend's
// placement, and the direct plan's write requests. Files are read back value for value through
// netCDF-C and again through a library that did not write them (PnetCDF for classic files,
// HDF5 for netCDF-4: second_reader.hpp); classic ones pass ncvalidator. The cases come from
// the registry (built_io_forms()): a new row is under contract without a change here.
#include <gtest/gtest.h>
#include <mpi.h>
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <optional>
#include <thread>

#include "backend/backend_registry.hpp"
#include "contract_stream.hpp"
#include "mpi_support.hpp"
#include "sync_counter.hpp"
#include "util/agree.hpp"

namespace nwpio::test {
namespace {

namespace fs = std::filesystem;
using detail::Backend;

// Ends the run with a message naming the step when the step does not return in time: a hang is
// then a failure that says what hung, before the test's TIMEOUT.
class Watchdog {
 public:
  Watchdog(int seconds, std::string step) : step_(std::move(step)) {
    thread_ = std::thread([this, seconds] {
      std::unique_lock<std::mutex> lock(mutex_);
      if (done_.wait_for(lock, std::chrono::seconds(seconds), [this] { return finished_; })) return;
      std::fprintf(stderr, "[rank %d] %s did not return within %d s\n", my_rank(), step_.c_str(), seconds);
      std::fflush(stderr);
      std::_Exit(3);
    });
  }
  ~Watchdog() {
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      finished_ = true;
    }
    done_.notify_all();
    thread_.join();
  }
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;

 private:
  std::string step_;
  std::mutex mutex_;
  std::condition_variable done_;
  bool finished_ = false;
  std::thread thread_;
};

// The options of a stream whose slabs have a rank with nothing: above one rank, one fewer
// writer than ranks (at 3 ranks: writers 0 and 1, rank 2 hands over empty slabs).
void one_idle_writer(OutputOptions& o) { o.writer_ranks = nranks() > 1 ? nranks() - 1 : 0; }

// ... and frames split into many rounds (every rank's staging bounded to a few rows).
void many_rounds(OutputOptions& o) {
  one_idle_writer(o);
  o.max_round_bytes = 12 << 10;
  o.serial_chunk_bytes = 12 << 10;
}

class BackendContract : public ::testing::TestWithParam<BackendCase> {};

// Every rank, once every rank has closed the backend: true for io_form 0, which must have left
// `dir` empty (checked on rank 0); false for a backend that writes a file.
bool left_no_file(const ContractStream& s, const std::string& dir) {
  MPI_Barrier(world());
  if (s.traits().writes_file) return false;
  if (my_rank() == 0) {
    EXPECT_TRUE(files_in(dir).empty()) << "io_form 0 created a file";
  }
  return true;
}

// create() makes the file, which is not there before (the caller makes way for it: the
// library's create is the file's first, docs/HINTS.md); a file created and closed without a
// write is a valid file of the layout with no record. io_form 0 creates nothing.
TEST_P(BackendContract, CreateMakesTheFileAndAnUnwrittenFileIsValid) {
  const std::string dir = fresh_dir("create_" + GetParam().name);
  ContractStream s(GetParam(), world());
  for (bool placed : {false, true}) {
    SCOPED_TRACE(placed ? "create, placement, close" : "create, close");
    const std::string path = dir + (placed ? "/placed.nc" : "/created.nc");
    auto backend = s.make_backend();
    backend->create(path, s.layout().file, hints_for(SlabWrites::Collective));
    if (placed) backend->placement();
    backend->close(false);
    backend.reset();
    if (left_no_file(s, dir)) continue;
    expect_empty_file(s, path);
  }
}

// create() of a file that cannot be made (its folder does not exist) is an Error on every rank
// naming the file, never a hang; close() afterwards is harmless. io_form 0 creates nothing, so
// nothing fails.
TEST_P(BackendContract, CreateFailureIsAnErrorOnEveryRankNamingTheFile) {
  const std::string dir = fresh_dir("create_error_" + GetParam().name);
  const std::string path = dir + "/no-such-folder/wrfout_d01.nc";
  ContractStream s(GetParam(), world());
  auto backend = s.make_backend();
  Watchdog dog(60, "create() of " + path + " and close() after it");
  if (!s.traits().writes_file) {
    EXPECT_NO_THROW(backend->create(path, s.layout().file, hints_for(SlabWrites::Collective)));
    EXPECT_NO_THROW(backend->close(false));
    return;
  }
  const std::optional<Error> e =
      expect_same_error([&] { backend->create(path, s.layout().file, hints_for(SlabWrites::Collective)); });
  if (e) {
    EXPECT_TRUE(contains(e->what(), path)) << "the error does not name the file: " << e->what();
  }
  EXPECT_NO_THROW(backend->close(false));
  backend.reset();
  MPI_Barrier(world());
}

// Two frames through the slab path, the writers' slabs written collectively in many rounds and
// independently in one; one rank of three hands over empty slabs in every round, and a last
// round hands over nothing on any rank. Every value comes back; a classic file is as long as
// the backend's layout facts say.
TEST_P(BackendContract, SlabPathWritesEveryValue) {
  const std::string dir = fresh_dir("slabs_" + GetParam().name);
  for (SlabWrites mode : {SlabWrites::Collective, SlabWrites::Independent}) {
    SCOPED_TRACE(to_string(mode));
    ContractStream s(GetParam(), world(), mode == SlabWrites::Collective ? many_rounds : one_idle_writer);
    SlabPath slabs(s);
    const std::string path = dir + "/" + to_string(mode) + ".nc";
    auto backend = s.make_backend();
    backend->create(path, s.layout().file, hints_for(mode));
    slabs.place(*backend);
    const detail::LayoutFacts facts = my_rank() == 0 ? backend->layout_facts() : detail::LayoutFacts{};
    Handed handed;
    for (int record = 0; record < 2; ++record) slabs.write_frame(*backend, record, Via::Write, handed);
    backend->write({}, {});  // every rank joins with nothing
    backend->close(false);
    backend.reset();
    if (left_no_file(s, dir)) continue;
    expect_frames(s, path, 2);
    if (my_rank() == 0) expect_size_agrees(facts, path, 2);
  }
}

// Two frames through the request path (the direct plan, frames split into rounds of different
// counts on different ranks). Every value comes back; a classic file is as long as the layout
// facts say.
TEST_P(BackendContract, RequestPathWritesEveryValue) {
  const std::string dir = fresh_dir("requests_" + GetParam().name);
  ContractStream s(GetParam(), world(), [](OutputOptions& o) { o.max_round_bytes = 8 << 10; });
  RequestPath requests(s);
  const std::string path = dir + "/requests.nc";
  auto backend = s.make_backend();
  backend->create(path, s.layout().file, hints_for(SlabWrites::Collective));
  const detail::LayoutFacts facts = my_rank() == 0 ? backend->layout_facts() : detail::LayoutFacts{};
  Handed handed;
  for (int record = 0; record < 2; ++record) requests.write_frame(*backend, record, handed);
  backend->close(false);
  backend.reset();
  if (left_no_file(s, dir)) return;
  expect_frames(s, path, 2);
  if (my_rank() == 0) expect_size_agrees(facts, path, 2);
}

// write_deferred() either writes at once and returns null, or returns the slab's write, which
// the caller runs on a thread of its own after the close (the backend destroyed): defers_slabs()
// says which, the same on every rank. The deferred bytes are not in the file before their run,
// and the file is complete after it.
TEST_P(BackendContract, WriteDeferredLeavesExactlyTheSlabsItSays) {
  const std::string dir = fresh_dir("deferred_" + GetParam().name);
  for (SlabWrites mode : {SlabWrites::Collective, SlabWrites::Independent}) {
    SCOPED_TRACE(to_string(mode));
    ContractStream s(GetParam(), world(), one_idle_writer);
    SlabPath slabs(s);
    const std::string path = dir + "/" + to_string(mode) + ".nc";
    auto backend = s.make_backend();
    backend->create(path, s.layout().file, hints_for(mode));
    slabs.place(*backend);
    const bool defers = backend->defers_slabs();
    EXPECT_TRUE(same_on_every_rank(defers, world())) << "defers_slabs() is " << defers << " on rank " << my_rank();
    if (defers) {
      EXPECT_TRUE(s.traits().writes_behind) << "the backend defers slabs, its traits say it never does";
    }
    Handed handed;
    for (int record = 0; record < 2; ++record) slabs.write_frame(*backend, record, Via::WriteDeferred, handed);
    EXPECT_EQ(handed.deferred_for_empty, 0) << "a write was left to the caller for an empty slab";
    if (defers) {
      EXPECT_EQ(static_cast<int>(handed.deferred.size()), handed.slabs) << "defers_slabs(): every non-empty slab is left to the caller";
    } else {
      EXPECT_TRUE(handed.deferred.empty()) << "defers_slabs() is false, yet write_deferred() left a write to the caller";
    }
    backend->close(false);
    backend.reset();  // a deferred write stays valid after the backend is gone
    MPI_Barrier(world());
    if (!s.traits().writes_file) continue;
    if (any_rank(!handed.deferred.empty(), world()) && my_rank() == 0) {
      EXPECT_FALSE(holds_frames(s, path, 2)) << "the slabs left to the caller were in the file before their write ran";
    }
    MPI_Barrier(world());
    std::string error;
    std::thread background([&] {
      try {
        for (auto& d : handed.deferred) d->run();
      } catch (const std::exception& e) {
        error = e.what();
      }
    });
    background.join();
    EXPECT_EQ(error, "");
    handed.deferred.clear();
    MPI_Barrier(world());
    expect_frames(s, path, 2);
  }
}

// close(true): every rank that handed over data has synced the file (fsync of it, or
// MPI_File_sync) when it returns. A second close, durable or not, is harmless.
TEST_P(BackendContract, DurableCloseSyncsEveryWritingRankAndClosingTwiceIsHarmless) {
  const std::string dir = fresh_dir("durable_" + GetParam().name);
  for (int way = 0; way < 3; ++way) {
    const bool by_requests = way == 2;
    const SlabWrites mode = way == 1 ? SlabWrites::Independent : SlabWrites::Collective;
    const std::string name = by_requests ? "requests" : to_string(mode);
    SCOPED_TRACE(name);
    ContractStream s(GetParam(), world(), one_idle_writer);
    const std::string path = dir + "/" + name + ".nc";
    Handed handed;
    auto backend = s.make_backend();
    if (by_requests) {
      RequestPath requests(s);
      backend->create(path, s.layout().file, hints_for(mode));
      requests.write_frame(*backend, 0, handed);
    } else {
      SlabPath slabs(s);
      backend->create(path, s.layout().file, hints_for(mode));
      slabs.place(*backend);
      slabs.write_frame(*backend, 0, Via::Write, handed);
    }
    sync_counter::reset();
    backend->close(true);
    const int syncs = sync_counter::fsyncs_of(path) + sync_counter::mpi_file_syncs();
    if (s.traits().writes_file && handed.anything) {
      EXPECT_GT(syncs, 0) << "rank " << my_rank() << " handed data over, and close(true) neither fsync'ed " << path
                          << " nor called MPI_File_sync";
    }
    EXPECT_NO_THROW(backend->close(false));
    EXPECT_NO_THROW(backend->close(true));
    backend.reset();
    MPI_Barrier(world());
    if (s.traits().writes_file) expect_frames(s, path, 1);
  }
}

// abandon() is local: after a failure every rank agreed on, each rank forgets the open file on
// its own (one after the other, so that a collective abandon() or destructor would wait for
// ranks that never come). The partly written file stays.
TEST_P(BackendContract, AbandonIsNeverCollective) {
  const std::string dir = fresh_dir("abandon_" + GetParam().name);
  ContractStream s(GetParam(), world(), one_idle_writer);
  SlabPath slabs(s);
  const std::string path = dir + "/abandoned.nc";
  auto backend = s.make_backend();
  backend->create(path, s.layout().file, hints_for(SlabWrites::Collective));
  slabs.place(*backend);
  Handed handed;
  slabs.write_frame(*backend, 0, Via::Write, handed);
  EXPECT_THROW(detail::run_and_agree(world(), [] {
                 if (my_rank() == nranks() - 1) throw Error(ErrorKind::Io, "a failure of the last rank");
               }),
               Error);
  {
    Watchdog dog(20, "abandon() and the backend's destructor on one rank alone");
    int token = 0;
    if (my_rank() > 0) MPI_Recv(&token, 1, MPI_INT, my_rank() - 1, 0, world(), MPI_STATUS_IGNORE);
    backend->abandon();
    backend.reset();
    if (my_rank() + 1 < nranks()) MPI_Send(&token, 1, MPI_INT, my_rank() + 1, 0, world());
  }
  MPI_Barrier(world());
  if (my_rank() == 0) {
    EXPECT_EQ(fs::exists(path), s.traits().writes_file) << path;
  }
}

// reports_full_disk(): a write that does not fit (here: past the file-size limit) fails as an
// error of the write itself, naming the file (through write(), or the deferred write's run()).
// MPI-IO layers may print the system's error and report success (Open MPI's OMPIO does): a
// backend writing slabs through one must say false.
TEST_P(BackendContract, FullDiskIsAnErrorOfTheWriteWhereReported) {
  const std::string dir = fresh_dir("full_" + GetParam().name);
  for (SlabWrites mode : {SlabWrites::Collective, SlabWrites::Independent}) {
    SCOPED_TRACE(to_string(mode));
    ContractStream s(GetParam(), world(), one_idle_writer);
    SlabPath slabs(s);
    const std::string path = dir + "/" + to_string(mode) + ".nc";
    auto backend = s.make_backend();
    backend->create(path, s.layout().file, hints_for(mode));
    slabs.place(*backend);
    const bool reports = backend->reports_full_disk();
    if (!any_rank(reports, world())) {
      backend->close(false);
      continue;
    }
    // The limit: the record's last byte does not fit (where the backend knows where that is;
    // else no byte past the header). Where the backend's own library writes the first rows of
    // the record (PnetCDF: Times), they fit, so that no collective write of a library fails on
    // one rank only.
    std::int64_t limit = 0;
    if (my_rank() == 0) {
      const detail::LayoutFacts facts = backend->layout_facts();
      limit = facts.extent.known ? facts.extent.end_after(1) - 1 : static_cast<std::int64_t>(fs::file_size(path));
    }
    MPI_Bcast(&limit, 1, MPI_INT64_T, 0, world());
    rlimit old{};
    ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &old), 0);
    auto* old_handler = std::signal(SIGXFSZ, SIG_IGN);
    rlimit limited = old;
    limited.rlim_cur = static_cast<rlim_t>(limit);
    ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &limited), 0);
    Handed handed;
    std::string error;
    try {
      slabs.write_frame(*backend, 0, mode == SlabWrites::Independent ? Via::WriteDeferred : Via::Write, handed);
      for (auto& d : handed.deferred) d->run();
    } catch (const Error& e) {
      error = e.what();
    }
    ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &old), 0);
    std::signal(SIGXFSZ, old_handler);
    const bool failed_here = error.find("File too large") != std::string::npos;
    if (failed_here) {
      EXPECT_NE(error.find(path), std::string::npos) << error;
    }
    const bool failed = any_rank(failed_here, world());
    if (my_rank() == 0) {
      EXPECT_TRUE(failed) << "reports_full_disk() is true, yet a frame past the file-size limit (" << limit
                          << " bytes) was written without an error";
    }
    try {
      backend->close(false);
    } catch (const Error&) {  // the frame failed; only that nobody hangs matters here
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Built, BackendContract, ::testing::ValuesIn(backend_cases()),
                         [](const ::testing::TestParamInfo<BackendCase>& p) { return p.param.name; });

// Every backend of the registry that this build has is under contract: each has a case. The list
// agrees with what the build says it has (io_form 0 and 2 always).
TEST(BackendContractCases, EveryBuiltBackendIsTested) {
  const auto cases = backend_cases();
  const std::vector<IoForm> built = detail::built_io_forms();
  for (IoForm f : built) {
    bool found = false;
    for (const BackendCase& c : cases) found = found || c.io_form == f;
    EXPECT_TRUE(found) << "io_form " << static_cast<int>(f) << " has no case";
  }
  const auto has = [&built](IoForm f) { return std::find(built.begin(), built.end(), f) != built.end(); };
  EXPECT_TRUE(has(IoForm::Null));
  EXPECT_TRUE(has(IoForm::NetcdfSerial));
  EXPECT_EQ(has(IoForm::Pnetcdf), detail::built_backends().pnetcdf);
  EXPECT_EQ(has(IoForm::NetcdfParallel), detail::built_backends().netcdf_par);
}

}  // namespace
}  // namespace nwpio::test
