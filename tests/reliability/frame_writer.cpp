// nwpio_frame_writer: a small WRF-like run for the process-level reliability tests (killed
// runs). It writes WRF's history variables (wrf::history_schema) filled by the synthetic fill
// rule, one frame per output time, and can stop inside a frame so that a test can kill it there.
//
//   nwpio_frame_writer --dir D [--frames N] [--frames-per-file F] [--e-we N --e-sn N --e-vert N]
//                      [--pause-frame K --pause-seconds S] [--ready-file PATH] [--pid-dir DIR]
//                      [--fsync 0|1]
//   nwpio_frame_writer --verify FILE --first-frame T [--e-we ...]   (one process: checks FILE)
//
// --pause-frame K: in frame K (0-based), after begin_frame (the file exists under its temporary
// name) and after every put, all ranks sleep S seconds before end_frame; rank 0 creates
// --ready-file first, so the test knows the run is inside the frame. --pid-dir: each rank writes
// its pid to DIR/rank.<r> at start, so the test can SIGKILL every rank.
// Rank 0 prints "frame <t> <date> written" after each end_frame.
#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <string>
#include <thread>

#include "nwpio/error.hpp"
#include "nwpio/wrf_date.hpp"
#include "nwpio/wrf_decompose.hpp"
#include "nwpio_model/wrf_history.hpp"
#include "nwpio/writer.hpp"
#include "synthetic.hpp"

namespace {

constexpr const char* kStart = "2019-06-01_00:00:00";
constexpr std::int64_t kIntervalSeconds = 3600;

struct Args {
  std::map<std::string, std::string> values;
  std::string get(const std::string& key, const std::string& fallback = "") const {
    auto it = values.find(key);
    return it == values.end() ? fallback : it->second;
  }
  long num(const std::string& key, long fallback) const {
    auto it = values.find(key);
    return it == values.end() ? fallback : std::stol(it->second);
  }
};

Args parse(int argc, char** argv) {
  Args a;
  for (int i = 1; i + 1 < argc; i += 2) a.values[argv[i]] = argv[i + 1];
  return a;
}

nwpio::wrf::HistorySchemaOptions schema_options(const Args& a) {
  nwpio::wrf::HistorySchemaOptions o;
  o.e_we = static_cast<int>(a.num("--e-we", 60));
  o.e_sn = static_cast<int>(a.num("--e-sn", 50));
  o.e_vert = static_cast<int>(a.num("--e-vert", 12));
  o.start_date = kStart;
  return o;
}

int verify(const Args& a) {
  nwpio::Schema schema = nwpio::wrf::history_schema(schema_options(a));
  const auto result = nwpio::synthetic::verify_file(a.get("--verify"), schema, a.num("--first-frame", 0));
  std::cout << a.get("--verify") << ": " << result.summary() << std::endl;
  return result.ok ? 0 : 1;
}

int write(const Args& a) {
  const MPI_Comm comm = MPI_COMM_WORLD;
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  if (!a.get("--pid-dir").empty()) {
    std::ofstream(a.get("--pid-dir") + "/rank." + std::to_string(rank)) << getpid() << '\n';
  }
  const auto opts = schema_options(a);
  const auto [px, py] = nwpio::wrf::choose_nproc(size);
  const auto bounds = nwpio::wrf::split_domain(opts.e_we, opts.e_sn, opts.e_vert, px, py, rank);
  const auto decomposition = nwpio::Decomposition::from_wrf(comm, bounds);

  nwpio::OutputOptions out;
  out.output_dir = a.get("--dir", ".");
  out.frames_per_file = static_cast<int>(a.num("--frames-per-file", 1));
  out.start_date = kStart;
  out.history_interval_seconds = kIntervalSeconds;
  out.print_timing = false;
  out.hints.report = nwpio::HintReport::Off;
  out.fsync_before_rename = a.num("--fsync", 1) != 0;
  nwpio::Writer writer(decomposition, nwpio::wrf::history_schema(opts), out);
  nwpio::synthetic::SyntheticModel model(decomposition, writer.schema());

  const long frames = a.num("--frames", 3);
  const long pause_frame = a.num("--pause-frame", -1);
  for (long t = 0; t < frames; ++t) {
    const std::string date = nwpio::wrf::add_seconds(kStart, t * kIntervalSeconds);
    model.fill(t);
    writer.begin_frame(date);
    model.put_all(writer);
    if (t == pause_frame) {
      // The files before this frame are committed behind the model: their final names first,
      // so that the test kills a run whose earlier files are all complete.
      if (rank == 0) {
        for (long k = 0; k < t; k += out.frames_per_file) {
          std::string name = nwpio::wrf::add_seconds(kStart, k * kIntervalSeconds);
          std::replace(name.begin(), name.end(), ':', '_');
          const std::filesystem::path final_path = std::filesystem::path(out.output_dir) / ("wrfout_d01_" + name);
          for (int i = 0; i < 6000 && !std::filesystem::exists(final_path); ++i) {
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
          }
        }
      }
      MPI_Barrier(comm);
      if (rank == 0 && !a.get("--ready-file").empty()) std::ofstream(a.get("--ready-file")) << t << '\n';
      std::this_thread::sleep_for(std::chrono::seconds(a.num("--pause-seconds", 60)));
    }
    writer.end_frame();
    if (rank == 0) std::cout << "frame " << t << " " << date << " written" << std::endl;
  }
  writer.close();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rc = 0;
  try {
    const Args a = parse(argc, argv);
    rc = a.get("--verify").empty() ? write(a) : verify(a);
  } catch (const std::exception& e) {
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    std::cerr << "rank " << rank << ": error: " << e.what() << std::endl;
    rc = 1;
  }
  MPI_Finalize();
  return rc;
}
