// nwpio-bench model-loop: see model_loop.hpp.
#include "model_loop.hpp"

#include <CLI/CLI.hpp>
#include <mpi.h>
#include <sys/resource.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>

#include "nwpio/error.hpp"
#include "nwpio/io_servers.hpp"
#include "nwpio/stream_builder.hpp"
#include "nwpio/wrf_date.hpp"
#include "nwpio/wrf_decompose.hpp"
#include "nwpio_model/wrf_history.hpp"
#include "memory.hpp"
#include "synthetic.hpp"
#include "version_flag.hpp"

namespace nwpio::bench {
namespace {

namespace fs = std::filesystem;
constexpr const char* kStart = "2019-06-01_00:00:00";

struct LoopOptions {
  int steps = 60, every = 10;
  double step_seconds = 0.1;
  int servers = 1, groups = 1;
  int e_we = 426, e_sn = 301, e_vert = 36;
  int repeat = 1;
  bool fsync = false;
  int in_flight = 2;
  int frames_per_file = 1;
  bool blocking = false;
  double message_mb = 1073.741824;  // the default server_message_bytes (1 GiB)
  std::string dir, json;
  std::vector<std::string> methods{"none", "io0", "io11", "servers-io11"};
};

// A rank that has nothing to do waits here without polling MPI at full speed (Open MPI's
// blocking calls spin, which would take a core from the ranks that compute).
void idle_barrier(MPI_Comm comm) {
  MPI_Request r = MPI_REQUEST_NULL;
  MPI_Ibarrier(comm, &r);
  for (int done = 0;;) {
    MPI_Test(&r, &done, MPI_STATUS_IGNORE);
    if (done) return;
    std::this_thread::sleep_for(std::chrono::microseconds(500));
  }
}

// The model's compute: a fixed number of dependent floating-point operations.
double busy(std::int64_t iterations) {
  volatile double x = 1.0;
  double y = x;
  for (std::int64_t i = 0; i < iterations; ++i) y = y * 1.0000001 + 1e-9;
  x = y;
  return x;
}

// Iterations per second of busy(), measured on world rank 0 (the others wait without polling),
// the best of five 0.1 s runs: the work of a step is fixed by this, for every method.
std::int64_t calibrate(MPI_Comm world) {
  int rank = 0;
  MPI_Comm_rank(world, &rank);
  double rate = 0;
  if (rank == 0) {
    const std::int64_t n = 2'000'000;
    for (int k = 0; k < 5; ++k) {
      const double t0 = MPI_Wtime();
      busy(n);
      rate = std::max(rate, static_cast<double>(n) / (MPI_Wtime() - t0));
    }
  }
  idle_barrier(world);
  MPI_Bcast(&rate, 1, MPI_DOUBLE, 0, world);
  return static_cast<std::int64_t>(rate);
}

std::string load_average() {
  std::ifstream in("/proc/loadavg");
  std::string a, b, c;
  in >> a >> b >> c;
  return a + " " + b + " " + c;
}

struct MethodRun {
  std::string method;
  double wall = 0;        // loop and close (max over compute ranks)
  double loop_wall = 0;   // the loop alone
  double close = 0;       // the final close (servers: draining the frames in flight)
  std::vector<double> blocked, backpressure, pack, server_write, server_receive;
  std::vector<double> final_name;  // per file: from the frame that completed it to its final name
  std::int64_t frame_bytes = 0;
  std::int64_t compute_peak_rss = 0;  // VmHWM of the compute ranks during the method (max)
  std::int64_t server_peak_rss = 0;   // the same on the servers (servers-* methods)
  double compute_cpu = 0;             // CPU seconds (user + system) of a compute rank (max)
  double server_cpu = 0;              // CPU seconds of a server during the method (max)
  std::string mode;
};

double cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         1e-6 * static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

IoForm io_form_of(const std::string& method) {
  if (method.ends_with("io11")) return IoForm::Pnetcdf;
  if (method.ends_with("io2")) return IoForm::NetcdfSerial;
  return IoForm::Null;
}

OutputOptions stream_options(const LoopOptions& lo, const std::string& method, const std::string& dir) {
  OutputOptions o;
  o.output_dir = dir;
  o.io_form = io_form_of(method);
  o.frames_per_file = lo.frames_per_file;
  o.use_netcdf_classic = true;
  o.start_date = kStart;
  o.print_timing = false;
  o.hints.report = HintReport::Off;
  o.fsync_before_rename = lo.fsync && o.io_form != IoForm::Null;
  o.server_frames_in_flight = lo.in_flight;
  o.server_blocking_handoff = lo.blocking;
  o.server_message_bytes = static_cast<std::int64_t>(lo.message_mb * 1e6);
  return o;
}

// One method on the compute ranks `comm` (servers: their link). Returns the compute side's view.
MethodRun run_on(const LoopOptions& lo, const std::string& method, MPI_Comm comm, const IoServers* servers,
                 std::int64_t iterations, const std::string& dir) {
  MethodRun out;
  out.method = method;
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const auto [px, py] = wrf::choose_nproc(size);
  const Decomposition d = Decomposition::from_wrf(comm, wrf::split_domain(lo.e_we, lo.e_sn, lo.e_vert, px, py, rank));
  wrf::HistorySchemaOptions h;
  h.e_we = lo.e_we;
  h.e_sn = lo.e_sn;
  h.e_vert = lo.e_vert;
  h.nproc_x = px;
  h.nproc_y = py;
  const Schema schema = wrf::history_schema(h);
  std::unique_ptr<Writer> w;
  if (method != "none") {
    StreamBuilder b = servers ? StreamBuilder(comm, stream_options(lo, method, dir), *servers)
                              : StreamBuilder(comm, stream_options(lo, method, dir));
    b.set_domain(d);
    for (const DimSpec& dim : schema.dimensions()) b.add_dimension(dim.name, dim.length);
    for (const VarSpec& v : schema.variables()) b.add_variable(v);
    for (const Attribute& a : schema.global_attributes()) b.set_global_attribute(a);
    w = std::make_unique<Writer>(b.build());
  }
  synthetic::SyntheticModel model(d, w ? w->schema() : schema);
  model.fill(0);
  const std::int64_t start = wrf::date_to_seconds(kStart);
  const auto frame = [&](int n) {
    w->begin_frame(wrf::seconds_to_date(start + 3600 * n));
    model.put_all(*w);
    w->end_frame();
  };
  // A warm-up frame outside the timing: buffers allocated and touched as in a model's steady state.
  if (w) frame(0);
  idle_barrier(comm);
  const double t0 = MPI_Wtime();
  int frames = 1;
  for (int step = 1; step <= lo.steps; ++step) {
    busy(iterations);
    if (w && step % lo.every == 0) frame(frames++);
  }
  const double t1 = MPI_Wtime();
  if (w) w->close();
  const double t2 = MPI_Wtime();
  double t[3] = {t1 - t0, t2 - t1, t2 - t0};
  MPI_Allreduce(MPI_IN_PLACE, t, 3, MPI_DOUBLE, MPI_MAX, comm);
  out.loop_wall = t[0];
  out.close = t[1];
  out.wall = t[2];
  if (w) {
    const Statistics& st = w->statistics();
    for (std::size_t f = 1; f < st.frames.size(); ++f) {  // frame 0 was the warm-up
      const FrameStats& fs = st.frames[f];
      out.blocked.push_back(fs.total_seconds);
      if (fs.committed_after_seconds >= 0) out.final_name.push_back(fs.committed_after_seconds);
      out.pack.push_back(fs.reorder_seconds);
      out.backpressure.push_back(fs.backpressure_seconds);
      if (fs.server_group >= 0) {
        out.server_write.push_back(fs.server_write_seconds);
        out.server_receive.push_back(fs.server_receive_seconds);
      }
      out.frame_bytes = fs.bytes;
    }
    out.mode = st.backend + " " + st.gather + ", " + std::to_string(st.writer_ranks) + " writer rank(s)";
  }
  w.reset();
  if (rank == 0) {  // the files are not kept (a frame is ~450 MB)
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec)) fs::remove(e.path(), ec);
  }
  return out;
}

