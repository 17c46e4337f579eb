// Table and JSON of nwpio-bench (see report.hpp). Ratios use medians:
//   ratio_to_ceiling   = ceiling median seconds / method median seconds  (1 = as fast as raw MPI-IO)
//   ratio_to_wrf_style = wrf-style median seconds / method median seconds (2 = twice as fast as WRF)
#include "report.hpp"

#include <sys/statfs.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>

#include "nwpio/error.hpp"

namespace nwpio::bench {
namespace {

std::string fs_name(const std::string& dir) {
  struct statfs s{};
  if (::statfs(dir.c_str(), &s) != 0) return "unknown";
  static const std::map<long, std::string> names = {
      {0x01021994L, "tmpfs"}, {0xEF53L, "ext4"},       {0x58465342L, "xfs"},   {0x9123683EL, "btrfs"},
      {0x794c7630L, "overlay"}, {0x6969L, "nfs"},      {0x0BD00BD0L, "lustre"}, {0x47504653L, "gpfs"},
      {0x65735546L, "fuse"}};
  const auto it = names.find(static_cast<long>(s.f_type));
  if (it != names.end()) return it->second;
  char hex[32];
  std::snprintf(hex, sizeof hex, "0x%lx", static_cast<unsigned long>(s.f_type));
  return hex;
}

std::optional<double> ratio(const CaseResult& cr, const std::string& reference, const MethodResult& m) {
  const MethodResult* ref = cr.find(reference);
  if (!ref || m.median <= 0) return std::nullopt;
  return ref->median / m.median;
}

// The ceiling a method is measured against: the compressed methods (io_form 13 and WRF's
// compressed patterns) against ceiling-io13 when it ran, every other method against ceiling.
std::string ceiling_of(const CaseResult& cr, const MethodResult& m) {
  const bool compressed = m.method.find("io13") != std::string::npos || m.method == "wrf-io2";
  return compressed && m.method != "ceiling-io13" && cr.find("ceiling-io13") ? "ceiling-io13" : "ceiling";
}

double mb_per_s(const MethodResult& m) { return m.median > 0 ? static_cast<double>(m.bytes) / 1e6 / m.median : 0.0; }

std::int64_t max_of(const std::vector<std::int64_t>& v) {
  std::int64_t best = 0;
  for (auto x : v) best = std::max(best, x);
  return best;
}

}  // namespace

Environment probe_environment(const BenchOptions& options, MPI_Comm comm) {
  Environment env;
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &env.ranks);
  MPI_Comm node;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
  MPI_Comm_size(node, &env.ranks_per_node);
  int node_rank = 0;
  MPI_Comm_rank(node, &node_rank);
  MPI_Comm_free(&node);
  int leader = node_rank == 0 ? 1 : 0;
  MPI_Allreduce(&leader, &env.nodes, 1, MPI_INT, MPI_SUM, comm);
  env.cores = ::sysconf(_SC_NPROCESSORS_ONLN);
  int most = env.ranks_per_node;
  MPI_Allreduce(MPI_IN_PLACE, &most, 1, MPI_INT, MPI_MAX, comm);
  env.ranks_per_node = most;
  env.ranks_exceed_cores = env.ranks_per_node > env.cores;
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  env.host = host;
  env.file_system = fs_name(options.dir);
  char version[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int len = 0;
  MPI_Get_library_version(version, &len);
  env.mpi_library = std::string(version, static_cast<std::size_t>(len));
  if (auto nl = env.mpi_library.find('\n'); nl != std::string::npos) env.mpi_library.resize(nl);
  while (!env.mpi_library.empty() && (env.mpi_library.back() == ',' || env.mpi_library.back() == ' ')) env.mpi_library.pop_back();
  return env;
}

void print_table(const std::vector<CaseResult>& results, const Environment& env, const BenchOptions& o) {
  std::printf("nwpio-bench: workload %s, %d rank(s) on %d node(s), %ld core(s) per node, dir %s (%s)%s, %d repetition(s)\n",
              o.workload.c_str(), env.ranks, env.nodes, env.cores, o.dir.c_str(), env.file_system.c_str(),
              o.fsync ? ", --fsync" : "", o.repeat);
  if (env.ranks_exceed_cores) {
    std::printf("NOTE: %d ranks per node exceed the %ld cores: ranks time-share cores, timings include it\n",
                env.ranks_per_node, env.cores);
  }
  for (const CaseResult& cr : results) {
    const Case& c = cr.bench_case;
    std::printf("\n%s: grid %d x %d x %d (staggered), %d x %d ranks, %zu variables, frame %.1f MB\n", c.label.c_str(), c.e_we,
                c.e_sn, c.e_vert, c.nproc_x, c.nproc_y, c.schema.variables().size() + 1,
                static_cast<double>(c.frame_bytes) / 1e6);
    std::printf("%-27s %12s %9s %19s %9s %9s %10s %12s\n", "method", "bytes", "median s", "min-max s", "MB/s", "x ceiling",
                "x wrf-style", "peak RSS MB");
    for (const MethodResult& m : cr.methods) {
      const auto rc = ratio(cr, ceiling_of(cr, m), m), rw = ratio(cr, "wrf-style", m);
      char rcs[16] = "-", rws[16] = "-", range[40];
      if (rc) std::snprintf(rcs, sizeof rcs, "%.2f", *rc);
      if (rw) std::snprintf(rws, sizeof rws, "%.2f", *rw);
      std::snprintf(range, sizeof range, "%.4f-%.4f", m.min, m.max);
      const std::string label = m.best_of.empty() ? m.method : m.method + " =" + m.best_of;
      std::printf("%-27s %12lld %9.4f %19s %9.1f %9s %10s %12.1f%s\n", label.c_str(), static_cast<long long>(m.bytes),
                  m.median, range, mb_per_s(m), rcs, rws, static_cast<double>(max_of(m.peak_rss_per_rank)) / 1e6,
                  m.verify_ok ? "" : "  VERIFY FAILED");
    }
    // What the model sees of the nwpio methods: the timed seconds above run until the file has its
    // final name; the model was blocked only from begin_frame to end_frame.
    bool header = false;
    for (const MethodResult& m : cr.methods) {
      const auto blocked = m.phases_median.find("blocked");
      if (blocked == m.phases_median.end()) continue;
      if (!header) {
        std::printf("%-27s %14s %16s %10s\n", "  (the model's view)", "blocked s", "final name s", "x blocked");
        header = true;
      }
      const auto final_name = m.phases_median.find("final_name");
      std::printf("  %-25s %14.4f %16.4f %10.2f\n", m.method.c_str(), blocked->second,
                  final_name == m.phases_median.end() ? 0.0 : final_name->second,
                  blocked->second > 0 ? m.median / blocked->second : 0.0);
    }
    if (header) {
      std::printf("  blocked: begin_frame .. end_frame; final name: from the frame's end until the file carried its "
                  "final name (medians)\n");
    }
    if (cr.find("ceiling-io13")) {
      std::printf("x ceiling of nwpio-io13*, wrf-io13 and wrf-io2: against ceiling-io13 (deflate 2 + shuffle of the frame "
                  "on these ranks, nothing else)\n");
    }
  }
  std::fflush(stdout);
}

void write_json(const std::string& path, const std::vector<CaseResult>& results, const Environment& env,
                const BenchOptions& o, const RunInfo& info) {
  using nlohmann::json;
  json j;
  json res = json::array();
  json cases = json::array();
  for (const CaseResult& cr : results) {
    const Case& c = cr.bench_case;
    json cj = {{"label", c.label},
               {"e_we", c.e_we},
               {"e_sn", c.e_sn},
               {"e_vert", c.e_vert},
               {"mass_points", {c.e_we - 1, c.e_sn - 1, c.e_vert - 1}},
               {"nproc_x", c.nproc_x},
               {"nproc_y", c.nproc_y},
               {"variables", c.schema.variables().size() + 1},
               {"frame_bytes", c.frame_bytes},
               {"largest_variable_bytes", cr.largest_variable_bytes},
               {"model_bytes_per_rank", cr.model_bytes_per_rank},
               {"baseline_rss_bytes_per_rank", cr.baseline_rss_per_rank}};
    if (!c.shape.empty()) {
      cj["shape"] = c.shape;
      cj["type"] = c.type;
    }
    cases.push_back(cj);
    for (const MethodResult& m : cr.methods) {
      const auto rc = ratio(cr, ceiling_of(cr, m), m), rw = ratio(cr, "wrf-style", m);
      json r = {{"case", c.label},
                {"method", m.method},
                {"bytes", m.bytes},
                {"bytes_stable", m.bytes_stable},
                {"seconds_median", m.median},
                {"seconds_min", m.min},
                {"seconds_max", m.max},
                {"seconds", m.seconds},
                {"mb_per_s", mb_per_s(m)},
                {"ratio_to_ceiling", rc ? json(*rc) : json(nullptr)},
                {"ceiling", ceiling_of(cr, m)},
                {"ratio_to_wrf_style", rw ? json(*rw) : json(nullptr)},
                {"peak_rss_bytes", max_of(m.peak_rss_per_rank)},
                {"peak_rss_bytes_per_rank", m.peak_rss_per_rank},
                {"rss_growth_bytes_per_rank", m.rss_growth_per_rank},
                {"rss_shmem_bytes_per_rank", m.rss_shmem_per_rank},
                {"pss_bytes_per_rank", m.pss_per_rank},
                {"process_maxrss_bytes", m.process_maxrss},
                {"buffer_bytes", m.buffer_bytes},
                {"file_bytes", m.file_bytes},
                {"mode", m.mode},
                {"phases_median_seconds", m.phases_median}};
      if (!m.best_of.empty()) r["best_of"] = m.best_of;
      if (o.verify) {
        r["verify"] = m.verify;
        r["verify_ok"] = m.verify_ok;
      }
      res.push_back(r);
    }
  }
  j["results"] = res;
  json hints = json::object();
  json mpiio = {{"library", env.mpi_library}};
  if (!info.hints_report_json.empty()) {
    try {
      const json report = json::parse(info.hints_report_json);
      if (report.contains("mpi")) mpiio = report["mpi"];
      json settings = json::object();
      for (const auto& e : report.value("settings", json::array())) {
        settings[e.value("name", "?")] = e.value("value", "") + " (" + e.value("status", "") + ")";
      }
      hints = {{"profile", report.value("profile", json::object())},
               {"info", report.value("info", json::object())},
               {"settings", settings}};
    } catch (const json::exception&) {
      hints = {{"report", info.hints_report_json}};
    }
  }
  j["config"] = {
      {"ranks", env.ranks},
      {"nodes", env.nodes},
      {"ranks_per_node", env.ranks_per_node},
      {"cores", env.cores},
      {"ranks_exceed_cores", env.ranks_exceed_cores},
      {"host", env.host},
      {"dir", o.dir},
      {"file_system", env.file_system},
      {"workload", o.workload},
      {"scale", o.scale},
      {"grid", results.empty() ? json(nullptr)
                               : json({{"e_we", results[0].bench_case.e_we},
                                       {"e_sn", results[0].bench_case.e_sn},
                                       {"e_vert", results[0].bench_case.e_vert}})},
      {"repeat", o.repeat},
      {"warmup", o.warmup},
      {"frames_per_file", o.frames_per_file},
      {"round_mb", o.round_mb},
      {"fsync", o.fsync},
      {"methods", o.methods},
      {"mpiio", mpiio},
      {"hint_profile", hints},
      {"rss_method", info.rss_reset ? "VmHWM reset before each method (/proc/self/clear_refs): peak while the method ran"
                                    : "getrusage ru_maxrss: process maximum so far (methods run earlier included)"},
      {"timing",
       "per repetition: barrier, MPI_Wtime, file create .. close (nwpio: begin_frame .. the file under its final "
       "name), barrier; max over ranks; methods alternate round-robin; nwpio's phases 'blocked' (begin_frame .. "
       "end_frame) and 'final_name' (frame end .. final name)"}};
  j["cases"] = cases;
  std::ofstream out(path);
  out << j.dump(2) << "\n";
  if (!out) throw Error(ErrorKind::Io, "cannot write " + path);
}

}  // namespace nwpio::bench
