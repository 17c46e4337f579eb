// WRF's two compressed netCDF-4 patterns, reproduced with netCDF-C:
//   "wrf-io13": external/io_netcdfpar/wrf_io.F90 (io_form 13): nc_create_par(NETCDF4 |
//     CLASSIC_MODEL, MPI_INFO_NULL), the global chunk cache set to (32, 37, 1.0) as WRF's
//     NF_SET_CHUNK_CACHE(32, 37, 100), NOFILL (module_io adds NOFILL=.TRUE.), per horizontal field
//     WRF's chunks -- rank 0's PATCH in x and y (MPI_Bcast from rank 0), the levels / 4 rounded
//     up for 3-D fields, one record -- with deflate 2 + shuffle; Times and then every variable
//     with one collective nc_put_vara (NF_VAR_PAR_ACCESS collective) of the rank's patch after
//     the transpose into a buffer; 1-D and 0-D fields are written by every rank (whole field).
//   "wrf-io2": external/io_netcdf (io_form 2): every variable gathered to rank 0 (MPI_Gatherv
//     of the patches, as collect_on_comm), rank 0 writes it with nc_put_vara into a serial
//     netCDF-4 file (nc_create NETCDF4 | CLASSIC_MODEL, NOFILL) chunked as WRF's set_chunking
//     (half of x and y, all levels, halved while over 32 M elements) with deflate 2 + shuffle.
// Dimensions, variables and attributes as wrf-style (first-use order). --fsync: nc_sync.
#include <netcdf.h>
#ifdef NWPIO_HAVE_NETCDF_PAR
#include <netcdf_par.h>
#endif

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <type_traits>
#include <variant>

#include "method.hpp"
#include "nwpio/error.hpp"
#include "nwpio/wrf_conventions.hpp"

namespace nwpio::bench {
namespace {

void check(int rc, const std::string& call, const std::string& path) {
  if (rc != NC_NOERR) throw Error(ErrorKind::Netcdf, call + " failed for " + path + ": " + nc_strerror(rc));
}

nc_type nc_type_of(DataType t) {
  switch (t) {
    case DataType::Float: return NC_FLOAT;
    case DataType::Double: return NC_DOUBLE;
    case DataType::Int: return NC_INT;
    case DataType::Char: return NC_CHAR;
  }
  return NC_NAT;
}

class WrfNetcdfMethod final : public Method {
 public:
  explicit WrfNetcdfMethod(bool parallel) : parallel_(parallel) {}
  std::string name() const override { return parallel_ ? "wrf-io13" : "wrf-io2"; }
  void prepare(const CaseContext& ctx, int) override {
    path_ = (std::filesystem::path(ctx.dir) / (parallel_ ? "wrf_io13.nc" : "wrf_io2.nc")).string();
  }

  void run(const CaseContext& ctx, int) override {
    const Case& c = *ctx.bench_case;
    local_bytes_ = 0;
    ncid_ = -1;
    const bool writes = parallel_ || ctx.rank == 0;
    if (parallel_) {
#ifdef NWPIO_HAVE_NETCDF_PAR
      check(nc_set_chunk_cache(32, 37, 1.0f), "nc_set_chunk_cache", path_);
      check(nc_create_par(path_.c_str(), NC_NETCDF4 | NC_CLASSIC_MODEL | NC_CLOBBER, ctx.comm, MPI_INFO_NULL, &ncid_),
            "nc_create_par", path_);
#else
      throw Error(ErrorKind::Unsupported, "wrf-io13 needs the MPI netCDF-C (NWPIO_NETCDF=mpi)");
#endif
    } else if (ctx.rank == 0) {
      check(nc_create(path_.c_str(), NC_NETCDF4 | NC_CLASSIC_MODEL | NC_CLOBBER, &ncid_), "nc_create", path_);
    }
    std::vector<int> varids;
    if (writes) {
      int old = 0;
      check(nc_set_fill(ncid_, NC_NOFILL, &old), "nc_set_fill", path_);
    }
    varids = define(ctx, c, writes);
    if (writes) check(nc_enddef(ncid_), "nc_enddef", path_);
    const char date[] = "2019-06-01_00:00:00";
    if (writes) {
      std::size_t start[2] = {0, 0}, count[2] = {1, 19};
#ifdef NWPIO_HAVE_NETCDF_PAR
      if (parallel_) check(nc_var_par_access(ncid_, 0, NC_COLLECTIVE), "nc_var_par_access(Times)", path_);
#endif
      check(nc_put_vara_text(ncid_, 0, start, count, date), "nc_put_vara_text(Times)", path_);
      if (ctx.rank == 0) local_bytes_ += 19;
    }
    const auto& fields = ctx.model->fields();
    for (std::size_t s = 0; s < fields.size(); ++s) write_field(ctx, varids[s], fields[s]);
    if (writes && ctx.options->fsync) check(nc_sync(ncid_), "nc_sync", path_);
    if (writes) check(nc_close(ncid_), "nc_close", path_);
  }