MethodRun run_method(const LoopOptions& lo, const std::string& method, std::int64_t iterations, const std::string& dir) {
  MPI_Comm world = MPI_COMM_WORLD;
  int rank = 0, size = 1;
  MPI_Comm_rank(world, &rank);
  MPI_Comm_size(world, &size);
  const int compute = size - lo.servers * lo.groups;
  MethodRun out;
  RssProbe::reset_peak();
  const double cpu0 = cpu_seconds();
  double cpu[2] = {0, 0};          // compute, server
  std::int64_t peaks[2] = {0, 0};  // compute, server
  if (method.starts_with("servers-")) {
    IoServers servers(world, lo.servers, lo.groups);
    if (!servers.is_server()) {
      out = run_on(lo, method, servers.compute_comm(), &servers, iterations, dir);
      servers.stop();
    }
    peaks[servers.is_server() ? 1 : 0] = RssProbe::peak_bytes();
    cpu[servers.is_server() ? 1 : 0] = cpu_seconds() - cpu0;
  } else {
    // The same compute ranks as with servers; the others wait.
    MPI_Comm comm = MPI_COMM_NULL;
    MPI_Comm_split(world, rank < compute ? 0 : MPI_UNDEFINED, rank, &comm);
    if (comm != MPI_COMM_NULL) {
      out = run_on(lo, method, comm, nullptr, iterations, dir);
      MPI_Comm_free(&comm);
      peaks[0] = RssProbe::peak_bytes();
      cpu[0] = cpu_seconds() - cpu0;
    }
  }
  idle_barrier(world);
  MPI_Allreduce(MPI_IN_PLACE, peaks, 2, MPI_INT64_T, MPI_MAX, world);
  MPI_Allreduce(MPI_IN_PLACE, cpu, 2, MPI_DOUBLE, MPI_MAX, world);
  out.compute_cpu = cpu[0];
  out.server_cpu = cpu[1];
  out.compute_peak_rss = peaks[0];
  out.server_peak_rss = peaks[1];
  return out;
}

