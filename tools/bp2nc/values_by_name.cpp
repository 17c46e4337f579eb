#include "values_by_name.hpp"

#include <netcdf.h>

#include <cstring>
#include <map>
#include <stdexcept>

namespace nwpio::bp2nc {

namespace {

void check(int rc, const std::string& call, const std::string& path) {
  if (rc != NC_NOERR) throw std::runtime_error(call + " failed for '" + path + "': " + nc_strerror(rc));
}

struct Nc {
  explicit Nc(std::string p) : path(std::move(p)) { check(nc_open(path.c_str(), NC_NOWRITE, &id), "nc_open", path); }
  ~Nc() { nc_close(id); }
  Nc(const Nc&) = delete;
  Nc& operator=(const Nc&) = delete;
  std::string path;
  int id = -1;
};

struct Att {
  nc_type type = NC_NAT;
  std::vector<unsigned char> bytes;
};

std::size_t type_size(int ncid, nc_type type) {
  std::size_t size = 0;
  nc_inq_type(ncid, type, nullptr, &size);
  return size;
}

// A text attribute without its blank and NUL padding: WRF's Fortran strings are blank-padded
// ("XY " for MemoryOrder), and ADIOS2's attributes hold them trimmed.
std::string unpadded(const Att& a) {
  std::string s(a.bytes.begin(), a.bytes.end());
  const auto pad = [](char c) { return c == ' ' || c == '\0'; };
  while (!s.empty() && pad(s.back())) s.pop_back();
  std::size_t i = 0;
  while (i < s.size() && pad(s[i])) ++i;
  return s.substr(i);
}

std::map<std::string, Att> attributes(const Nc& f, int varid) {
  int n = 0;
  check(varid == NC_GLOBAL ? nc_inq_natts(f.id, &n) : nc_inq_varnatts(f.id, varid, &n), "nc_inq_natts", f.path);
  std::map<std::string, Att> out;
  for (int i = 0; i < n; ++i) {
    char name[NC_MAX_NAME + 1] = {};
    std::size_t len = 0;
    check(nc_inq_attname(f.id, varid, i, name), "nc_inq_attname", f.path);
    Att& a = out[name];
    check(nc_inq_att(f.id, varid, name, &a.type, &len), "nc_inq_att", f.path);
    a.bytes.resize(len * type_size(f.id, a.type));
    if (!a.bytes.empty()) check(nc_get_att(f.id, varid, name, a.bytes.data()), "nc_get_att", f.path);
  }
  return out;
}

class ByName {
 public:
  ByName(const Nc& ref, const Nc& file, const std::set<std::string>& ignore, std::size_t max_shown)
      : ref_(ref), file_(file), ignore_(ignore), max_(max_shown) {}

  ValuesResult run() {
    compare_attributes(NC_GLOBAL, NC_GLOBAL, "global");
    int nref = 0, nfile = 0;
    check(nc_inq_nvars(ref_.id, &nref), "nc_inq_nvars", ref_.path);
    check(nc_inq_nvars(file_.id, &nfile), "nc_inq_nvars", file_.path);
    for (int v = 0; v < nref; ++v) variable(v);
    for (int v = 0; v < nfile; ++v) {
      char name[NC_MAX_NAME + 1] = {};
      check(nc_inq_varname(file_.id, v, name), "nc_inq_varname", file_.path);
      int ignored = 0;
      if (nc_inq_varid(ref_.id, name, &ignored) != NC_NOERR && !ignore_.count(name)) {
        differ(std::string(name) + ": only in " + file_.path);
      }
    }
    return r_;
  }

 private:
  void differ(const std::string& what) {
    if (r_.differences.size() < max_) r_.differences.push_back(what);
    ++r_.count;
  }

