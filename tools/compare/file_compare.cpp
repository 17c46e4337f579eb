#include "file_compare.hpp"

#include <netcdf.h>

#include <cstdint>
#include <cstring>
#include <sstream>
#include <stdexcept>

namespace nwpio::compare {

namespace {

void check(int rc, const std::string& what, const std::string& path) {
  if (rc != NC_NOERR) throw std::runtime_error(what + " failed for '" + path + "': " + nc_strerror(rc));
}

class File {
 public:
  explicit File(std::string path) : path_(std::move(path)) { check(nc_open(path_.c_str(), NC_NOWRITE, &id_), "nc_open", path_); }
  ~File() { nc_close(id_); }
  File(const File&) = delete;
  File& operator=(const File&) = delete;
  int id() const { return id_; }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  int id_ = -1;
};

std::string format_name(int ncid) {
  int f = 0;
  nc_inq_format(ncid, &f);
  switch (f) {
    case NC_FORMAT_CLASSIC: return "classic";
    case NC_FORMAT_64BIT_OFFSET: return "CDF-2 (64-bit offset)";
    case NC_FORMAT_CDF5: return "CDF-5";
    case NC_FORMAT_NETCDF4: return "netCDF-4";
    case NC_FORMAT_NETCDF4_CLASSIC: return "netCDF-4 classic model";
    default: return "unknown";
  }
}

struct Attribute {
  std::string name;
  nc_type type = NC_NAT;
  std::vector<unsigned char> bytes;
};

std::size_t type_size(int ncid, nc_type type) {
  std::size_t size = 0;
  nc_inq_type(ncid, type, nullptr, &size);
  return size;
}

std::vector<Attribute> attributes(const File& f, int varid) {
  int n = 0;
  if (varid == NC_GLOBAL) {
    check(nc_inq_natts(f.id(), &n), "nc_inq_natts", f.path());
  } else {
    check(nc_inq_varnatts(f.id(), varid, &n), "nc_inq_varnatts", f.path());
  }
  std::vector<Attribute> atts(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    char name[NC_MAX_NAME + 1] = {};
    check(nc_inq_attname(f.id(), varid, i, name), "nc_inq_attname", f.path());
    Attribute& a = atts[static_cast<std::size_t>(i)];
    a.name = name;
    std::size_t len = 0;
    check(nc_inq_att(f.id(), varid, name, &a.type, &len), "nc_inq_att", f.path());
    a.bytes.resize(len * type_size(f.id(), a.type));
    if (!a.bytes.empty()) check(nc_get_att(f.id(), varid, name, a.bytes.data()), "nc_get_att", f.path());
  }
  return atts;
}

std::string shown(const Attribute& a) {
  std::ostringstream s;
  if (a.type == NC_CHAR) {
    s << '"';
    for (unsigned char c : a.bytes) {
      if (c == 0) {
        s << "\\0";
      } else {
        s << static_cast<char>(c);
      }
    }
    s << '"';
    return s.str();
  }
  const std::size_t n = a.bytes.size();
  s << '{';
  for (std::size_t at = 0; at < n;) {
    if (at) s << ", ";
    if (a.type == NC_FLOAT) {
      float v;
      std::memcpy(&v, &a.bytes[at], sizeof v);
      s << v;
      at += sizeof v;
    } else if (a.type == NC_DOUBLE) {
      double v;
      std::memcpy(&v, &a.bytes[at], sizeof v);
      s << v;
      at += sizeof v;
    } else if (a.type == NC_INT) {
      std::int32_t v;
      std::memcpy(&v, &a.bytes[at], sizeof v);
      s << v;
      at += sizeof v;
    } else {
      s << "...";
      break;
    }
  }
  s << '}';
  return s.str();
}

std::string value_at(const std::vector<unsigned char>& data, nc_type type, std::size_t index) {
  std::ostringstream s;
  s.precision(9);
  if (type == NC_FLOAT) {
    float v;
    std::memcpy(&v, &data[index * sizeof v], sizeof v);
    s << v;
  } else if (type == NC_DOUBLE) {
    double v;
    std::memcpy(&v, &data[index * sizeof v], sizeof v);
    s.precision(17);
    s << v;
  } else if (type == NC_INT) {
    std::int32_t v;
    std::memcpy(&v, &data[index * sizeof v], sizeof v);
    s << v;
  } else if (type == NC_CHAR) {
    s << '\'' << static_cast<char>(data[index]) << '\'';
  } else {
    s << "?";
  }
  return s.str();
}

class Comparison {
 public:
  Comparison(const File& a, const File& b, const Options& o) : a_(a), b_(b), o_(o) {}

