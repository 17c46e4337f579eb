// nwpio-gather-bench: how should patches reach the collective write? Writes the WRF history
// frame (the 201-variable table of include/nwpio/wrf_history.hpp, 426x301x36 by default) in
// the same run, interleaved, several repetitions, and reports medians as ratios to a raw
// MPI_File_write_at_all of the same bytes:
//   raw          every rank writes its share of the record bytes, contiguous, one call
//   wrf          WRF's io_form 11 pattern: per variable a transpose copy and one blocking
//                ncmpi_put_vara_*_all (about 200 collectives per frame)
//   direct-pack  nwpio, GatherMode::Direct, ReorderMode::Pack (one iput per variable, one wait)
//   direct-dtype nwpio, GatherMode::Direct, ReorderMode::Datatype (PnetCDF flexible API)
//   rearrange    nwpio, GatherMode::Rearrange (contiguous slabs per writer, one wait per round)
//   <mode>-cb, <mode>-nocb  the same with the hint collective_write=true / false (two-phase
//                collective buffering; nwpio switches it off by itself for rearrange)
// plus the reorder alone: pack_rows into a buffer vs MPI_Pack with the derived datatype.
// Every timed step includes file create and close; the numbers are max over ranks.
#include <mpi.h>
#include <pnetcdf.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "backend/pnetcdf/pnetcdf_check.hpp"
#include "core/file_layout.hpp"
#include "core/pack.hpp"
#include "nwpio/nwpio.hpp"
#include "nwpio/wrf_decompose.hpp"
#include "nwpio/wrf_history.hpp"
#include "util/mpi_call.hpp"

namespace {

using namespace nwpio;
using detail::mpi_check;
using detail::pnetcdf_check;

struct Args {
  int e_we = 426, e_sn = 301, e_vert = 36;
  int nproc_x = 0, nproc_y = 0;
  int reps = 3;
  std::string dir = "/dev/shm/nwpio-gather-bench";
  std::string modes = "raw,wrf,direct-pack,direct-dtype,rearrange";
};

Args parse(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    const std::string k = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "%s needs a value\n", k.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (k == "--e-we") a.e_we = std::stoi(next());
    else if (k == "--e-sn") a.e_sn = std::stoi(next());
    else if (k == "--e-vert") a.e_vert = std::stoi(next());
    else if (k == "--nproc-x") a.nproc_x = std::stoi(next());
    else if (k == "--nproc-y") a.nproc_y = std::stoi(next());
    else if (k == "--reps") a.reps = std::stoi(next());
    else if (k == "--dir") a.dir = next();
    else if (k == "--modes") a.modes = next();
    else {
      std::printf(
          "usage: nwpio-gather-bench [--e-we N --e-sn N --e-vert N] [--nproc-x N --nproc-y N] [--reps N]\n"
          "                          [--dir DIR] [--modes raw,wrf,direct-pack,direct-dtype,rearrange, <mode>-cb, <mode>-nocb]\n");
      std::exit(k == "--help" ? 0 : 2);
    }
  }
  return a;
}

