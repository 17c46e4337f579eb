#include "workload_real.hpp"

#include <netcdf.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "nwpio/error.hpp"
#include "nwpio/wrf_conventions.hpp"

namespace nwpio::bench {
namespace {

// NWPIO_REAL_WRFOUT in the environment, else ../shared beside the checkout (CI), else two levels
// up (a git worktree under wt/).
const char* source_path() {
  static const std::string path = [] {
    if (const char* env = std::getenv("NWPIO_REAL_WRFOUT"); env && *env) return std::string(env);
    for (const char* p : {NWPIO_REAL_WRFOUT, NWPIO_REAL_WRFOUT_WORKTREE}) {
      if (std::filesystem::exists(p)) return std::string(p);
    }
    return std::string(NWPIO_REAL_WRFOUT);
  }();
  return path.c_str();
}

void check(int rc, const std::string& what) {
  if (rc != NC_NOERR) throw Error(ErrorKind::Netcdf, std::string(what) + " failed for " + source_path() + ": " + nc_strerror(rc));
}

std::string text_att(int ncid, int varid, const char* name) {
  std::size_t len = 0;
  if (nc_inq_attlen(ncid, varid, name, &len) != NC_NOERR) return {};
  std::string s(len, '\0');
  check(nc_get_att_text(ncid, varid, name, s.data()), std::string("nc_get_att_text ") + name);
  while (!s.empty() && (s.back() == '\0' || s.back() == ' ')) s.pop_back();
  return s;
}

struct Source {
  int ncid = -1;
  std::map<std::string, std::size_t> dims;
  Source() {
    check(nc_open(source_path(), NC_NOWRITE, &ncid), "nc_open");
    int n = 0;
    check(nc_inq_ndims(ncid, &n), "nc_inq_ndims");
    for (int d = 0; d < n; ++d) {
      char name[NC_MAX_NAME + 1] = {};
      std::size_t len = 0;
      check(nc_inq_dim(ncid, d, name, &len), "nc_inq_dim");
      dims[name] = len;
    }
  }
  ~Source() { nc_close(ncid); }
  Source(const Source&) = delete;
  Source& operator=(const Source&) = delete;
};

std::size_t mirror(std::int64_t i, std::size_t n) {
  const auto p = static_cast<std::size_t>(i) % (2 * n);
  return p < n ? p : 2 * n - 1 - p;
}

}  // namespace

Case real_case(int e_we, int e_sn, int px, int py) {
  Source src;
  Case c;
  c.label = "wrfreal";
  c.e_we = e_we;
  c.e_sn = e_sn;
  c.e_vert = static_cast<int>(src.dims.at(std::string(wrf::kBottomTopStag)));
  c.nproc_x = px;
  c.nproc_y = py;
  c.real_fields = true;
  for (const char* d : {"soil_layers_stag", "seed_dim_stag"}) {
    if (src.dims.count(d)) c.schema.add_dimension(d, static_cast<std::int64_t>(src.dims.at(d)));
  }
  int nvars = 0;
  check(nc_inq_nvars(src.ncid, &nvars), "nc_inq_nvars");
  for (int v = 0; v < nvars; ++v) {
    char name[NC_MAX_NAME + 1] = {};
    nc_type type = NC_NAT;
    int ndims = 0, dimids[NC_MAX_VAR_DIMS] = {};
    check(nc_inq_var(src.ncid, v, name, &type, &ndims, dimids, nullptr), "nc_inq_var");
    if (std::string(name) == "Times") continue;
    std::vector<std::string> dn;
    for (int d = 0; d < ndims; ++d) {
      char dname[NC_MAX_NAME + 1] = {};
      check(nc_inq_dimname(src.ncid, dimids[d], dname), "nc_inq_dimname");
      if (std::string(dname) != wrf::kTime) dn.push_back(dname);
    }
    const std::string mo = text_att(src.ncid, v, "MemoryOrder");
    const std::string st = text_att(src.ncid, v, "stagger");
    MemoryOrder order = mo == "XY" ? MemoryOrder::XY : mo == "Z" ? MemoryOrder::Z : mo == "0" ? MemoryOrder::Scalar : MemoryOrder::XZY;
    const Stagger stagger = st == "X" ? Stagger::X : st == "Y" ? Stagger::Y : st == "Z" ? Stagger::Z : Stagger::None;
    std::string vertical;
    if (!dn.empty() && (dn[0] == "soil_layers_stag" || dn[0] == "seed_dim_stag")) vertical = dn[0];
    const DataType t = type == NC_INT ? DataType::Int : type == NC_DOUBLE ? DataType::Double : DataType::Float;
    c.schema.add_variable(wrf::variable(name, t, order, stagger, text_att(src.ncid, v, "description"),
                                        text_att(src.ncid, v, "units"), vertical));
  }
  c.frame_bytes = schema_frame_bytes(c.schema, e_we, e_sn, c.e_vert);
  return c;
}

void fill_real_fields(synthetic::SyntheticModel& model, const Decomposition& /*decomposition*/) {
  Source src;
  std::size_t nrec = 0;
  check(nc_inq_dimlen(src.ncid, [&] {
          int id = -1;
          check(nc_inq_dimid(src.ncid, "Time", &id), "nc_inq_dimid(Time)");
          return id;
        }(), &nrec),
        "nc_inq_dimlen(Time)");
  for (const synthetic::Field& cf : model.fields()) {
    auto& f = const_cast<synthetic::Field&>(cf);  // the model's own arrays, filled before any method runs
    int varid = -1;
    check(nc_inq_varid(src.ncid, f.spec->name.c_str(), &varid), "nc_inq_varid " + f.spec->name);
    int ndims = 0, dimids[NC_MAX_VAR_DIMS] = {};
    check(nc_inq_varndims(src.ncid, varid, &ndims), "nc_inq_varndims");
    check(nc_inq_vardimid(src.ncid, varid, dimids), "nc_inq_vardimid");
    std::vector<std::size_t> start(static_cast<std::size_t>(ndims), 0), count(static_cast<std::size_t>(ndims), 1);
    std::size_t n = 1;
    for (int d = 1; d < ndims; ++d) {
      check(nc_inq_dimlen(src.ncid, dimids[d], &count[static_cast<std::size_t>(d)]), "nc_inq_dimlen");
      n *= count[static_cast<std::size_t>(d)];
    }
    start[0] = nrec - 1;  // the last record: the storm at its most developed
    std::vector<double> buf(n);
    check(nc_get_vara_double(src.ncid, varid, start.data(), count.data(), buf.data()), "nc_get_vara " + f.spec->name);
    // Source extents (file order: [k,] [j, i]).
    const bool decomposed = is_decomposed(f.spec->memory_order);
    const std::size_t si = decomposed ? count[static_cast<std::size_t>(ndims - 1)] : 1;
    const std::size_t sj = decomposed ? count[static_cast<std::size_t>(ndims - 2)] : 1;
    const std::size_t sk = n / (si * sj);
    const Box& b = f.fill;
    const Box& m = f.memory;
    for (std::int64_t k = b.lo[2]; k < b.hi[2]; ++k) {
      for (std::int64_t j = b.lo[1]; j < b.hi[1]; ++j) {
        for (std::int64_t i = b.lo[0]; i < b.hi[0]; ++i) {
          const std::size_t kk = static_cast<std::size_t>(k) % sk;
          const double v = buf[(kk * sj + mirror(j, sj)) * si + mirror(i, si)];
          const std::int64_t at = (i - m.lo[0]) * f.stride[0] + (j - m.lo[1]) * f.stride[1] + (k - m.lo[2]) * f.stride[2];
          switch (f.spec->type) {
            case DataType::Float: static_cast<float*>(f.data())[at] = static_cast<float>(v); break;
            case DataType::Double: static_cast<double*>(f.data())[at] = v; break;
            case DataType::Int: static_cast<std::int32_t*>(f.data())[at] = static_cast<std::int32_t>(v); break;
            case DataType::Char: break;
          }
        }
      }
    }
  }
}

}  // namespace nwpio::bench
