// The second reader of the backend contract test (second_reader.hpp).
#include "second_reader.hpp"

#include <gtest/gtest.h>

#include <cstddef>
#include <stdexcept>
#include <vector>

#ifdef NWPIO_TEST_PNETCDF_READER
#include <mpi.h>
#include <pnetcdf.h>
#endif
#ifdef NWPIO_TEST_HDF5_READER
#include <hdf5.h>
#endif

namespace nwpio::test {

namespace {

// Where two reads of one variable first differ (byte index), or -1.
std::ptrdiff_t first_difference(const std::vector<unsigned char>& a, const std::vector<unsigned char>& b) {
  const std::size_t n = a.size() < b.size() ? a.size() : b.size();
  for (std::size_t i = 0; i < n; ++i) {
    if (a[i] != b[i]) return static_cast<std::ptrdiff_t>(i);
  }
  return a.size() == b.size() ? -1 : static_cast<std::ptrdiff_t>(n);
}

void expect_same_values(const std::string& var, const std::vector<unsigned char>& second,
                        const std::vector<unsigned char>& first, const char* reader) {
  const std::ptrdiff_t at = first_difference(second, first);
  EXPECT_EQ(at, -1) << var << ": " << reader << " reads " << second.size() << " bytes, netCDF-C " << first.size()
                    << "; first difference at byte " << at;
}

#ifdef NWPIO_TEST_PNETCDF_READER

void pnetcdf_ok(int rc, const std::string& call, const std::string& path) {
  if (rc != NC_NOERR) throw std::runtime_error(call + " on " + path + ": " + ncmpi_strerror(rc));
}

std::size_t classic_type_size(nc_type type) {
  switch (type) {
    case NC_CHAR: case NC_BYTE: case NC_UBYTE: return 1;
    case NC_SHORT: case NC_USHORT: return 2;
    case NC_INT: case NC_UINT: case NC_FLOAT: return 4;
    default: return 8;
  }
}

std::vector<NcAttribute> pnetcdf_attributes(int id, int varid, int natts, const std::string& path) {
  std::vector<NcAttribute> out;
  for (int a = 0; a < natts; ++a) {
    char name[NC_MAX_NAME + 1] = {};
    pnetcdf_ok(ncmpi_inq_attname(id, varid, a, name), "ncmpi_inq_attname", path);
    NcAttribute att;
    att.name = name;
    MPI_Offset length = 0;
    pnetcdf_ok(ncmpi_inq_att(id, varid, name, &att.type, &length), "ncmpi_inq_att", path);
    att.length = static_cast<std::size_t>(length);
    att.bytes.resize(att.length * classic_type_size(att.type));
    if (!att.bytes.empty()) pnetcdf_ok(ncmpi_get_att(id, varid, name, att.bytes.data()), "ncmpi_get_att " + att.name, path);
    out.push_back(std::move(att));
  }
  return out;
}

// Every value of variable v (dimension lengths `count`), in native byte order.
std::vector<unsigned char> pnetcdf_values(int id, int v, nc_type type, const std::vector<MPI_Offset>& count,
                                          const std::string& path) {
  MPI_Offset n = 1;
  for (MPI_Offset c : count) n *= c;
  std::vector<unsigned char> out(static_cast<std::size_t>(n) * classic_type_size(type));
  const std::vector<MPI_Offset> start(count.size(), 0);
  if (n == 0) return out;
  int rc = NC_NOERR;
  switch (type) {
    case NC_CHAR: rc = ncmpi_get_vara_text_all(id, v, start.data(), count.data(), reinterpret_cast<char*>(out.data())); break;
    case NC_INT: rc = ncmpi_get_vara_int_all(id, v, start.data(), count.data(), reinterpret_cast<int*>(out.data())); break;
    case NC_FLOAT: rc = ncmpi_get_vara_float_all(id, v, start.data(), count.data(), reinterpret_cast<float*>(out.data())); break;
    case NC_DOUBLE: rc = ncmpi_get_vara_double_all(id, v, start.data(), count.data(), reinterpret_cast<double*>(out.data())); break;
    default: throw std::runtime_error(path + ": variable " + std::to_string(v) + " has a type the test model never writes");
  }
  pnetcdf_ok(rc, "ncmpi_get_vara_*_all of variable " + std::to_string(v), path);
  return out;
}

NcFile read_with_pnetcdf(const std::string& path) {
  NcFile f;
  int id = -1;
  pnetcdf_ok(ncmpi_open(MPI_COMM_SELF, path.c_str(), NC_NOWRITE, MPI_INFO_NULL, &id), "ncmpi_open", path);
  try {
    int ndims = 0, nvars = 0, ngatts = 0, unlimited = -1;
    pnetcdf_ok(ncmpi_inq(id, &ndims, &nvars, &ngatts, &unlimited), "ncmpi_inq", path);
    pnetcdf_ok(ncmpi_inq_format(id, &f.format), "ncmpi_inq_format", path);
    std::vector<MPI_Offset> lengths;
    for (int d = 0; d < ndims; ++d) {
      char name[NC_MAX_NAME + 1] = {};
      MPI_Offset length = 0;
      pnetcdf_ok(ncmpi_inq_dim(id, d, name, &length), "ncmpi_inq_dim", path);
      f.dims.push_back({name, static_cast<std::size_t>(length), d == unlimited});
      lengths.push_back(length);
    }
    f.global_attributes = pnetcdf_attributes(id, NC_GLOBAL, ngatts, path);
    for (int v = 0; v < nvars; ++v) {
      char name[NC_MAX_NAME + 1] = {};
      int dimids[NC_MAX_VAR_DIMS] = {};
      int vndims = 0, natts = 0;
      NcVariable var;
      pnetcdf_ok(ncmpi_inq_var(id, v, name, &var.type, &vndims, dimids, &natts), "ncmpi_inq_var", path);
      var.name = name;
      std::vector<MPI_Offset> count;
      for (int d = 0; d < vndims; ++d) {
        var.dims.push_back(f.dims[static_cast<std::size_t>(dimids[d])].name);
        count.push_back(lengths[static_cast<std::size_t>(dimids[d])]);
      }
      var.attributes = pnetcdf_attributes(id, v, natts, path);
      var.values = pnetcdf_values(id, v, var.type, count, path);
      f.vars.push_back(std::move(var));
    }
  } catch (...) {
    ncmpi_close(id);
    throw;
  }
  pnetcdf_ok(ncmpi_close(id), "ncmpi_close", path);
  return f;
}

void expect_pnetcdf_agrees(const std::string& path, const NcFile& first) {
  NcFile second;
  try {
    second = read_with_pnetcdf(path);
  } catch (const std::exception& e) {
    ADD_FAILURE() << "PnetCDF cannot read what netCDF-C reads: " << e.what();
    return;
  }
  EXPECT_EQ(second.format, first.format);
  EXPECT_EQ(second.dims, first.dims);
  EXPECT_EQ(second.global_attributes, first.global_attributes);
  ASSERT_EQ(second.vars.size(), first.vars.size());
  for (std::size_t v = 0; v < first.vars.size(); ++v) {
    const NcVariable& a = second.vars[v];
    const NcVariable& b = first.vars[v];
    EXPECT_EQ(a.name, b.name);
    EXPECT_EQ(a.type, b.type) << b.name;
    EXPECT_EQ(a.dims, b.dims) << b.name;
    EXPECT_EQ(a.attributes, b.attributes) << b.name;
    expect_same_values(b.name, a.values, b.values, "PnetCDF");
  }
}

#endif  // NWPIO_TEST_PNETCDF_READER

#ifdef NWPIO_TEST_HDF5_READER

// Closes an HDF5 identifier on every path out.
class H5Id {
 public:
  H5Id(hid_t id, herr_t (*close)(hid_t)) : id_(id), close_(close) {}
  ~H5Id() {
    if (id_ >= 0) close_(id_);
  }
  H5Id(const H5Id&) = delete;
  H5Id& operator=(const H5Id&) = delete;
  hid_t get() const noexcept { return id_; }
  bool ok() const noexcept { return id_ >= 0; }

