// nwpio_frame_writer: a small WRF-like run for the process-level reliability tests (killed
// runs). It writes WRF's history variables (wrf::history_schema) filled by the synthetic fill
// rule, one frame per output time, and can stop inside a frame so that a test can kill it there.
//
//   nwpio_frame_writer --dir D [--frames N] [--frames-per-file F] [--e-we N --e-sn N --e-vert N]
//                      [--pause-frame K --pause-seconds S] [--ready-file PATH] [--pid-dir DIR]
//                      [--fsync 0|1] [--io-form 11|2|13] [--step-seconds S]
//   nwpio_frame_writer --verify FILE --first-frame T [--e-we ...]   (one process: checks FILE)
//   nwpio_frame_writer --verify-dir D [--frames-per-file F] [--e-we ...]
//                      (one process: checks every file under a final name in D)
//
// --step-seconds S: every rank sleeps S seconds after each end_frame, as a model computes its
// next output time (files are committed behind the model meanwhile). --io-form: 11 (default), 2
// (CDF-2) or 13 (netCDF-4); names have no ':' in every io_form.
// --verify-dir: every entry of D must be wrfout_d01_<date> (its first frame from the date,
// every value checked) or the user's private folder .nwpio-tmp-<uid>; prints one line per file,
// then "verified N files"; exit 1 at the first entry that is neither or a file that is not exact.
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
#include <vector>

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

// Every name in a run's output folder: a final name holding exactly its frames, or the private
// folder (what is not complete; nwpio-check reports it).
int verify_dir(const Args& a) {
  const nwpio::Schema schema = nwpio::wrf::history_schema(schema_options(a));
  const std::string private_dir = ".nwpio-tmp-" + std::to_string(::geteuid());
  const long per_file = a.num("--frames-per-file", 1);
  int files = 0, bad = 0;
  std::vector<std::filesystem::path> entries;
  for (const auto& e : std::filesystem::directory_iterator(a.get("--verify-dir"))) entries.push_back(e.path());
  std::sort(entries.begin(), entries.end());
  for (const auto& path : entries) {
    const std::string name = path.filename().string();
    if (name == private_dir && std::filesystem::is_directory(std::filesystem::symlink_status(path))) continue;
    const std::string prefix = "wrfout_d01_";
    std::string date = name.rfind(prefix, 0) == 0 ? name.substr(prefix.size()) : std::string();
    if (date.size() == 19) {
      date[13] = date[16] = ':';
    }
    if (!std::filesystem::is_regular_file(std::filesystem::symlink_status(path)) || !nwpio::wrf::is_valid_date(date)) {
      std::cout << path.string() << ": not a name this run writes" << std::endl;
      ++bad;
      continue;
    }
    const std::int64_t frame =
        (nwpio::wrf::date_to_seconds(date) - nwpio::wrf::date_to_seconds(kStart)) / kIntervalSeconds;
    std::vector<std::string> times;
    for (long k = 0; k < per_file; ++k) times.push_back(nwpio::wrf::add_seconds(kStart, (frame + k) * kIntervalSeconds));
    nwpio::synthetic::VerifyResult result;
    try {
      result = nwpio::synthetic::verify_file(path.string(), schema, frame, times);
    } catch (const nwpio::Error& e) {
      result.ok = false;
      result.problems.push_back(e.what());
    }
    std::cout << path.string() << ": " << result.summary() << std::endl;
    ++files;
    if (!result.ok) ++bad;
  }
  std::cout << "verified " << files << " files, " << bad << " problems" << std::endl;
  return bad == 0 ? 0 : 1;
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
  out.io_form = static_cast<nwpio::IoForm>(a.num("--io-form", 11));
  out.nocolons = true;
  out.use_netcdf_classic = true;
  nwpio::Writer writer(decomposition, nwpio::wrf::history_schema(opts), out);
  nwpio::synthetic::SyntheticModel model(decomposition, writer.schema());

  const long frames = a.num("--frames", 3);
  const long pause_frame = a.num("--pause-frame", -1);
  const double step_seconds = std::stod(a.get("--step-seconds", "0"));
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
    if (step_seconds > 0) std::this_thread::sleep_for(std::chrono::duration<double>(step_seconds));
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
    rc = !a.get("--verify-dir").empty() ? verify_dir(a) : a.get("--verify").empty() ? write(a) : verify(a);
  } catch (const std::exception& e) {
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    // One write per line: the ranks' lines reach mpiexec's output whole.
    std::cerr << ("rank " + std::to_string(rank) + ": error: " + e.what() + "\n") << std::flush;
    rc = 1;
  }
  MPI_Finalize();
  return rc;
}