  void compare_attributes(int vref, int vfile, const std::string& owner) {
    const auto a = attributes(ref_, vref), b = attributes(file_, vfile);
    for (const auto& [name, att] : a) {
      ++r_.attributes;
      const auto it = b.find(name);
      if (ignore_.count(owner + ":" + name)) continue;
      if (it == b.end()) {
        differ(owner + ":" + name + ": missing");
      } else if (it->second.type == att.type && it->second.bytes == att.bytes) {
        continue;
      } else if (it->second.type == NC_CHAR && att.type == NC_CHAR && unpadded(it->second) == unpadded(att)) {
        ++r_.padding_only;
      } else {
        differ(owner + ":" + name + ": type or value differs");
      }
    }
    for (const auto& [name, att] : b) {
      if (!a.count(name) && !ignore_.count(owner + ":" + name)) differ(owner + ":" + name + ": only in " + file_.path);
    }
  }

  // Name and length of each dimension of a variable.
  static std::vector<std::pair<std::string, std::size_t>> shape(const Nc& f, int varid) {
    int nd = 0;
    int ids[NC_MAX_VAR_DIMS];
    check(nc_inq_varndims(f.id, varid, &nd), "nc_inq_varndims", f.path);
    check(nc_inq_vardimid(f.id, varid, ids), "nc_inq_vardimid", f.path);
    std::vector<std::pair<std::string, std::size_t>> out;
    for (int d = 0; d < nd; ++d) {
      char name[NC_MAX_NAME + 1] = {};
      std::size_t len = 0;
      check(nc_inq_dim(f.id, ids[d], name, &len), "nc_inq_dim", f.path);
      out.emplace_back(name, len);
    }
    return out;
  }

  void variable(int vref) {
    char name[NC_MAX_NAME + 1] = {};
    nc_type tref = NC_NAT, tfile = NC_NAT;
    check(nc_inq_varname(ref_.id, vref, name), "nc_inq_varname", ref_.path);
    ++r_.variables;
    int vfile = -1;
    if (nc_inq_varid(file_.id, name, &vfile) != NC_NOERR) {
      differ(std::string(name) + ": missing in " + file_.path);
      return;
    }
    check(nc_inq_vartype(ref_.id, vref, &tref), "nc_inq_vartype", ref_.path);
    check(nc_inq_vartype(file_.id, vfile, &tfile), "nc_inq_vartype", file_.path);
    const auto sref = shape(ref_, vref), sfile = shape(file_, vfile);
    if (tref != tfile || sref != sfile) {
      differ(std::string(name) + ": type or dimensions differ");
      return;
    }
    compare_attributes(vref, vfile, name);
    if (ignore_.count(name)) return;
    // Record by record (the first dimension), so that memory stays one record.
    const std::size_t size = type_size(ref_.id, tref);
    std::vector<std::size_t> start(sref.size(), 0), count(sref.size(), 1);
    std::size_t per_record = 1;
    for (std::size_t d = 1; d < sref.size(); ++d) {
      count[d] = sref[d].second;
      per_record *= count[d];
    }
    const std::size_t records = sref.empty() ? 1 : sref[0].second;
    std::vector<unsigned char> x(per_record * size), y(per_record * size);
    std::size_t bad = 0;
    for (std::size_t rec = 0; rec < records; ++rec) {
      if (!sref.empty()) start[0] = rec;
      check(nc_get_vara(ref_.id, vref, start.data(), count.data(), x.data()), std::string("nc_get_vara(") + name + ")", ref_.path);
      check(nc_get_vara(file_.id, vfile, start.data(), count.data(), y.data()), std::string("nc_get_vara(") + name + ")", file_.path);
      r_.values += static_cast<std::int64_t>(per_record);
      if (x == y) continue;
      for (std::size_t e = 0; e < per_record; ++e) bad += std::memcmp(&x[e * size], &y[e * size], size) != 0;
    }
    if (bad) differ(std::string(name) + ": " + std::to_string(bad) + " of " + std::to_string(per_record * records) + " values differ");
  }

  const Nc& ref_;
  const Nc& file_;
  const std::set<std::string>& ignore_;
  std::size_t max_;
  ValuesResult r_;
};

}  // namespace

ValuesResult compare_by_name(const std::string& reference, const std::string& file, const std::set<std::string>& ignore,
                             std::size_t max_shown) {
  const Nc ref(reference), other(file);
  return ByName(ref, other, ignore, max_shown).run();
}

}  // namespace nwpio::bp2nc
