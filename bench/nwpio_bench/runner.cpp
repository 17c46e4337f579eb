// The measurement loop (see runner.hpp).
#include "runner.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>

#include "hints/hint_session.hpp"
#include "memory.hpp"
#include "method.hpp"
#include "nwpio/decomposition.hpp"
#include "nwpio/wrf_decompose.hpp"
#include "raw_variants.hpp"
#include "util/agree.hpp"
#include "util/mpi_call.hpp"
#include "workload_real.hpp"

namespace nwpio::bench {

std::unique_ptr<Method> make_writer_method(const std::string& name);
std::unique_ptr<Method> make_wrf_style_method();
std::unique_ptr<Method> make_reorder_method(bool datatype);
std::unique_ptr<Method> make_wrf_netcdf_method(const std::string& name);
std::unique_ptr<Method> make_deflate_ceiling_method();
std::unique_ptr<Method> make_network_method();
#ifdef NWPIO_HAVE_ADIOS2
std::unique_ptr<Method> make_adios2_method(const std::string& name);
#endif

namespace {

using detail::mpi_check;

std::unique_ptr<Method> make_method(const std::string& name) {
  if (auto m = make_writer_method(name)) return m;
  if (name == "wrf-style") return make_wrf_style_method();
  if (auto m = make_raw_variant_method(name)) return m;
  if (name == "reorder-pack") return make_reorder_method(false);
  if (name == "reorder-datatype") return make_reorder_method(true);
  if (auto m = make_wrf_netcdf_method(name)) return m;
  if (name == "ceiling-io13") return make_deflate_ceiling_method();
  if (name == "network") return make_network_method();
#ifdef NWPIO_HAVE_ADIOS2
  if (auto m = make_adios2_method(name)) return m;
#else
  if (name.rfind("adios2-", 0) == 0) {
    throw Error(ErrorKind::InvalidArgument, "method " + name + ": nwpio-bench was built without ADIOS2 (build it with "
                                            "scripts/build-adios2.sh, configure with -DCMAKE_PREFIX_PATH=<its prefix>)");
  }
#endif
  throw Error(ErrorKind::InvalidArgument, "unknown method " + name);
}

std::vector<std::int64_t> gather_all(MPI_Comm comm, std::int64_t value, int size) {
  std::vector<std::int64_t> all(static_cast<std::size_t>(size));
  mpi_check(MPI_Allgather(&value, 1, MPI_INT64_T, all.data(), 1, MPI_INT64_T, comm), "MPI_Allgather");
  return all;
}

// Rank 0 removes every file in the run directory (untimed), then syncs the file system
// (syncfs: a no-op on tmpfs), so that no method starts while the kernel is still writing back
// or freeing what the previous one left behind; then all ranks meet.
void clean_dir(MPI_Comm comm, int rank, const std::string& dir) {
  if (rank == 0) {
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator(dir, ec)) std::filesystem::remove_all(e.path(), ec);
    const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY);
    if (fd >= 0) {
      ::syncfs(fd);
      ::close(fd);
    }
  }
  mpi_check(MPI_Barrier(comm), "MPI_Barrier");
}

std::int64_t largest_variable(const Case& c) {
  std::int64_t best = 0;
  for (const VarSpec& v : c.schema.variables()) {
    Schema one;
    for (const DimSpec& d : c.schema.dimensions()) one.add_dimension(d.name, d.length);
    one.add_variable(v);
    best = std::max(best, schema_frame_bytes(one, c.e_we, c.e_sn, c.e_vert) - 19);
  }
  return best;
}

struct MethodState {
  std::unique_ptr<Method> method;
  MethodResult result;
  std::vector<std::map<std::string, double>> phases;
};

