// Reads the file wrfio_driver wrote through the ext_pnc_* package back with netCDF-C (not the
// PnetCDF that wrote it) and checks it against the driver's case (tests/wrfio/wrfio_case.f90):
// every value of every variable and frame, Times, every dimension, every variable and global
// attribute (the training phase's values: those repeated after commit are ignored), and that
// no temporary file is left. Usage: verify_wrfio_output <dir> [file name] (wrfio_driver's history
// file by default; its restart file is wrfrst_d01_2001-01-01_00_00_00). Prints one line; exit 0 =
// good.
#include <netcdf.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <string>
#include <vector>
#include "temp_paths.hpp"

namespace {

constexpr int kWe = 14, kSn = 11, kVert = 6, kSoil = 4, kSeed = 8, kFrames = 3;

struct Field {
  const char* name;
  const char* order;
  const char* stagger;
  int field_type;
  const char* kdim;  // the dimension's name in the file
  int klen;
};

// The same table as wrfio_case.f90 (index + 1 is the field number of the value rule).
const Field kFields[] = {
    {"XLAT", "XY", "", 104, "", 0},
    {"T", "XZY", "", 104, "bottom_top", kVert - 1},
    {"U", "XZY", "X", 104, "bottom_top", kVert - 1},
    {"V", "XZY", "Y", 104, "bottom_top", kVert - 1},
    {"W", "XZY", "Z", 104, "bottom_top_stag", kVert},
    {"QXYZ", "XYZ", "", 104, "bottom_top", kVert - 1},
    {"ZNU", "Z", "", 104, "bottom_top", kVert - 1},
    {"ZNW", "Z", "Z", 104, "bottom_top_stag", kVert},
    {"ZS", "Z", "Z", 104, "soil_layers_stag", kSoil},
    {"TSLB", "XZY", "Z", 104, "soil_layers_stag", kSoil},
    {"XTIME", "0", "", 104, "", 0},
    {"ITIMESTEP", "0", "", 106, "", 0},
    {"ISEEDARR", "Z", "Z", 106, "seed_dim_stag", kSeed},
    {"LANDFLAG", "XY", "", 107, "", 0},
    {"HGT_D", "XY", "", 105, "", 0},
    {"IVGTYP", "XY", "", 106, "", 0},
    {"SPFORC", "XY", "XY", 104, "", 0},
    {"FCX", "C", "", 104, "soil_layers_stag", kSoil},  // unnamed: WRF's rule reuses the length
    {"SWVIS", "XY", "Z", 104, "", 0},
    {"MPSTATE", "C", "", 104, "DIM0010", 7},  // unnamed, new length: DIM + its place in WRF's table
};

int rule(int v, int f, int i, int j, int k) { return ((((v * 4 + f) * 8 + k) * 16 + j) * 16 + i); }

int failures = 0;
void fail(const std::string& what) {
  if (++failures <= 20) std::cerr << "verify_wrfio_output: " << what << '\n';
}

std::string text_att(int nc, int var, const char* name) {
  std::size_t len = 0;
  if (nc_inq_attlen(nc, var, name, &len) != NC_NOERR) return "<missing>";
  std::string s(len, '\0');
  if (len) nc_get_att_text(nc, var, name, s.data());
  return s;
}

template <class T>
std::vector<T> num_att(int nc, int var, const char* name) {
  std::size_t len = 0;
  if (nc_inq_attlen(nc, var, name, &len) != NC_NOERR) return {};
  std::vector<T> v(len);
  nc_get_att(nc, var, name, v.data());
  return v;
}

void check_variable(int nc, int index) {
  const Field& f = kFields[index];
  const std::string name = f.name;
  int id = -1;
  if (nc_inq_varid(nc, f.name, &id) != NC_NOERR) return fail(name + ": missing");
  // File dimensions, slowest first: Time, then k, j, i of those the field has.
  const std::string order = f.order;
  const bool has_i = order.find('X') != std::string::npos, has_j = order.find('Y') != std::string::npos;
  const bool has_k = order.find('Z') != std::string::npos || order == "C";
  const std::string stag = f.stagger;
  const bool stag_i = stag == "X" || stag == "XY", stag_j = stag == "Y" || stag == "XY";
  std::vector<std::pair<std::string, std::size_t>> want{{"Time", kFrames}};
  if (has_k) want.emplace_back(f.kdim, static_cast<std::size_t>(f.klen));
  if (has_j) want.emplace_back(stag_j ? "south_north_stag" : "south_north", stag_j ? kSn : kSn - 1);
  if (has_i) want.emplace_back(stag_i ? "west_east_stag" : "west_east", stag_i ? kWe : kWe - 1);
  int ndims = 0, dims[NC_MAX_VAR_DIMS];
  nc_type type;
  nc_inq_var(nc, id, nullptr, &type, &ndims, dims, nullptr);
  if (ndims != static_cast<int>(want.size())) return fail(name + ": " + std::to_string(ndims) + " dimensions");
  for (int d = 0; d < ndims; ++d) {
    char dn[NC_MAX_NAME + 1] = {};
    std::size_t len = 0;
    nc_inq_dim(nc, dims[d], dn, &len);
    if (want[static_cast<std::size_t>(d)] != std::make_pair(std::string(dn), len)) {
      fail(name + ": dimension " + std::to_string(d) + " is " + dn + "=" + std::to_string(len));
    }
  }
  const nc_type want_type = f.field_type == 104 ? NC_FLOAT : f.field_type == 105 ? NC_DOUBLE : NC_INT;
  if (type != want_type) fail(name + ": type " + std::to_string(type));
  // Attributes: FieldType, MemoryOrder (WRF's file order), then what the training phase put.
  if (num_att<int>(nc, id, "FieldType") != std::vector<int>{f.field_type}) fail(name + ": FieldType");
  const std::string memord = order == "XZY" || order == "XYZ" ? "XYZ"
                             : order == "XY"                  ? "XY "
                             : order == "Z"                   ? "Z  "
                             : order == "C"                   ? "C  "
                                                              : "0  ";
  if (text_att(nc, id, "MemoryOrder") != memord) fail(name + ": MemoryOrder '" + text_att(nc, id, "MemoryOrder") + "'");
  if (text_att(nc, id, "description") != "desc of " + name) fail(name + ": description");
  if (text_att(nc, id, "units") != "m s-1") fail(name + ": units");
  const std::string stagger = stag.empty() ? std::string(1, '\0') : stag;
  if (text_att(nc, id, "stagger") != stagger) fail(name + ": stagger (an empty one is one NUL, as WRF writes it)");
  if (has_i && text_att(nc, id, "coordinates") != "XLONG XLAT XTIME") fail(name + ": coordinates");
  int natts = 0;
  nc_inq_varnatts(nc, id, &natts);
  const int want_atts = 5 + (has_i ? 1 : 0) + (name == "T" ? 2 : 0);
  if (natts != want_atts) fail(name + ": " + std::to_string(natts) + " attributes, expected " + std::to_string(want_atts));
  if (name == "T" && (num_att<int>(nc, id, "extra_int") != std::vector<int>{7, 8} ||
                      num_att<float>(nc, id, "scale") != std::vector<float>{0.5f})) {
    fail("T: extra_int / scale");
  }
  // Every value of every frame.
  std::size_t n = 1;
  for (std::size_t d = 1; d < want.size(); ++d) n *= want[d].second;
  std::vector<double> got(n * kFrames);
  nc_get_var_double(nc, id, got.data());
  const int ni = has_i ? static_cast<int>(want.back().second) : 1;
  const int nj = has_j ? static_cast<int>(want[want.size() - (has_i ? 2 : 1)].second) : 1;
  const int nk = has_k ? f.klen : 1;
  std::size_t bad = 0, at = 0;
  for (int frame = 1; frame <= kFrames; ++frame) {
    for (int k = 1; k <= nk; ++k) {
      for (int j = 1; j <= nj; ++j) {
        for (int i = 1; i <= ni; ++i, ++at) {
          const int r = rule(index + 1, frame, has_i ? i : 0, has_j ? j : 0, has_k ? k : 0);
          double expected = r;
          if (f.field_type == 105) expected += 0.25;
          if (f.field_type == 107) expected = r % 3 == 0 ? 1 : 0;
          if (got[at] != expected) ++bad;
        }
      }
    }
  }
  if (bad) fail(name + ": " + std::to_string(bad) + " of " + std::to_string(got.size()) + " values wrong");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2 && argc != 3) {
    std::cerr << "usage: verify_wrfio_output <dir> [file name, default wrfout_d01_2001-01-01_00_00_00]\n";
    return 2;
  }
  namespace fs = std::filesystem;
  const fs::path dir = argv[1];
  const fs::path file = dir / (argc == 3 ? argv[2] : "wrfout_d01_2001-01-01_00_00_00");
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().extension() == ".nwpio-tmp") fail("temporary file left: " + e.path().string());
  }
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(nwpio::test::private_dir_of(dir.string()), ec)) {
    fail("temporary file left: " + e.path().string());
  }
  int nc = -1;
  if (nc_open(file.c_str(), NC_NOWRITE, &nc) != NC_NOERR) {
    std::cerr << "verify_wrfio_output: cannot open " << file << '\n';
    return 1;
  }
  int format = 0;
  nc_inq_format(nc, &format);
  if (format != NC_FORMAT_64BIT_OFFSET) fail("format is not CDF-2 (WRF's io_form 11 format)");
  const std::map<std::string, std::size_t> dims{{"Time", kFrames},         {"DateStrLen", 19},
                                                {"west_east", kWe - 1},    {"south_north", kSn - 1},
                                                {"bottom_top", kVert - 1}, {"bottom_top_stag", kVert},
                                                {"soil_layers_stag", kSoil}, {"west_east_stag", kWe},
                                                {"south_north_stag", kSn}, {"seed_dim_stag", kSeed},
                                                {"DIM0010", 7}};
  int ndims = 0;
  nc_inq_ndims(nc, &ndims);
  if (ndims != static_cast<int>(dims.size())) fail(std::to_string(ndims) + " dimensions");
  for (const auto& [name, len] : dims) {
    int id = -1;
    std::size_t got = 0;
    if (nc_inq_dimid(nc, name.c_str(), &id) != NC_NOERR || nc_inq_dimlen(nc, id, &got) != NC_NOERR || got != len) {
      fail("dimension " + name);
    }
  }
  // Times, one record per frame.
  int times = -1;
  std::string t(kFrames * 19, ' ');
  if (nc_inq_varid(nc, "Times", &times) != NC_NOERR || nc_get_var_text(nc, times, t.data()) != NC_NOERR ||
      t != "2001-01-01_00:00:002001-01-01_00:05:002001-01-01_00:10:00") {
    fail("Times: '" + t + "'");
  }
  int nvars = 0;
  nc_inq_nvars(nc, &nvars);
  constexpr int kNumFields = static_cast<int>(sizeof kFields / sizeof kFields[0]);
  if (nvars != kNumFields + 1) fail(std::to_string(nvars) + " variables");
  for (int v = 0; v < kNumFields; ++v) check_variable(nc, v);
  // Global attributes: the training phase's values, in their order; the changes after commit ignored.
  if (text_att(nc, NC_GLOBAL, "TITLE") != " OUTPUT FROM NWPIO WRFIO DRIVER") fail("TITLE: '" + text_att(nc, NC_GLOBAL, "TITLE") + "'");
  if (text_att(nc, NC_GLOBAL, "START_DATE") != "2001-01-01_00:00:00") fail("START_DATE");
  if (text_att(nc, NC_GLOBAL, "EMPTY_TEXT") != "") fail("EMPTY_TEXT (zero length)");
  if (num_att<int>(nc, NC_GLOBAL, "WEST-EAST_GRID_DIMENSION") != std::vector<int>{kWe}) fail("WEST-EAST_GRID_DIMENSION");
  if (num_att<float>(nc, NC_GLOBAL, "DX") != std::vector<float>{2000.0f}) fail("DX (the value after commit must be ignored)");
  if (num_att<double>(nc, NC_GLOBAL, "DT_D") != std::vector<double>{1.25, 2.5}) fail("DT_D");
  if (num_att<int>(nc, NC_GLOBAL, "FLAG") != std::vector<int>{1, 0}) fail("FLAG (logicals as 1/0)");
  int natts = 0;
  nc_inq_natts(nc, &natts);
  if (natts != 7) fail(std::to_string(natts) + " global attributes, expected 7");
  nc_close(nc);
  if (failures) {
    std::cout << "verify_wrfio_output: " << failures << " problems in " << file << '\n';
    return 1;
  }
  std::cout << "verify_wrfio_output: " << file.string() << ": " << kNumFields
            << " variables x 3 frames, every value, Times, dimensions and attributes as written\n";
  return 0;
}