  RunOutcome finish(const CaseContext& ctx) override {
    RunOutcome out;
    MPI_Allreduce(&local_bytes_, &out.bytes, 1, MPI_INT64_T, MPI_SUM, ctx.comm);
    out.file = path_;
    out.mode = parallel_ ? "nc_create_par, WRF patch chunks, deflate 2 + shuffle, one collective nc_put_vara per variable"
                         : "gather each variable to rank 0, netCDF-4 deflate 2 + shuffle";
    return out;
  }

 private:
  // WRF's chunk shape of a horizontal field (file order), or empty.
  std::vector<std::size_t> chunks_of(const CaseContext& ctx, const synthetic::Field& f, const std::vector<std::size_t>& lens) {
    const MemoryOrder order = f.spec->memory_order;
    if (!is_decomposed(order)) return {};
    std::vector<std::size_t> ch = lens;
    ch[0] = 1;  // Time
    const std::size_t n = ch.size();
    if (parallel_) {
      // Rank 0's patch in x and y, as io_netcdfpar's Length(1:2) broadcast from rank 0.
      long long xy[2] = {f.fill.extent(0), f.fill.extent(1)};
      MPI_Bcast(xy, 2, MPI_LONG_LONG, 0, ctx.comm);
      ch[n - 1] = static_cast<std::size_t>(xy[0]);
      ch[n - 2] = static_cast<std::size_t>(xy[1]);
      if (is_3d(order)) ch[1] = (lens[1] + 3) / 4;
    } else {
      ch[n - 1] = (lens[n - 1] + 1) / 2;
      ch[n - 2] = (lens[n - 2] + 1) / 2;
      auto elems = [&] {
        std::size_t e = 1;
        for (auto x : ch) e *= x;
        return e;
      };
      while (elems() > 32'000'000 && (ch[n - 1] > 1 || ch[n - 2] > 1)) {
        ch[n - 1] = (ch[n - 1] + 1) / 2;
        ch[n - 2] = (ch[n - 2] + 1) / 2;
      }
    }
    return ch;
  }

  std::vector<int> define(const CaseContext& ctx, const Case& c, bool writes) {
    std::map<std::string, std::pair<int, std::size_t>> dims;
    auto dim = [&](const std::string& name) {
      auto it = dims.find(name);
      if (it != dims.end()) return it->second;
      std::size_t len = 0;
      if (name == wrf::kTime) len = NC_UNLIMITED;
      else if (name == wrf::kDateStrLen) len = wrf::kDateStrLenValue;
      else if (name == wrf::kWestEast) len = static_cast<std::size_t>(c.e_we - 1);
      else if (name == wrf::kWestEastStag) len = static_cast<std::size_t>(c.e_we);
      else if (name == wrf::kSouthNorth) len = static_cast<std::size_t>(c.e_sn - 1);
      else if (name == wrf::kSouthNorthStag) len = static_cast<std::size_t>(c.e_sn);
      else if (name == wrf::kBottomTop) len = static_cast<std::size_t>(c.e_vert - 1);
      else if (name == wrf::kBottomTopStag) len = static_cast<std::size_t>(c.e_vert);
      else len = static_cast<std::size_t>(c.schema.find_dimension(name)->length);
      int id = -1;
      if (writes) check(nc_def_dim(ncid_, name.c_str(), len, &id), "nc_def_dim(" + name + ")", path_);
      dims.emplace(name, std::pair{id, len});
      return std::pair{id, len};
    };
    int times = -1;
    int tdims[2] = {dim(std::string(wrf::kTime)).first, dim(std::string(wrf::kDateStrLen)).first};
    if (writes) check(nc_def_var(ncid_, "Times", NC_CHAR, 2, tdims, &times), "nc_def_var(Times)", path_);
    std::vector<int> ids;
    const auto& fields = ctx.model->fields();
    for (std::size_t s = 0; s < fields.size(); ++s) {
      const VarSpec& v = *fields[s].spec;
      std::vector<int> d;
      std::vector<std::size_t> lens;
      for (const std::string& name : wrf::file_dimensions(v)) {
        const auto [id, len] = dim(name);
        d.push_back(id);
        lens.push_back(len == NC_UNLIMITED ? 1 : len);
      }
      const std::vector<std::size_t> ch = chunks_of(ctx, fields[s], lens);  // collective (Bcast) on every rank
      int id = -1;
      if (writes) {
        check(nc_def_var(ncid_, v.name.c_str(), nc_type_of(v.type), static_cast<int>(d.size()), d.data(), &id),
              "nc_def_var(" + v.name + ")", path_);
        if (!ch.empty()) {
          check(nc_def_var_chunking(ncid_, id, NC_CHUNKED, ch.data()), "nc_def_var_chunking(" + v.name + ")", path_);
          check(nc_def_var_deflate(ncid_, id, 1, 1, 2), "nc_def_var_deflate(" + v.name + ")", path_);
        }
        for (const Attribute& a : v.attributes) put_attribute(id, a);
      }
      ids.push_back(id);
    }
    if (writes) {
      for (const Attribute& a : c.schema.global_attributes()) put_attribute(NC_GLOBAL, a);
    }
    return ids;
  }