double max_over_ranks(double x, MPI_Comm comm) {
  double m = 0;
  MPI_Allreduce(&x, &m, 1, MPI_DOUBLE, MPI_MAX, comm);
  return m;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

// The model: one array per variable with halos, as WRF allocates it.
struct Model {
  Decomposition d;
  Schema schema;
  detail::StreamLayout layout;
  std::vector<std::vector<std::byte>> arrays;
};

Model make_model(const Args& a, MPI_Comm comm) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  auto [px, py] = wrf::choose_nproc(size);
  if (a.nproc_x > 0) {
    px = a.nproc_x;
    py = a.nproc_y > 0 ? a.nproc_y : size / px;
  }
  wrf::HistorySchemaOptions ho;
  ho.e_we = a.e_we;
  ho.e_sn = a.e_sn;
  ho.e_vert = a.e_vert;
  ho.nproc_x = px;
  ho.nproc_y = py;
  Model m{Decomposition::from_wrf(comm, wrf::split_domain(a.e_we, a.e_sn, a.e_vert, px, py, rank, 3)),
          wrf::history_schema(ho), {}, {}};
  OutputOptions o;
  m.layout = detail::build_stream_layout(m.schema, m.d, o);
  const Box& mem = m.d.memory();
  for (const detail::FieldGeometry& g : m.layout.fields) {
    const VarSpec& spec = m.schema.variables()[static_cast<std::size_t>(g.schema_index)];
    const std::int64_t nk = spec.vertical_dim.empty() ? mem.extent(kAxisK) : g.nk;
    std::int64_t n = 1;
    if (is_3d(g.order)) n = mem.extent(kAxisI) * mem.extent(kAxisJ) * nk;
    if (g.order == MemoryOrder::XY) n = mem.extent(kAxisI) * mem.extent(kAxisJ);
    if (g.order == MemoryOrder::Z) n = nk;
    std::vector<std::byte> buf(static_cast<std::size_t>(n) * g.elem);
    for (std::size_t b = 0; b < buf.size(); ++b) buf[b] = static_cast<std::byte>((b * 7 + static_cast<std::size_t>(g.varid)) & 0x3f);
    m.arrays.push_back(std::move(buf));
  }
  return m;
}

std::int64_t my_patch_bytes(const Model& m) {
  std::int64_t n = 0;
  for (const auto& g : m.layout.fields) {
    if (g.decomposed) n += g.file_boxes[static_cast<std::size_t>(m.d.rank())].volume() * static_cast<std::int64_t>(g.elem);
  }
  return n;
}

// --- raw MPI-IO: the ceiling ---------------------------------------------------------------
double run_raw(const Model& m, const std::string& path, std::vector<std::byte>& buf) {
  MPI_Comm comm = m.d.comm();
  const std::int64_t mine = my_patch_bytes(m);
  if (buf.size() < static_cast<std::size_t>(mine)) buf.assign(static_cast<std::size_t>(mine), std::byte{1});
  std::int64_t offset = 0;
  MPI_Exscan(&mine, &offset, 1, MPI_INT64_T, MPI_SUM, comm);
  if (m.d.rank() == 0) offset = 0;
  MPI_Barrier(comm);
  const double t0 = MPI_Wtime();
  MPI_File fh;
  mpi_check(MPI_File_open(comm, path.c_str(), MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh), "MPI_File_open");
  // Same number of collective calls on every rank: pieces under 1 GiB.
  const std::int64_t piece = std::int64_t{1} << 30;
  std::int64_t calls = (mine + piece - 1) / piece, all_calls = 0;
  MPI_Allreduce(&calls, &all_calls, 1, MPI_INT64_T, MPI_MAX, comm);
  for (std::int64_t c = 0; c < all_calls; ++c) {
    const std::int64_t lo = std::min(mine, c * piece), n = std::min(piece, mine - lo);
    mpi_check(MPI_File_write_at_all(fh, offset + lo, buf.data() + lo, static_cast<int>(n), MPI_BYTE, MPI_STATUS_IGNORE),
              "MPI_File_write_at_all");
  }
  mpi_check(MPI_File_close(&fh), "MPI_File_close");
  return max_over_ranks(MPI_Wtime() - t0, comm);
}