nlohmann::ordered_json run_json(const MethodRun& r) {
  return {{"method", r.method},         {"mode", r.mode},
          {"wall_seconds", r.wall},     {"loop_seconds", r.loop_wall},
          {"close_seconds", r.close},   {"frame_bytes", r.frame_bytes},
          {"blocked_seconds", r.blocked}, {"pack_seconds", r.pack},
          {"backpressure_seconds", r.backpressure}, {"server_write_seconds", r.server_write},
          {"final_name_seconds", r.final_name},
          {"server_receive_seconds", r.server_receive},
          {"compute_peak_rss_bytes", r.compute_peak_rss}, {"server_peak_rss_bytes", r.server_peak_rss},
          {"compute_cpu_seconds", r.compute_cpu}, {"server_cpu_seconds", r.server_cpu}};
}

}  // namespace

int run_model_loop(int argc, char** argv) {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  LoopOptions lo;
  std::string methods;
  CLI::App app{"nwpio-bench model-loop: N steps of calibrated compute, a history frame every M steps; no output, "
               "synchronous nwpio and I/O servers in the same job (docs/IO_SERVERS.md)"};
  app.add_option("--steps", lo.steps, "model steps")->check(CLI::Range(1, 1 << 24));
  app.add_option("--every", lo.every, "a frame every M steps")->check(CLI::Range(1, 1 << 24));
  app.add_option("--step-seconds", lo.step_seconds, "compute per step, calibrated once (seconds)")->check(CLI::Range(0.0, 3600.0));
  app.add_option("--servers", lo.servers, "I/O server ranks per group (the last ranks)")->check(CLI::Range(1, 1 << 16));
  app.add_option("--groups", lo.groups, "I/O server groups")->check(CLI::Range(1, 1 << 16));
  app.add_option("--e-we", lo.e_we, "west-east staggered count (WRF frame of 202 variables)")->check(CLI::Range(3, 1 << 20));
  app.add_option("--e-sn", lo.e_sn, "south-north staggered count")->check(CLI::Range(3, 1 << 20));
  app.add_option("--e-vert", lo.e_vert, "vertical staggered count")->check(CLI::Range(3, 1 << 16));
  app.add_option("--repeat", lo.repeat, "repetitions (methods rotate)")->check(CLI::Range(1, 100));
  app.add_option("--in-flight", lo.in_flight, "server_frames_in_flight")->check(CLI::Range(1, 64));
  app.add_flag("--blocking", lo.blocking, "server_handoff = 'blocking'");
  app.add_option("--message-mb", lo.message_mb, "server_message_bytes in MB")->check(CLI::Range(0.001, 1000.0));
  app.add_flag("--fsync", lo.fsync, "fsync every file before its rename");
  app.add_option("--frames-per-file", lo.frames_per_file, "frames per file")->check(CLI::Range(1, 1 << 20));
  app.add_option("--methods", methods, "none,io0,io11,io2,servers-io0,servers-io11,servers-io2");
  app.add_option("--dir", lo.dir, "output directory")->required();
  app.add_option("--json", lo.json, "result file (rank 0)");
  tools::add_version_flag(app, "nwpio-bench");
  app.footer("Per method: wall (loop + final close), loop, close, and per frame (median over the timed frames) "
             "the model's blocked time, its pack, its wait for the servers, the servers' write time; peak RSS "
             "(VmHWM, reset per method) of the compute ranks and of the servers; CPU seconds (user + system, "
             "set-up included) of a compute rank and of a server.");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (rank == 0) app.exit(e);
    return e.get_exit_code();
  }
  if (!methods.empty()) {
    lo.methods.clear();
    std::stringstream in(methods);
    for (std::string m; std::getline(in, m, ',');) lo.methods.push_back(m);
  }
  if (size - lo.servers * lo.groups < 1) {
    if (rank == 0) std::cerr << "model-loop: " << size << " ranks leave no compute rank for the servers\n";
    return 2;
  }
  if (rank == 0) fs::create_directories(lo.dir);
  idle_barrier(MPI_COMM_WORLD);
  const std::string load_before = load_average();
  const std::int64_t iterations = static_cast<std::int64_t>(lo.step_seconds * static_cast<double>(calibrate(MPI_COMM_WORLD)));
  std::vector<MethodRun> runs;
  for (int rep = 0; rep < lo.repeat; ++rep) {
    for (std::size_t k = 0; k < lo.methods.size(); ++k) {
      const std::string& m = lo.methods[(k + static_cast<std::size_t>(rep)) % lo.methods.size()];
      runs.push_back(run_method(lo, m, iterations, lo.dir));
    }
  }
  if (rank != 0) return 0;
  const std::string load_after = load_average();
  std::printf("model-loop: %d ranks (%d compute + %d x %d servers), %d steps of %.3f s compute, a frame every %d "
              "steps, %d frame(s) per file, %d x %d x %d WRF frame, %s%s\n",
              size, size - lo.servers * lo.groups, lo.groups, lo.servers, lo.steps, lo.step_seconds, lo.every,
              lo.frames_per_file, lo.e_we, lo.e_sn, lo.e_vert, lo.dir.c_str(), lo.fsync ? " (fsync)" : "");
  std::printf("load average before %s, after %s\n", load_before.c_str(), load_after.c_str());
  std::printf("%-14s %8s %8s %7s %10s %10s %10s %12s %10s %7s %7s %7s %7s\n", "method", "wall s", "loop s", "close s",
              "blocked/fr", "pack/fr", "backpr/fr", "srv write/fr", "final name", "rss MB", "srv MB", "cpu s", "srv cpu");
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const MethodRun& r : runs) {
    std::printf("%-14s %8.3f %8.3f %7.3f %10.4f %10.4f %10.4f %12.4f %10.4f %7.0f %7.0f %7.2f %7.2f\n", r.method.c_str(),
                r.wall, r.loop_wall, r.close, median(r.blocked), median(r.pack), median(r.backpressure),
                median(r.server_write), median(r.final_name),
                static_cast<double>(r.compute_peak_rss) / 1e6, static_cast<double>(r.server_peak_rss) / 1e6, r.compute_cpu,
                r.server_cpu);
    list.push_back(run_json(r));
  }
  if (!lo.json.empty()) {
    nlohmann::ordered_json doc = {{"steps", lo.steps},       {"every", lo.every},     {"step_seconds", lo.step_seconds},
                                  {"ranks", size},           {"servers", lo.servers}, {"groups", lo.groups},
                                  {"grid", {lo.e_we, lo.e_sn, lo.e_vert}},           {"dir", lo.dir},
                                  {"fsync", lo.fsync},       {"in_flight", lo.in_flight}, {"blocking", lo.blocking},
                                  {"frames_per_file", lo.frames_per_file},
                                  {"message_mb", lo.message_mb},
                                  {"load_before", load_before}, {"load_after", load_after}, {"runs", list}};
    std::ofstream(lo.json) << doc.dump(2) << '\n';
  }
  return 0;
}

}  // namespace nwpio::bench