  void put_attribute(int varid, const Attribute& a) {
    std::visit(
        [&](const auto& value) {
          using T = std::decay_t<decltype(value)>;
          nc_type t = NC_CHAR;
          if constexpr (std::is_same_v<T, std::vector<std::int32_t>>) t = NC_INT;
          if constexpr (std::is_same_v<T, std::vector<float>>) t = NC_FLOAT;
          if constexpr (std::is_same_v<T, std::vector<double>>) t = NC_DOUBLE;
          check(nc_put_att(ncid_, varid, a.name.c_str(), t, value.size(), value.data()), "nc_put_att(" + a.name + ")", path_);
        },
        a.value);
  }

  // The rank's patch of the field in file order (WRF's transpose into XField).
  template <class T>
  std::vector<T> transpose(const synthetic::Field& f) {
    const Box& b = f.fill;
    const Box& m = f.memory;
    std::vector<T> out(static_cast<std::size_t>(b.volume()));
    const T* data = static_cast<const T*>(f.data());
    T* o = out.data();
    const std::int64_t ni = b.extent(0);
    for (std::int64_t k = b.lo[2]; k < b.hi[2]; ++k) {
      for (std::int64_t j = b.lo[1]; j < b.hi[1]; ++j) {
        std::memcpy(o, data + (b.lo[0] - m.lo[0]) + (j - m.lo[1]) * f.stride[1] + (k - m.lo[2]) * f.stride[2],
                    static_cast<std::size_t>(ni) * sizeof(T));
        o += ni;
      }
    }
    return out;
  }

