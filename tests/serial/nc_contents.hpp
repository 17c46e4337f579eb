// Everything in a netCDF file, read through netCDF-C: dimensions, variables (name, type,
// dimensions, attributes, all values as raw native bytes), global attributes. Two files written
// by different backends are identical when their NcContents compare equal.
#pragma once

#include <netcdf.h>

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace nwpio::test {

struct NcAttribute {
  std::string name;
  nc_type type = NC_NAT;
  std::vector<unsigned char> bytes;  // native representation of the values
  bool operator==(const NcAttribute&) const = default;
};

struct NcDimension {
  std::string name;
  std::size_t length = 0;
  bool unlimited = false;
  bool operator==(const NcDimension&) const = default;
};

struct NcVariable {
  std::string name;
  nc_type type = NC_NAT;
  std::vector<std::string> dims;
  std::vector<NcAttribute> attributes;
  std::vector<unsigned char> values;  // all values, native byte order, C order
  bool operator==(const NcVariable&) const = default;
};

struct NcContents {
  int format = 0;  // NC_FORMAT_64BIT_OFFSET, NC_FORMAT_NETCDF4, ...
  std::vector<NcDimension> dims;
  std::vector<NcAttribute> global_attributes;
  std::vector<NcVariable> vars;
  const NcVariable* find(const std::string& name) const {
    for (const auto& v : vars)
      if (v.name == name) return &v;
    return nullptr;
  }
};

inline void nc_ok(int rc, const std::string& what) {
  if (rc != NC_NOERR) throw std::runtime_error(what + ": " + nc_strerror(rc));
}

inline std::size_t nc_type_size(nc_type t) {
  switch (t) {
    case NC_CHAR: case NC_BYTE: case NC_UBYTE: return 1;
    case NC_SHORT: case NC_USHORT: return 2;
    case NC_INT: case NC_UINT: case NC_FLOAT: return 4;
    case NC_DOUBLE: case NC_INT64: case NC_UINT64: return 8;
    default: break;
  }
  return 0;
}

inline std::vector<NcAttribute> read_attributes(int ncid, int varid, int natts) {
  std::vector<NcAttribute> out;
  for (int a = 0; a < natts; ++a) {
    char name[NC_MAX_NAME + 1] = {};
    nc_ok(nc_inq_attname(ncid, varid, a, name), "nc_inq_attname");
    NcAttribute att;
    att.name = name;
    std::size_t len = 0;
    nc_ok(nc_inq_att(ncid, varid, name, &att.type, &len), "nc_inq_att");
    att.bytes.resize(len * nc_type_size(att.type));
    if (len > 0) nc_ok(nc_get_att(ncid, varid, name, att.bytes.data()), "nc_get_att " + att.name);
    out.push_back(std::move(att));
  }
  return out;
}

inline NcContents read_nc(const std::string& path) {
  int ncid = -1;
  nc_ok(nc_open(path.c_str(), NC_NOWRITE, &ncid), "nc_open " + path);
  NcContents c;
  try {
    nc_ok(nc_inq_format(ncid, &c.format), "nc_inq_format");
    int ndims = 0, nvars = 0, ngatts = 0, unlim = -1;
    nc_ok(nc_inq(ncid, &ndims, &nvars, &ngatts, &unlim), "nc_inq");
    std::vector<std::string> dim_names(static_cast<std::size_t>(ndims));
    std::vector<std::size_t> dim_lens(static_cast<std::size_t>(ndims));
    for (int d = 0; d < ndims; ++d) {
      char name[NC_MAX_NAME + 1] = {};
      std::size_t len = 0;
      nc_ok(nc_inq_dim(ncid, d, name, &len), "nc_inq_dim");
      dim_names[static_cast<std::size_t>(d)] = name;
      dim_lens[static_cast<std::size_t>(d)] = len;
      c.dims.push_back({name, len, d == unlim});
    }
    c.global_attributes = read_attributes(ncid, NC_GLOBAL, ngatts);
    for (int v = 0; v < nvars; ++v) {
      char name[NC_MAX_NAME + 1] = {};
      nc_type type = NC_NAT;
      int vndims = 0, natts = 0;
      int dimids[NC_MAX_VAR_DIMS] = {};
      nc_ok(nc_inq_var(ncid, v, name, &type, &vndims, dimids, &natts), "nc_inq_var");
      NcVariable var;
      var.name = name;
      var.type = type;
      std::size_t n = 1;
      std::vector<std::size_t> start(static_cast<std::size_t>(vndims), 0), count;
      for (int d = 0; d < vndims; ++d) {
        var.dims.push_back(dim_names[static_cast<std::size_t>(dimids[d])]);
        count.push_back(dim_lens[static_cast<std::size_t>(dimids[d])]);
        n *= count.back();
      }
      var.attributes = read_attributes(ncid, v, natts);
      var.values.resize(n * nc_type_size(type));
      if (n > 0) nc_ok(nc_get_vara(ncid, v, start.data(), count.data(), var.values.data()), "nc_get_vara " + var.name);
      c.vars.push_back(std::move(var));
    }
  } catch (...) {
    nc_close(ncid);
    throw;
  }
  nc_ok(nc_close(ncid), "nc_close " + path);
  return c;
}

// Values of a variable as T (the caller knows the type).
template <class T>
std::vector<T> values_as(const NcVariable& v) {
  std::vector<T> out(v.values.size() / sizeof(T));
  if (!out.empty()) std::memcpy(out.data(), v.values.data(), out.size() * sizeof(T));
  return out;
}

}  // namespace nwpio::test
