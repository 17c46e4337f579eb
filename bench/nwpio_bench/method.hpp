// A method of writing one frame. The runner (runner.cpp) calls, per repetition:
//   prepare()  untimed: allocate, build plans, write warm-up frames (their files are removed)
//   run()      timed, between two barriers: create the file, write the frame, [sync], close
//   finish()   untimed: report what was written, free everything (peak RSS is read before)
// Every method writes the same frame: the case's schema, filled by the fill rule (frame 0).
#pragma once

#include <mpi.h>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "bench_options.hpp"
#include "nwpio/decomposition.hpp"
#include "synthetic.hpp"
#include "util/agree.hpp"
#include "workload.hpp"

namespace nwpio::bench {

// What every method of one case shares.
struct CaseContext {
  const BenchOptions* options = nullptr;
  const Case* bench_case = nullptr;
  const Decomposition* decomposition = nullptr;
  const synthetic::SyntheticModel* model = nullptr;
  std::string dir;                  // run directory (exists, empty between repetitions)
  MPI_Comm comm = MPI_COMM_NULL;
  int rank = 0, size = 1;
  MPI_Info info = MPI_INFO_NULL;    // the hints nwpio resolves, for the methods outside nwpio
  // The hints nwpio resolves for writers that hold contiguous slabs (its rearranged frames):
  // collective buffering derived off unless the user's hints set it. The raw variants without
  // collective buffering use these.
  MPI_Info info_slabs = MPI_INFO_NULL;
  std::int64_t max_round_bytes = std::int64_t{1} << 30;  // per rank per collective call
};

// What one timed frame produced.
struct RunOutcome {
  std::int64_t bytes = 0;           // data bytes the method wrote (all ranks)
  std::string file;                 // path of the file written (empty: none)
  std::map<std::string, double> phases;  // seconds per phase (nwpio: FrameStats)
  std::int64_t buffer_bytes = 0;    // staging buffers the method holds (max over ranks)
  std::string mode;                 // how it wrote (nwpio: the gathering mode Auto resolved to)
  // A method whose file is neither netCDF nor the frame's raw bytes checks it itself in finish()
  // and throws when it is wrong (ceiling-io13: inflates every plane); --verify reports `self_check`.
  bool self_checked = false;
  std::string self_check;
};

class Method {
 public:
  virtual ~Method() = default;
  virtual std::string name() const = 0;
  virtual bool writes_netcdf() const { return true; }  // false: raw bytes (ceiling, floor), no file (null)
  virtual void prepare(const CaseContext& ctx, int rep) = 0;  // collective
  virtual void run(const CaseContext& ctx, int rep) = 0;      // collective, timed
  virtual RunOutcome finish(const CaseContext& ctx) = 0;      // collective
};


// Collective: every rank throws the same error if any rank failed in fn (nwpio's own agreement).
inline void agree_step(MPI_Comm comm, const std::function<void()>& fn) { detail::run_and_agree(comm, fn); }

}  // namespace nwpio::bench