// --- WRF's pattern: transpose copy + one blocking collective per variable --------------------
double run_wrf(const Model& m, const std::string& path, std::vector<std::byte>& buf) {
  MPI_Comm comm = m.d.comm();
  const auto& file = m.layout.file;
  MPI_Barrier(comm);
  const double t0 = MPI_Wtime();
  int ncid = -1;
  pnetcdf_check(ncmpi_create(comm, path.c_str(), NC_CLOBBER | NC_64BIT_OFFSET, MPI_INFO_NULL, &ncid), "ncmpi_create", path);
  std::vector<int> dimids;
  for (const auto& d : file.dims) {
    int id = 0;
    pnetcdf_check(ncmpi_def_dim(ncid, d.name.c_str(), d.length == 0 ? NC_UNLIMITED : d.length, &id), "ncmpi_def_dim", path);
    dimids.push_back(id);
  }
  static const std::map<DataType, nc_type> types = {
      {DataType::Float, NC_FLOAT}, {DataType::Double, NC_DOUBLE}, {DataType::Int, NC_INT}, {DataType::Char, NC_CHAR}};
  for (const auto& v : file.vars) {
    std::vector<int> ids;
    for (int d : v.dims) ids.push_back(dimids[static_cast<std::size_t>(d)]);
    int varid = 0;
    pnetcdf_check(ncmpi_def_var(ncid, v.name.c_str(), types.at(v.type), static_cast<int>(ids.size()), ids.data(), &varid),
                  "ncmpi_def_var", path);
  }
  int old = 0;
  ncmpi_set_fill(ncid, NC_NOFILL, &old);
  pnetcdf_check(ncmpi_enddef(ncid), "ncmpi_enddef", path);
  const char date[] = "2019-06-01_00:00:00";
  MPI_Offset ts[2] = {0, 0}, tc[2] = {1, m.d.rank() == 0 ? 19 : 0};
  pnetcdf_check(ncmpi_put_vara_text_all(ncid, 0, ts, tc, date), "ncmpi_put_vara_text_all", path);
  const auto me = static_cast<std::size_t>(m.d.rank());
  for (const auto& g : m.layout.fields) {
    const std::byte* src = m.arrays[static_cast<std::size_t>(g.schema_index)].data();
    Box box;
    if (g.decomposed) {
      box = g.file_boxes[me];
    } else {
      box.hi = {1, 1, m.d.rank() == 0 ? g.nk : 0};
    }
    const std::size_t bytes = static_cast<std::size_t>(box.volume()) * g.elem;
    if (buf.size() < bytes) buf.resize(bytes);
    if (g.decomposed) {
      detail::pack_rows(g, src, box, 0, g.rows(), buf.data());
    } else if (bytes > 0) {
      std::memcpy(buf.data(), src + g.mem_origin * static_cast<std::int64_t>(g.elem), bytes);
    }
    std::vector<MPI_Offset> st = {0}, ct = {1};
    if (is_3d(g.order) || g.order == MemoryOrder::Z) {
      st.push_back(box.lo[kAxisK]);
      ct.push_back(box.extent(kAxisK));
    }
    if (g.decomposed) {
      st.insert(st.end(), {box.lo[kAxisJ], box.lo[kAxisI]});
      ct.insert(ct.end(), {box.extent(kAxisJ), box.extent(kAxisI)});
    }
    if (g.order == MemoryOrder::Scalar && m.d.rank() != 0) ct[0] = 0;
    int rc = NC_NOERR;
    switch (g.type) {
      case DataType::Float: rc = ncmpi_put_vara_float_all(ncid, g.varid, st.data(), ct.data(), reinterpret_cast<float*>(buf.data())); break;
      case DataType::Double: rc = ncmpi_put_vara_double_all(ncid, g.varid, st.data(), ct.data(), reinterpret_cast<double*>(buf.data())); break;
      case DataType::Int: rc = ncmpi_put_vara_int_all(ncid, g.varid, st.data(), ct.data(), reinterpret_cast<int*>(buf.data())); break;
      case DataType::Char: rc = ncmpi_put_vara_text_all(ncid, g.varid, st.data(), ct.data(), reinterpret_cast<char*>(buf.data())); break;
    }
    pnetcdf_check(rc, "ncmpi_put_vara_all(" + g.name + ")", path);
  }
  pnetcdf_check(ncmpi_close(ncid), "ncmpi_close", path);
  return max_over_ranks(MPI_Wtime() - t0, comm);
}

