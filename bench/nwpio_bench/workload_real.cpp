#include "workload_real.hpp"

#include <netcdf.h>

#include <cmath>
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

// A source variable's last record (the storm at its most developed), as doubles in file order
// ([k,] [j, i]), with its extents along i, j and k (i = j = 1 for a variable without i and j).
struct SourceField {
  std::vector<double> values;
  std::size_t i = 1, j = 1, k = 1;
  double at(std::size_t k_, std::int64_t j_, std::int64_t i_) const {
    return values[((k_ % k) * j + mirror(j_, j)) * i + mirror(i_, i)];
  }
};
SourceField read_source(const Source& src, const std::string& name, bool decomposed) {
  std::size_t nrec = 0;
  int time_id = -1;
  check(nc_inq_dimid(src.ncid, "Time", &time_id), "nc_inq_dimid(Time)");
  check(nc_inq_dimlen(src.ncid, time_id, &nrec), "nc_inq_dimlen(Time)");
  int varid = -1;
  check(nc_inq_varid(src.ncid, name.c_str(), &varid), "nc_inq_varid " + name);
  int ndims = 0, dimids[NC_MAX_VAR_DIMS] = {};
  check(nc_inq_varndims(src.ncid, varid, &ndims), "nc_inq_varndims");
  check(nc_inq_vardimid(src.ncid, varid, dimids), "nc_inq_vardimid");
  std::vector<std::size_t> start(static_cast<std::size_t>(ndims), 0), count(static_cast<std::size_t>(ndims), 1);
  std::size_t n = 1;
  for (int d = 1; d < ndims; ++d) {
    check(nc_inq_dimlen(src.ncid, dimids[d], &count[static_cast<std::size_t>(d)]), "nc_inq_dimlen");
    n *= count[static_cast<std::size_t>(d)];
  }
  start[0] = nrec - 1;
  SourceField f;
  f.values.resize(n);
  check(nc_get_vara_double(src.ncid, varid, start.data(), count.data(), f.values.data()), "nc_get_vara " + name);
  if (decomposed) {
    f.i = count[static_cast<std::size_t>(ndims - 1)];
    f.j = count[static_cast<std::size_t>(ndims - 2)];
  }
  f.k = n / (f.i * f.j);
  return f;
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
  for (const synthetic::Field& cf : model.fields()) {
    auto& f = const_cast<synthetic::Field&>(cf);  // the model's own arrays, filled before any method runs
    const SourceField source = read_source(src, f.spec->name, is_decomposed(f.spec->memory_order));
    const Box& b = f.fill;
    const Box& m = f.memory;
    for (std::int64_t k = b.lo[2]; k < b.hi[2]; ++k) {
      for (std::int64_t j = b.lo[1]; j < b.hi[1]; ++j) {
        for (std::int64_t i = b.lo[0]; i < b.hi[0]; ++i) {
          const double v = source.at(static_cast<std::size_t>(k), j, i);
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

synthetic::VerifyResult verify_real_file(const std::string& path, const Schema& schema, double tolerance) {
  Source src;
  synthetic::VerifyResult r;
  r.records = 1;
  int ncid = -1;
  if (const int rc = nc_open(path.c_str(), NC_NOWRITE, &ncid); rc != NC_NOERR) {
    r.ok = false;
    r.problems.push_back("nc_open " + path + ": " + nc_strerror(rc));
    return r;
  }
  const auto problem = [&](const std::string& text) {
    r.ok = false;
    ++r.mismatches;
    if (r.problems.size() < 10) r.problems.push_back(text);
  };
  for (const VarSpec& spec : schema.variables()) {
    int varid = -1, ndims = 0, dimids[NC_MAX_VAR_DIMS] = {};
    if (nc_inq_varid(ncid, spec.name.c_str(), &varid) != NC_NOERR) {
      problem(spec.name + ": not in the file");
      continue;
    }
    // Its shape as the written file says (a failed inquiry is a problem of the file, not a crash).
    int rc = nc_inq_varndims(ncid, varid, &ndims);
    if (rc == NC_NOERR) rc = nc_inq_vardimid(ncid, varid, dimids);
    std::vector<std::size_t> start(static_cast<std::size_t>(ndims), 0), count(static_cast<std::size_t>(ndims), 1);
    std::size_t n = 1;
    for (int d = 1; d < ndims && rc == NC_NOERR; ++d) {
      rc = nc_inq_dimlen(ncid, dimids[d], &count[static_cast<std::size_t>(d)]);
      n *= count[static_cast<std::size_t>(d)];
    }
    if (rc != NC_NOERR || ndims < 1) {
      problem(spec.name + ": its dimensions cannot be read: " + (rc != NC_NOERR ? nc_strerror(rc) : "no dimension"));
      continue;
    }
    std::vector<double> got(n);
    if (rc = nc_get_vara_double(ncid, varid, start.data(), count.data(), got.data()); rc != NC_NOERR) {
      problem(spec.name + ": " + nc_strerror(rc));
      continue;
    }
    const bool decomposed = is_decomposed(spec.memory_order);
    const SourceField source = read_source(src, spec.name, decomposed);
    const std::size_t wi = decomposed ? count[static_cast<std::size_t>(ndims - 1)] : 1;
    const std::size_t wj = decomposed ? count[static_cast<std::size_t>(ndims - 2)] : 1;
    for (std::size_t at = 0; at < n; ++at) {
      const std::size_t i = at % wi, j = (at / wi) % wj, k = at / (wi * wj);
      const double v = source.at(k, static_cast<std::int64_t>(j), static_cast<std::int64_t>(i));
      const double expect = spec.type == DataType::Float ? static_cast<double>(static_cast<float>(v))
                            : spec.type == DataType::Int ? static_cast<double>(static_cast<std::int32_t>(v))
                                                         : v;
      const bool lossy = tolerance > 0 && spec.type != DataType::Int;
      const bool same = lossy ? std::abs(got[at] - expect) <= tolerance * std::abs(expect) : got[at] == expect;
      if (!same) {
        problem(spec.name + " record 0 (i,j,k)=(" + std::to_string(i) + "," + std::to_string(j) + "," +
                std::to_string(k) + "): " + std::to_string(got[at]) + ", expected " + std::to_string(expect));
      }
    }
    r.values_checked += static_cast<std::int64_t>(n);
  }
  nc_close(ncid);
  return r;
}

}  // namespace nwpio::bench