  void differ(const std::string& what) {
    if (r_.differences.size() < o_.max_differences) r_.differences.push_back(what);
    ++r_.count;
  }

  void compare_attributes(int varid_a, int varid_b, const std::string& owner, bool global) {
    const auto aa = attributes(a_, varid_a), bb = attributes(b_, varid_b);
    r_.attributes += aa.size();
    if (aa.size() != bb.size()) {
      differ(owner + ": " + std::to_string(aa.size()) + " attributes vs " + std::to_string(bb.size()));
    }
    for (std::size_t i = 0; i < std::min(aa.size(), bb.size()); ++i) {
      const Attribute &x = aa[i], &y = bb[i];
      if (x.name != y.name) {
        differ(owner + ": attribute " + std::to_string(i) + " is '" + x.name + "' vs '" + y.name + "'");
      } else if (x.type != y.type) {
        differ(owner + ":" + x.name + ": type " + std::to_string(x.type) + " vs " + std::to_string(y.type));
      } else if (x.bytes != y.bytes && !(global && o_.ignore_global.count(x.name))) {
        differ(owner + ":" + x.name + " = " + shown(x) + " vs " + shown(y));
      }
    }
  }

  static bool is_unlimited(const File& f, int dimid) {
    int n = 0;
    int ids[NC_MAX_DIMS];
    nc_inq_unlimdims(f.id(), &n, ids);
    for (int u = 0; u < n; ++u) {
      if (ids[u] == dimid) return true;
    }
    return false;
  }

  std::vector<std::pair<std::string, std::size_t>> dimensions(const File& f) {
    int n = 0;
    check(nc_inq_ndims(f.id(), &n), "nc_inq_ndims", f.path());
    std::vector<std::pair<std::string, std::size_t>> dims;
    for (int d = 0; d < n; ++d) {
      char name[NC_MAX_NAME + 1] = {};
      std::size_t len = 0;
      check(nc_inq_dim(f.id(), d, name, &len), "nc_inq_dim", f.path());
      if (o_.last_record && is_unlimited(f, d)) len = 0;  // record counts may differ
      dims.emplace_back(name, len);
    }
    return dims;
  }