 private:
  hid_t id_;
  herr_t (*close_)(hid_t);
};

// A dataset's shape and every value, in the file type's native form (netCDF-4 stores NC_CHAR
// as one-byte strings, the numbers as native-order numbers: the bytes netCDF-C returns).
struct H5Contents {
  std::vector<hsize_t> shape;
  std::vector<unsigned char> values;
};

// Empty when read, else what failed.
std::string read_dataset(hid_t file, const std::string& name, H5Contents& out) {
  const H5Id set(H5Dopen2(file, name.c_str(), H5P_DEFAULT), H5Dclose);
  if (!set.ok()) return "H5Dopen2 finds no dataset " + name;
  const H5Id space(H5Dget_space(set.get()), H5Sclose);
  const int rank = H5Sget_simple_extent_ndims(space.get());
  if (rank < 0) return "H5Sget_simple_extent_ndims of " + name;
  out.shape.assign(static_cast<std::size_t>(rank), 0);
  H5Sget_simple_extent_dims(space.get(), out.shape.data(), nullptr);
  const H5Id file_type(H5Dget_type(set.get()), H5Tclose);
  const H5Id memory_type(H5Tget_native_type(file_type.get(), H5T_DIR_DEFAULT), H5Tclose);
  hsize_t n = 1;
  for (hsize_t d : out.shape) n *= d;
  out.values.resize(static_cast<std::size_t>(n) * H5Tget_size(memory_type.get()));
  if (n > 0 && H5Dread(set.get(), memory_type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, out.values.data()) < 0) {
    return "H5Dread of " + name;
  }
  return {};
}

void expect_hdf5_agrees(const std::string& path, const NcFile& first) {
  const H5Id file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
  ASSERT_TRUE(file.ok()) << "HDF5 cannot open " << path << ", which netCDF-C reads as netCDF-4";
  for (const NcVariable& var : first.vars) {
    H5Contents got;
    const std::string why = read_dataset(file.get(), var.name, got);
    if (!why.empty()) {
      ADD_FAILURE() << path << ": " << why;
      continue;
    }
    std::vector<hsize_t> shape;
    for (const std::string& d : var.dims) {
      for (const NcDimension& dim : first.dims) {
        if (dim.name == d) shape.push_back(dim.length);
      }
    }
    EXPECT_EQ(got.shape, shape) << var.name << ": the dataset's shape is not the variable's dimensions";
    expect_same_values(var.name, got.values, var.values, "HDF5");
  }
}

#endif  // NWPIO_TEST_HDF5_READER

}  // namespace

bool has_second_reader(int format) {
#ifdef NWPIO_TEST_HDF5_READER
  if (format == NC_FORMAT_NETCDF4) return true;
#endif
#ifdef NWPIO_TEST_PNETCDF_READER
  if (format == NC_FORMAT_64BIT_OFFSET || format == NC_FORMAT_CDF5 || format == NC_FORMAT_CLASSIC) return true;
#endif
  (void)format;
  return false;
}

const char* second_reader_name(int format) { return format == NC_FORMAT_NETCDF4 ? "HDF5" : "PnetCDF"; }

void expect_second_reader_agrees(const std::string& path, const NcFile& first) {
  SCOPED_TRACE(std::string("read again through ") + second_reader_name(first.format) + ": " + path);
#ifdef NWPIO_TEST_HDF5_READER
  if (first.format == NC_FORMAT_NETCDF4) return expect_hdf5_agrees(path, first);
#endif
#ifdef NWPIO_TEST_PNETCDF_READER
  if (first.format != NC_FORMAT_NETCDF4) return expect_pnetcdf_agrees(path, first);
#endif
  (void)path;
}

}  // namespace nwpio::test