// --- nwpio ---------------------------------------------------------------------------------
struct NwpioResult {
  double seconds = 0;
  FrameStats frame;
};

NwpioResult run_nwpio(const Model& m, const std::string& dir, GatherMode gather, ReorderMode reorder,
                      const std::string& collective_write) {
  OutputOptions o;
  // Two-phase collective buffering on or off ("": nwpio's choice, off for rearranged slabs).
  if (!collective_write.empty()) o.hints.overrides["collective_write"] = collective_write;
  o.output_dir = dir;
  o.outname = "nwpio_bench_d<domain>_<date>";
  o.gather = gather;
  o.reorder = reorder;
  o.print_timing = false;
  Writer w(m.d, m.schema, o);
  const auto& vars = w.schema().variables();
  // Frame 0 warms up (buffers are allocated and first touched once per stream, as in a model
  // run); frame 1 is timed.
  double t0 = 0;
  for (const char* date : {"2019-06-01_00:00:00", "2019-06-01_01:00:00"}) {
    MPI_Barrier(m.d.comm());
    t0 = MPI_Wtime();
    w.begin_frame(date);
    for (std::size_t s = 0; s < vars.size(); ++s) w.put(vars[s].name, m.arrays[s].data(), vars[s].type);
    w.end_frame();  // frames_per_file 1: create, write, close, commit
  }
  NwpioResult r{max_over_ranks(MPI_Wtime() - t0, m.d.comm()), w.statistics().frames.at(1)};
  w.close();
  return r;
}

