// The tests' one netCDF reader, through netCDF-C (never the library that wrote the file):
// dimensions, variables with their dimensions and attributes, global attributes (values as raw
// native bytes, so that two files compare exactly, type and length included), and on request
// every variable's values. read_header() for headers (the WRF reference header, the demo's
// files); read_nc() for whole files (io_form 2 against io_form 11, the serial backend).
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
  std::vector<unsigned char> bytes;  // native representation of the values
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
  std::vector<unsigned char> values;  // read_nc only: all values, native byte order, C order
  bool operator==(const NcVariable&) const = default;
};

struct NcFile {
  int format = 0;  // NC_FORMAT_64BIT_OFFSET, NC_FORMAT_NETCDF4, ...
  std::vector<NcDimension> dims;
  std::vector<NcVariable> vars;
  std::vector<NcAttribute> global_attributes;
  const NcVariable* find(const std::string& name) const {
    for (const auto& v : vars) {
      if (v.name == name) return &v;
    }
    return nullptr;
  }
};
using NcHeader = NcFile;
using NcContents = NcFile;

// Throws std::runtime_error "<what>: <nc_strerror>" unless rc is NC_NOERR (for tests' own calls).
inline void nc_ok(int rc, const std::string& what) {
  if (rc != NC_NOERR) throw std::runtime_error(what + ": " + nc_strerror(rc));
}

// Throws std::runtime_error "<call> on <path>: <nc_strerror>".
NcFile read_header(const std::string& path);
NcFile read_nc(const std::string& path);

// Values of a variable as T (the caller knows the type).
template <class T>
std::vector<T> values_as(const NcVariable& v) {
  std::vector<T> out(v.values.size() / sizeof(T));
  if (!out.empty()) std::memcpy(out.data(), v.values.data(), out.size() * sizeof(T));
  return out;
}

}  // namespace nwpio::test