  template <class T>
  void write_typed(const CaseContext& ctx, int varid, const synthetic::Field& f) {
    const VarSpec& spec = *f.spec;
    const Box& b = f.fill;
    const bool decomposed = is_decomposed(spec.memory_order);
    const bool has_k = is_3d(spec.memory_order) || spec.memory_order == MemoryOrder::Z;
    std::vector<T> patch = transpose<T>(f);
    if (parallel_ || !decomposed) {
      if (!parallel_ && ctx.rank != 0) return;
      std::vector<std::size_t> start, count;
      if (spec.time_dependent) {
        start.push_back(0);
        count.push_back(1);
      }
      if (has_k) {
        start.push_back(static_cast<std::size_t>(b.lo[2]));
        count.push_back(static_cast<std::size_t>(b.extent(2)));
      }
      if (decomposed) {
        for (int a : {1, 0}) {
          start.push_back(static_cast<std::size_t>(b.lo[a]));
          count.push_back(static_cast<std::size_t>(b.extent(a)));
        }
      }
#ifdef NWPIO_HAVE_NETCDF_PAR
      if (parallel_) check(nc_var_par_access(ncid_, varid, NC_COLLECTIVE), "nc_var_par_access", path_);
#endif
      if (ctx.rank == 0 || decomposed) local_bytes_ += static_cast<std::int64_t>(patch.size() * sizeof(T));
      check(nc_put_vara(ncid_, varid, start.data(), count.data(), patch.data()), "nc_put_vara(" + spec.name + ")", path_);
      return;
    }
    // io_form 2: gather the patches to rank 0 (with their boxes), assemble, one nc_put_vara.
    long long mine[6] = {b.lo[0], b.hi[0], b.lo[1], b.hi[1], b.lo[2], b.hi[2]};
    std::vector<long long> boxes(static_cast<std::size_t>(6 * ctx.size));
    MPI_Gather(mine, 6, MPI_LONG_LONG, boxes.data(), 6, MPI_LONG_LONG, 0, ctx.comm);
    const int bytes = static_cast<int>(patch.size() * sizeof(T));
    std::vector<int> counts(static_cast<std::size_t>(ctx.size)), displs(static_cast<std::size_t>(ctx.size));
    MPI_Gather(&bytes, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, ctx.comm);
    std::vector<T> all;
    if (ctx.rank == 0) {
      int total = 0;
      for (int r = 0; r < ctx.size; ++r) {
        displs[static_cast<std::size_t>(r)] = total;
        total += counts[static_cast<std::size_t>(r)];
      }
      all.resize(static_cast<std::size_t>(total) / sizeof(T));
    }
    MPI_Gatherv(patch.data(), bytes, MPI_BYTE, all.data(), counts.data(), displs.data(), MPI_BYTE, 0, ctx.comm);
    if (ctx.rank != 0) return;
    long long nx = 0, ny = 0, nz = 0;
    for (int r = 0; r < ctx.size; ++r) {
      const long long* q = &boxes[static_cast<std::size_t>(6 * r)];
      nx = std::max(nx, q[1]);
      ny = std::max(ny, q[3]);
      nz = std::max(nz, q[5] - q[4]);
    }
    std::vector<T> field(static_cast<std::size_t>(nx * ny * nz));
    for (int r = 0; r < ctx.size; ++r) {
      const long long* q = &boxes[static_cast<std::size_t>(6 * r)];
      const T* p = all.data() + displs[static_cast<std::size_t>(r)] / static_cast<int>(sizeof(T));
      const long long w = q[1] - q[0];
      for (long long k = 0; k < q[5] - q[4]; ++k) {
        for (long long j = q[2]; j < q[3]; ++j) {
          std::memcpy(&field[static_cast<std::size_t>((k * ny + j) * nx + q[0])], p, static_cast<std::size_t>(w) * sizeof(T));
          p += w;
        }
      }
    }
    std::vector<std::size_t> start, count;
    if (spec.time_dependent) {
      start.push_back(0);
      count.push_back(1);
    }
    if (has_k) {
      start.push_back(0);
      count.push_back(static_cast<std::size_t>(nz));
    }
    start.push_back(0);
    count.push_back(static_cast<std::size_t>(ny));
    start.push_back(0);
    count.push_back(static_cast<std::size_t>(nx));
    local_bytes_ += static_cast<std::int64_t>(field.size() * sizeof(T));
    check(nc_put_vara(ncid_, varid, start.data(), count.data(), field.data()), "nc_put_vara(" + spec.name + ")", path_);
  }

  void write_field(const CaseContext& ctx, int varid, const synthetic::Field& f) {
    switch (f.spec->type) {
      case DataType::Float: write_typed<float>(ctx, varid, f); return;
      case DataType::Double: write_typed<double>(ctx, varid, f); return;
      case DataType::Int: write_typed<std::int32_t>(ctx, varid, f); return;
      case DataType::Char: break;
    }
    throw Error(ErrorKind::Unsupported, name() + ": char field " + f.spec->name);
  }

  bool parallel_;
  std::string path_;
  int ncid_ = -1;
  std::int64_t local_bytes_ = 0;
};

}  // namespace

std::unique_ptr<Method> make_wrf_netcdf_method(const std::string& name) {
  if (name == "wrf-io13") return std::make_unique<WrfNetcdfMethod>(true);
  if (name == "wrf-io2") return std::make_unique<WrfNetcdfMethod>(false);
  return nullptr;
}

}  // namespace nwpio::bench