// One repetition of one method: set-up, timed frame, bookkeeping, clean-up.
void run_one(MethodState& st, const CaseContext& ctx, int rep, RunInfo& info) {
  MPI_Comm comm = ctx.comm;
  const bool reset = RssProbe::reset_peak();
  int all_reset = reset ? 1 : 0;
  mpi_check(MPI_Allreduce(MPI_IN_PLACE, &all_reset, 1, MPI_INT, MPI_MIN, comm), "MPI_Allreduce");
  info.rss_reset = all_reset == 1;
  const std::int64_t before = RssProbe::current_bytes();
  detail::run_and_agree(comm, [&] { st.method->prepare(ctx, rep); });

  std::optional<Error> failed;
  mpi_check(MPI_Barrier(comm), "MPI_Barrier");
  const double t0 = MPI_Wtime();
  try {
    st.method->run(ctx, rep);
  } catch (const Error& e) {
    failed = e;
  } catch (const std::exception& e) {
    failed = Error(ErrorKind::Internal, e.what());
  }
  mpi_check(MPI_Barrier(comm), "MPI_Barrier");
  double dt = MPI_Wtime() - t0;
  detail::agree(comm, failed);
  mpi_check(MPI_Allreduce(MPI_IN_PLACE, &dt, 1, MPI_DOUBLE, MPI_MAX, comm), "MPI_Allreduce(time)");

  const std::int64_t peak = info.rss_reset ? RssProbe::peak_bytes() : RssProbe::process_max_bytes();
  // Shared memory (the writers' slabs) is counted in the RSS of every rank that touched it.
  const std::int64_t shmem = RssProbe::shared_bytes();
  const std::int64_t pss = RssProbe::proportional_bytes();
  RunOutcome out;
  detail::run_and_agree(comm, [&] { out = st.method->finish(ctx); });
  MethodResult& r = st.result;
  r.seconds.push_back(dt);
  if (r.seconds.size() == 1) {
    r.bytes = out.bytes;
    r.mode = out.mode;
  } else if (r.bytes != out.bytes) {
    r.bytes_stable = false;
  }
  r.buffer_bytes = std::max(r.buffer_bytes, out.buffer_bytes);
  st.phases.push_back(out.phases);
  const auto peaks = gather_all(comm, peak, ctx.size);
  const auto growth = gather_all(comm, peak - before, ctx.size);
  const auto shared = gather_all(comm, shmem, ctx.size);
  const auto proportional = gather_all(comm, pss, ctx.size);
  r.rss_shmem_per_rank.resize(shared.size(), 0);
  r.pss_per_rank.resize(proportional.size(), 0);
  for (std::size_t i = 0; i < shared.size(); ++i) {
    r.rss_shmem_per_rank[i] = std::max(r.rss_shmem_per_rank[i], shared[i]);
    r.pss_per_rank[i] = std::max(r.pss_per_rank[i], proportional[i]);
  }
  r.peak_rss_per_rank.resize(peaks.size(), 0);
  r.rss_growth_per_rank.resize(peaks.size(), 0);
  for (std::size_t i = 0; i < peaks.size(); ++i) {
    r.peak_rss_per_rank[i] = std::max(r.peak_rss_per_rank[i], peaks[i]);
    r.rss_growth_per_rank[i] = std::max(r.rss_growth_per_rank[i], growth[i]);
  }
  r.process_maxrss = 0;
  for (auto v : gather_all(comm, RssProbe::process_max_bytes(), ctx.size)) r.process_maxrss = std::max(r.process_maxrss, v);

  // The file as written: its size (first repetition), and with --verify every value read back.
  if (rep == 0 && !out.file.empty()) {
    int ok = 1;
    std::string summary;
    if (ctx.rank == 0) {
      struct stat sb{};
      r.file_bytes = ::stat(out.file.c_str(), &sb) == 0 ? static_cast<std::int64_t>(sb.st_size) : -2;
      if (ctx.options->verify) {
        if (out.self_checked) {
          summary = out.self_check;
        } else if (st.method->writes_netcdf()) {
          try {
            const auto v = ctx.bench_case->real_fields
                               ? verify_real_file(out.file, ctx.bench_case->schema,
                                                  real_file_tolerance(st.method->name()))
                               : synthetic::verify_file(out.file, ctx.bench_case->schema, 0);
            ok = v.ok ? 1 : 0;
            summary = v.summary();
          } catch (const std::exception& e) {
            ok = 0;
            summary = std::string("error: ") + e.what();
          }
        } else {
          ok = r.file_bytes == out.bytes ? 1 : 0;
          summary = "raw file of " + std::to_string(r.file_bytes) + " bytes";
        }
      }
    }
    mpi_check(MPI_Bcast(&ok, 1, MPI_INT, 0, comm), "MPI_Bcast");
    r.verify = summary;
    r.verify_ok = ok == 1;
  }
  clean_dir(comm, ctx.rank, ctx.dir);
}

