#include "nc_reader.hpp"

#include <stdexcept>

namespace nwpio::test {

namespace {

void nc_ok(int rc, const std::string& call, const std::string& path) {
  if (rc != NC_NOERR) throw std::runtime_error(call + " on " + path + ": " + nc_strerror(rc));
}

std::vector<NcAttribute> read_attributes(int ncid, int varid, int natts, const std::string& path) {
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
    if (!att.bytes.empty()) nc_ok(nc_get_att(ncid, varid, name, att.bytes.data()), "nc_get_att " + att.name, path);
    atts.push_back(std::move(att));
  }
  return atts;
}

NcFile read_file(const std::string& path, bool with_values) {
  NcFile f;
  int ncid = -1;
  nc_ok(nc_open(path.c_str(), NC_NOWRITE, &ncid), "nc_open", path);
  try {
    int ndims = 0, nvars = 0, ngatts = 0, unlimited = -1;
    nc_ok(nc_inq(ncid, &ndims, &nvars, &ngatts, &unlimited), "nc_inq", path);
    nc_ok(nc_inq_format(ncid, &f.format), "nc_inq_format", path);
    for (int d = 0; d < ndims; ++d) {
      char name[NC_MAX_NAME + 1] = {};
      NcDimension dim;
      nc_ok(nc_inq_dim(ncid, d, name, &dim.length), "nc_inq_dim", path);
      dim.name = name;
      dim.unlimited = d == unlimited;
      f.dims.push_back(dim);
    }
    f.global_attributes = read_attributes(ncid, NC_GLOBAL, ngatts, path);
    for (int v = 0; v < nvars; ++v) {
      char name[NC_MAX_NAME + 1] = {};
      int dimids[NC_MAX_VAR_DIMS] = {};
      int vndims = 0, natts = 0;
      NcVariable var;
      nc_ok(nc_inq_var(ncid, v, name, &var.type, &vndims, dimids, &natts), "nc_inq_var", path);
      var.name = name;
      std::size_t n = 1;
      std::vector<std::size_t> start(static_cast<std::size_t>(vndims), 0), count;
      for (int d = 0; d < vndims; ++d) {
        const NcDimension& dim = f.dims[static_cast<std::size_t>(dimids[d])];
        var.dims.push_back(dim.name);
        count.push_back(dim.length);
        n *= dim.length;
      }
      var.attributes = read_attributes(ncid, v, natts, path);
      if (with_values) {
        std::size_t size = 0;
        nc_ok(nc_inq_type(ncid, var.type, nullptr, &size), "nc_inq_type", path);
        var.values.resize(n * size);
        if (n > 0) nc_ok(nc_get_vara(ncid, v, start.data(), count.data(), var.values.data()), "nc_get_vara " + var.name, path);
      }
      f.vars.push_back(std::move(var));
    }
  } catch (...) {
    nc_close(ncid);
    throw;
  }
  nc_ok(nc_close(ncid), "nc_close", path);
  return f;
}

}  // namespace

NcFile read_header(const std::string& path) { return read_file(path, false); }
NcFile read_nc(const std::string& path) { return read_file(path, true); }

}  // namespace nwpio::test
