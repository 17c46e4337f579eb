// The header of a netCDF file as netCDF-C reads it: dimensions, variables with their
// dimensions and attributes, global attributes (attribute values as raw bytes, so that two
// files compare exactly, type and length included). Used to hold nwpio's files against the
// header of a real WRF V4.4.1 wrfout file (data/wrfout_d01_v441_header.cdl, turned into a
// header-only file by ncgen when the tests run).
#pragma once

#include <netcdf.h>

#include <cstddef>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace nwpio::test {

struct NcAttribute {
  std::string name;
  nc_type type = NC_NAT;
  std::size_t length = 0;
  std::vector<unsigned char> bytes;
  bool operator==(const NcAttribute&) const = default;
  std::string text() const { return std::string(bytes.begin(), bytes.end()); }
  int as_int() const {
    int v = 0;
    if (type == NC_INT && length == 1) std::memcpy(&v, bytes.data(), sizeof v);
    return v;
  }
  float as_float() const {
    float v = 0;
    if (type == NC_FLOAT && length == 1) std::memcpy(&v, bytes.data(), sizeof v);
    return v;
  }
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
  bool operator==(const NcVariable&) const = default;
};

struct NcHeader {
  int format = 0;  // NC_FORMAT_*
  std::vector<NcDimension> dims;
  std::vector<NcVariable> vars;
  std::vector<NcAttribute> global_attributes;
};

inline void nc_ok(int rc, const char* call, const std::string& path) {
  if (rc != NC_NOERR) throw std::runtime_error(std::string(call) + " on " + path + ": " + nc_strerror(rc));
}

inline std::vector<NcAttribute> read_attributes(int ncid, int varid, int natts, const std::string& path) {
  std::vector<NcAttribute> atts;
  for (int a = 0; a < natts; ++a) {
    char name[NC_MAX_NAME + 1] = {};
    NcAttribute att;
    nc_ok(nc_inq_attname(ncid, varid, a, name), "nc_inq_attname", path);
    att.name = name;
    nc_ok(nc_inq_att(ncid, varid, name, &att.type, &att.length), "nc_inq_att", path);
    std::size_t size = 0;
    nc_ok(nc_inq_type(ncid, att.type, nullptr, &size), "nc_inq_type", path);
    att.bytes.resize(att.length * size);
    if (!att.bytes.empty()) nc_ok(nc_get_att(ncid, varid, name, att.bytes.data()), "nc_get_att", path);
    atts.push_back(std::move(att));
  }
  return atts;
}

inline NcHeader read_header(const std::string& path) {
  NcHeader h;
  int ncid = -1;
  nc_ok(nc_open(path.c_str(), NC_NOWRITE, &ncid), "nc_open", path);
  try {
    int ndims = 0, nvars = 0, ngatts = 0, unlimited = -1;
    nc_ok(nc_inq(ncid, &ndims, &nvars, &ngatts, &unlimited), "nc_inq", path);
    nc_ok(nc_inq_format(ncid, &h.format), "nc_inq_format", path);
    for (int d = 0; d < ndims; ++d) {
      char name[NC_MAX_NAME + 1] = {};
      NcDimension dim;
      nc_ok(nc_inq_dim(ncid, d, name, &dim.length), "nc_inq_dim", path);
      dim.name = name;
      dim.unlimited = d == unlimited;
      h.dims.push_back(dim);
    }
    for (int v = 0; v < nvars; ++v) {
      char name[NC_MAX_NAME + 1] = {};
      int dimids[NC_MAX_VAR_DIMS] = {};
      int vndims = 0, natts = 0;
      NcVariable var;
      nc_ok(nc_inq_var(ncid, v, name, &var.type, &vndims, dimids, &natts), "nc_inq_var", path);
      var.name = name;
      for (int d = 0; d < vndims; ++d) var.dims.push_back(h.dims[static_cast<std::size_t>(dimids[d])].name);
      var.attributes = read_attributes(ncid, v, natts, path);
      h.vars.push_back(std::move(var));
    }
    h.global_attributes = read_attributes(ncid, NC_GLOBAL, ngatts, path);
  } catch (...) {
    nc_close(ncid);
    throw;
  }
  nc_close(ncid);
  return h;
}

}  // namespace nwpio::test