// `ceiling` and `netcdf-floor` name families of raw variants (raw_variants.hpp): every variant
// runs as a method of its own, in the same alternating repetitions as the others.
std::vector<std::string> expand_methods(const std::vector<std::string>& names) {
  std::vector<std::string> out;
  for (const std::string& name : names) {
    if (name == "ceiling" || name == "netcdf-floor") {
      for (const auto& v : raw_method_names(name == "netcdf-floor")) out.push_back(v);
    } else {
      out.push_back(name);
    }
  }
  return out;
}

// The row `name` of a case: the fastest (lowest median) of the methods starting with one of
// `prefixes`, its numbers as measured, its mode saying which variant it is.
void add_best_of(std::vector<MethodResult>& methods, const std::string& name, const std::vector<std::string>& prefixes) {
  const MethodResult* best = nullptr;
  int candidates = 0;
  for (const MethodResult& m : methods) {
    const bool candidate = std::any_of(prefixes.begin(), prefixes.end(),
                                       [&](const std::string& p) { return m.method.rfind(p, 0) == 0; });
    if (!candidate) continue;
    ++candidates;
    if (!best || m.median < best->median) best = &m;
  }
  if (!best) return;
  MethodResult row = *best;
  row.method = name;
  row.best_of = best->method;
  row.mode = "fastest of " + std::to_string(candidates) + " variants: " + best->method + " (" + best->mode + ")";
  methods.push_back(std::move(row));
}

void summarize(MethodState& st) {
  MethodResult& r = st.result;
  r.median = median_of(r.seconds);
  r.min = *std::min_element(r.seconds.begin(), r.seconds.end());
  r.max = *std::max_element(r.seconds.begin(), r.seconds.end());
  std::map<std::string, std::vector<double>> by_phase;
  for (const auto& p : st.phases) {
    for (const auto& [k, v] : p) by_phase[k].push_back(v);
  }
  for (auto& [k, v] : by_phase) r.phases_median[k] = median_of(v);
}

}  // namespace