  void compare_variable(int va, int vb) {
    char name_a[NC_MAX_NAME + 1] = {}, name_b[NC_MAX_NAME + 1] = {};
    nc_type ta, tb;
    int nda = 0, ndb = 0;
    int da[NC_MAX_VAR_DIMS], db[NC_MAX_VAR_DIMS];
    check(nc_inq_var(a_.id(), va, name_a, &ta, &nda, da, nullptr), "nc_inq_var", a_.path());
    check(nc_inq_var(b_.id(), vb, name_b, &tb, &ndb, db, nullptr), "nc_inq_var", b_.path());
    const std::string name = name_a;
    ++r_.variables;
    if (name != name_b) {
      differ("variable " + std::to_string(va) + " is '" + name + "' vs '" + name_b + "'");
      return;
    }
    std::string shape_a, shape_b;
    std::size_t count = 1;
    std::vector<std::size_t> start(static_cast<std::size_t>(nda), 0), edge(static_cast<std::size_t>(nda), 0);
    std::size_t records_b = 0;
    bool same_shape = nda == ndb;
    for (int d = 0; d < nda; ++d) {
      char dn[NC_MAX_NAME + 1] = {};
      std::size_t len = 0;
      nc_inq_dim(a_.id(), da[d], dn, &len);
      shape_a += std::string(d ? "," : "") + dn;
      edge[static_cast<std::size_t>(d)] = len;
      if (d == 0 && o_.last_record && is_unlimited(a_, da[0])) {
        start[0] = len > 0 ? len - 1 : 0;
        edge[0] = len > 0 ? 1 : 0;
      }
      count *= edge[static_cast<std::size_t>(d)];
    }
    for (int d = 0; d < ndb; ++d) {
      char dn[NC_MAX_NAME + 1] = {};
      nc_inq_dimname(b_.id(), db[d], dn);
      shape_b += std::string(d ? "," : "") + dn;
      if (d == 0) nc_inq_dimlen(b_.id(), db[0], &records_b);
    }
    same_shape = same_shape && shape_a == shape_b;
    if (ta != tb || !same_shape) {
      differ(name + ": type/dimensions " + std::to_string(ta) + "(" + shape_a + ") vs " + std::to_string(tb) + "(" +
             shape_b + ")");
      return;
    }
    compare_attributes(va, vb, name, false);
    if (o_.header_only || o_.ignore_variables.count(name) || count == 0) return;
    const std::size_t size = type_size(a_.id(), ta);
    std::vector<unsigned char> x(count * size), y(count * size);
    std::vector<std::size_t> start_b = start;
    if (o_.last_record && nda > 0 && is_unlimited(a_, da[0])) start_b[0] = records_b > 0 ? records_b - 1 : 0;
    check(nc_get_vara(a_.id(), va, start.data(), edge.data(), x.data()), "nc_get_vara(" + name + ")", a_.path());
    check(nc_get_vara(b_.id(), vb, start_b.data(), edge.data(), y.data()), "nc_get_vara(" + name + ")", b_.path());
    r_.values += count;
    if (x == y) return;
    std::size_t bad = 0, first = count;
    for (std::size_t e = 0; e < count; ++e) {
      if (std::memcmp(&x[e * size], &y[e * size], size) != 0) {
        if (first == count) first = e;
        ++bad;
      }
    }
    differ(name + ": " + std::to_string(bad) + " of " + std::to_string(count) + " values differ; first at element " +
           std::to_string(first) + ": " + value_at(x, ta, first) + " vs " + value_at(y, ta, first));
  }

  Result run() {
    r_.format_a = format_name(a_.id());
    r_.format_b = format_name(b_.id());
    const auto dims_a = dimensions(a_), dims_b = dimensions(b_);
    if (dims_a != dims_b) {
      std::string sa, sb;
      for (const auto& [n, l] : dims_a) sa += n + "=" + std::to_string(l) + " ";
      for (const auto& [n, l] : dims_b) sb += n + "=" + std::to_string(l) + " ";
      differ("dimensions: " + sa + "vs " + sb);
    }
    compare_attributes(NC_GLOBAL, NC_GLOBAL, "global", true);
    int nva = 0, nvb = 0;
    check(nc_inq_nvars(a_.id(), &nva), "nc_inq_nvars", a_.path());
    check(nc_inq_nvars(b_.id(), &nvb), "nc_inq_nvars", b_.path());
    if (nva != nvb) differ(std::to_string(nva) + " variables vs " + std::to_string(nvb));
    for (int v = 0; v < std::min(nva, nvb); ++v) compare_variable(v, v);
    return r_;
  }

 private:
  const File& a_;
  const File& b_;
  const Options& o_;
  Result r_;
};

}  // namespace

Result compare_files(const std::string& a, const std::string& b, const Options& options) {
  const File fa(a), fb(b);
  return Comparison(fa, fb, options).run();
}

}  // namespace nwpio::compare