// --- the reorder alone -----------------------------------------------------------------------
void bench_reorder(const Model& m, int reps) {
  const auto me = static_cast<std::size_t>(m.d.rank());
  std::vector<std::byte> out(static_cast<std::size_t>(my_patch_bytes(m)));
  std::vector<MPI_Datatype> types;
  for (const auto& g : m.layout.fields) {
    types.push_back(g.decomposed && !g.file_boxes[me].empty() ? detail::make_box_datatype(g, g.file_boxes[me]) : MPI_DATATYPE_NULL);
  }
  std::vector<double> pack_s, dtype_s;
  for (int r = 0; r < reps; ++r) {
    double t0 = MPI_Wtime();
    std::byte* p = out.data();
    for (const auto& g : m.layout.fields) {
      if (g.decomposed) p = detail::pack_rows(g, m.arrays[static_cast<std::size_t>(g.schema_index)].data(), g.file_boxes[me], 0, g.rows(), p);
    }
    pack_s.push_back(max_over_ranks(MPI_Wtime() - t0, m.d.comm()));
    t0 = MPI_Wtime();
    int pos = 0;
    for (std::size_t f = 0; f < m.layout.fields.size(); ++f) {
      const auto& g = m.layout.fields[f];
      if (types[f] == MPI_DATATYPE_NULL) continue;
      const std::byte* origin = m.arrays[f].data() + detail::datatype_origin_bytes(g, g.file_boxes[me]);
      MPI_Pack(origin, 1, types[f], out.data(), static_cast<int>(out.size()), &pos, MPI_COMM_SELF);
    }
    dtype_s.push_back(max_over_ranks(MPI_Wtime() - t0, m.d.comm()));
  }
  for (MPI_Datatype& t : types) {
    if (t != MPI_DATATYPE_NULL) MPI_Type_free(&t);
  }
  if (m.d.rank() == 0) {
    const double mb = static_cast<double>(out.size()) / 1e6;
    std::printf("reorder alone (rank 0's patch, %.1f MB): pack %.4f s (%.0f MB/s), MPI datatype %.4f s (%.0f MB/s), pack/datatype time %.2f\n",
                mb, median(pack_s), mb / median(pack_s), median(dtype_s), mb / median(dtype_s), median(pack_s) / median(dtype_s));
  }
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int status = 0;
  try {
    const Args a = parse(argc, argv);
    Model m = make_model(a, MPI_COMM_WORLD);
    const int rank = m.d.rank();
    if (rank == 0) std::filesystem::create_directories(a.dir);
    MPI_Barrier(MPI_COMM_WORLD);
    const double mb = static_cast<double>(m.layout.record_bytes) / 1e6;
    std::vector<std::string> modes;
    for (std::size_t p = 0; p <= a.modes.size();) {
      const std::size_t q = std::min(a.modes.find(',', p), a.modes.size());
      modes.push_back(a.modes.substr(p, q - p));
      p = q + 1;
    }
    if (rank == 0) {
      std::printf("nwpio-gather-bench: %dx%dx%d, %zu variables, %.1f MB per frame, %d ranks (patch of rank 0: %s), %d reps, %s\n",
                  a.e_we, a.e_sn, a.e_vert, m.schema.variables().size(), mb, m.d.size(), m.d.patch().str().c_str(),
                  a.reps, a.dir.c_str());
    }
    std::map<std::string, std::vector<double>> secs;
    std::map<std::string, std::vector<FrameStats>> phases;
    std::vector<std::byte> scratch;
    for (int r = 0; r < a.reps; ++r) {
      for (std::size_t i = 0; i < modes.size(); ++i) {
        const std::string& mode = modes[(i + static_cast<std::size_t>(r)) % modes.size()];  // rotate: no mode always first
        const std::string path = a.dir + "/bench_" + mode + ".nc";
        double s = 0;
        if (mode == "raw") s = run_raw(m, path, scratch);
        else if (mode == "wrf") s = run_wrf(m, path, scratch);
        else {
          std::string base = mode, cb;
          if (mode.ends_with("-nocb")) {
            base = mode.substr(0, mode.size() - 5);
            cb = "false";
          } else if (mode.ends_with("-cb")) {
            base = mode.substr(0, mode.size() - 3);
            cb = "true";
          }
          const GatherMode g = base == "rearrange" ? GatherMode::Rearrange : GatherMode::Direct;
          const ReorderMode o = base == "direct-dtype" ? ReorderMode::Datatype : ReorderMode::Pack;
          if (base != "rearrange" && base != "direct-pack" && base != "direct-dtype") {
            throw Error(ErrorKind::InvalidArgument, "unknown mode " + mode);
          }
          NwpioResult res = run_nwpio(m, a.dir, g, o, cb);
          s = res.seconds;
          phases[mode].push_back(res.frame);
        }
        secs[mode].push_back(s);
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank == 0) {  // free /dev/shm between runs
          for (const auto& e : std::filesystem::directory_iterator(a.dir)) std::filesystem::remove(e.path());
        }
        MPI_Barrier(MPI_COMM_WORLD);
      }
    }
    if (rank == 0) {
      const double raw = secs.count("raw") ? median(secs["raw"]) : 0;
      std::printf("%-13s %9s %9s %9s   %s\n", "mode", "median_s", "MB/s", "x_raw", "phases (median run): define reorder exchange wait close");
      for (const std::string& mode : modes) {
        const double s = median(secs[mode]);
        std::printf("%-13s %9.4f %9.1f %9.2f", mode.c_str(), s, mb / s, raw > 0 ? raw / s : 0.0);
        if (phases.count(mode)) {
          auto v = phases[mode];
          std::sort(v.begin(), v.end(), [](const FrameStats& x, const FrameStats& y) { return x.total_seconds < y.total_seconds; });
          const FrameStats& f = v[v.size() / 2];
          std::printf("   %.4f %.4f %.4f %.4f %.4f (rounds %d, buffers %.0f MB)", f.define_seconds, f.reorder_seconds,
                      f.exchange_seconds, f.wait_seconds, f.close_seconds, f.rounds, static_cast<double>(f.peak_buffer_bytes) / 1e6);
        }
        std::printf("\n");
      }
    }
    bench_reorder(m, a.reps);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "nwpio-gather-bench: %s\n", e.what());
    status = 1;
  }
  MPI_Finalize();
  return status;
}