double median_of(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

const MethodResult* CaseResult::find(const std::string& name) const {
  for (const auto& m : methods) {
    if (m.method == name) return &m;
  }
  return nullptr;
}

std::vector<CaseResult> run_all(const BenchOptions& options, std::vector<Case> cases, MPI_Comm comm, RunInfo& info) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  // A run directory of its own inside --dir, removed at the end.
  std::string run_dir;
  detail::run_and_agree(comm, [&] {
    if (rank == 0) {
      std::filesystem::create_directories(options.dir);
      run_dir = (std::filesystem::path(options.dir) / ("nwpio-bench." + std::to_string(::getpid()))).string();
      std::filesystem::create_directory(run_dir);
    }
  });
  int len = static_cast<int>(run_dir.size());
  mpi_check(MPI_Bcast(&len, 1, MPI_INT, 0, comm), "MPI_Bcast");
  run_dir.resize(static_cast<std::size_t>(len));
  mpi_check(MPI_Bcast(run_dir.data(), len, MPI_CHAR, 0, comm), "MPI_Bcast");
  info.run_dir = run_dir;

  HintOptions hints;
  hints.profile_file = options.hints_file;
  hints.profile = options.hints_profile;
  hints.report = HintReport::Off;
  for (const auto& h : options.hints) hints.overrides[h.substr(0, h.find('='))] = h.substr(h.find('=') + 1);

  std::vector<CaseResult> results;
  for (Case& c : cases) {
    CaseResult cr;
    WrfBounds bounds{};
    detail::run_and_agree(comm, [&] {
      bounds = wrf::split_domain(c.e_we, c.e_sn, c.e_vert, c.nproc_x, c.nproc_y, rank, 3);
    });
    const Decomposition decomposition = Decomposition::from_wrf(comm, bounds);
    cr.baseline_rss_per_rank = gather_all(comm, RssProbe::current_bytes(), size);
    std::unique_ptr<synthetic::SyntheticModel> model;
    detail::run_and_agree(comm, [&] {
      model = std::make_unique<synthetic::SyntheticModel>(decomposition, c.schema);
      model->fill(0);
      if (c.real_fields) fill_real_fields(*model, decomposition);
    });
    cr.model_bytes_per_rank = gather_all(comm, model->memory_bytes(), size);
    cr.largest_variable_bytes = largest_variable(c);
    detail::HintSession frame_hints, slab_hints;
    detail::run_and_agree(comm, [&] {
      frame_hints = detail::HintSession::resolve(hints, IoForm::Pnetcdf, comm, c.frame_bytes + (64 << 10));
    });
    detail::run_and_agree(comm, [&] {
      slab_hints = detail::HintSession::resolve(hints, IoForm::Pnetcdf, comm, c.frame_bytes + (64 << 10), true);
    });
    if (info.hints_report_json.empty()) {
      std::string report = frame_hints.verify_and_report(run_dir, detail::LayoutFacts{});
      if (rank == 0) info.hints_report_json = report;
    }

    CaseContext ctx;
    ctx.options = &options;
    ctx.bench_case = &c;
    ctx.decomposition = &decomposition;
    ctx.model = model.get();
    ctx.dir = run_dir;
    ctx.comm = comm;
    ctx.rank = rank;
    ctx.size = size;
    ctx.info = frame_hints.info();
    ctx.info_slabs = slab_hints.info();

    std::vector<MethodState> states;
    for (const std::string& name : expand_methods(options.methods)) {
      MethodState st;
      st.method = make_method(name);
      st.result.method = name;
      states.push_back(std::move(st));
    }
    const std::size_t n = states.size();
    for (int rep = 0; rep < options.repeat; ++rep) {
      for (std::size_t i = 0; i < n; ++i) {
        MethodState& st = states[(i + static_cast<std::size_t>(rep)) % n];
        if (rank == 0) std::cerr << "nwpio-bench: " << c.label << ": " << st.result.method << " repetition " << rep + 1 << "/" << options.repeat << "\n";
        run_one(st, ctx, rep, info);
      }
    }
    for (MethodState& st : states) {
      summarize(st);
      cr.methods.push_back(std::move(st.result));
    }
    // The ceiling is the fastest measured write of the frame's bytes: a floor-* run writes as
    // many bytes after more work, so one faster than every raw-* run (noise, at small frames)
    // still shows how fast the write can be, and bounds the floor by construction.
    add_best_of(cr.methods, "ceiling", {"raw-", "floor-"});
    add_best_of(cr.methods, "netcdf-floor", {"floor-"});
    cr.bench_case = std::move(c);
    results.push_back(std::move(cr));
  }
  if (rank == 0) {
    std::error_code ec;
    std::filesystem::remove_all(run_dir, ec);
  }
  mpi_check(MPI_Barrier(comm), "MPI_Barrier");
  return results;
}

}  // namespace nwpio::bench
