// Reads back, through netCDF-C, the files a Fortran program wrote through module nwpio and
// compares every value with the fill rule (tools/synthetic verify_file), the Times of every
// frame with the dates the namelist asks for, and runs ncvalidator on every file.
//   verify_fortran_output --case kinds|mini_wrf --namelist FILE --dir DIR [--ncvalidator PATH]
// Exit code 0 only when every file and value is right. The variable lists below are the
// definitions of tests/fortran/fortran_write_test.f90 and examples/mini_wrf, in their order.
#include <mpi.h>
#include <netcdf.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "nwpio_model/model_settings.hpp"
#include "nwpio/options.hpp"
#include "nwpio/schema.hpp"
#include "nwpio/wrf_conventions.hpp"
#include "nwpio/wrf_date.hpp"
#include "synthetic.hpp"

namespace {

using nwpio::DataType;
using nwpio::MemoryOrder;
using nwpio::Stagger;

struct Def {
  const char* name;
  DataType type;
  MemoryOrder order;
  Stagger stagger;
  const char* vertical_dim;
};

constexpr int kSoilLayers = 4;

const std::vector<Def> kKinds = {
    {"U", DataType::Float, MemoryOrder::XZY, Stagger::X, ""},
    {"V", DataType::Float, MemoryOrder::XZY, Stagger::Y, ""},
    {"W", DataType::Float, MemoryOrder::XZY, Stagger::Z, ""},
    {"T_R8", DataType::Double, MemoryOrder::XZY, Stagger::None, ""},
    {"Q_XYZ", DataType::Float, MemoryOrder::XYZ, Stagger::None, ""},
    {"T2", DataType::Float, MemoryOrder::XY, Stagger::None, ""},
    {"HGT_R8", DataType::Double, MemoryOrder::XY, Stagger::None, ""},
    {"ISLTYP", DataType::Int, MemoryOrder::XY, Stagger::None, ""},
    {"ZNU", DataType::Float, MemoryOrder::Z, Stagger::None, ""},
    {"ZNW", DataType::Float, MemoryOrder::Z, Stagger::Z, ""},
    {"TSLB", DataType::Float, MemoryOrder::XZY, Stagger::Z, "soil_layers_stag"},
    {"ZS", DataType::Float, MemoryOrder::Z, Stagger::Z, "soil_layers_stag"},
    {"P_TOP", DataType::Float, MemoryOrder::Scalar, Stagger::None, ""},
    {"ITIMESTEP", DataType::Int, MemoryOrder::Scalar, Stagger::None, ""},
    {"XTIME_R8", DataType::Double, MemoryOrder::Scalar, Stagger::None, ""},
};

const std::vector<Def> kMiniWrf = {
    {"XLAT", DataType::Float, MemoryOrder::XY, Stagger::None, ""},
    {"XLONG", DataType::Float, MemoryOrder::XY, Stagger::None, ""},
    {"U", DataType::Float, MemoryOrder::XZY, Stagger::X, ""},
    {"V", DataType::Float, MemoryOrder::XZY, Stagger::Y, ""},
    {"W", DataType::Float, MemoryOrder::XZY, Stagger::Z, ""},
    {"PH", DataType::Float, MemoryOrder::XZY, Stagger::Z, ""},
    {"PHB", DataType::Float, MemoryOrder::XZY, Stagger::Z, ""},
    {"T", DataType::Float, MemoryOrder::XZY, Stagger::None, ""},
    {"P", DataType::Float, MemoryOrder::XZY, Stagger::None, ""},
    {"PB", DataType::Float, MemoryOrder::XZY, Stagger::None, ""},
    {"QVAPOR", DataType::Float, MemoryOrder::XZY, Stagger::None, ""},
    {"T2", DataType::Float, MemoryOrder::XY, Stagger::None, ""},
    {"PSFC", DataType::Float, MemoryOrder::XY, Stagger::None, ""},
    {"ZNU", DataType::Float, MemoryOrder::Z, Stagger::None, ""},
    {"ZNW", DataType::Float, MemoryOrder::Z, Stagger::Z, ""},
    {"TSLB", DataType::Float, MemoryOrder::XZY, Stagger::Z, "soil_layers_stag"},
    {"ZS", DataType::Float, MemoryOrder::Z, Stagger::Z, "soil_layers_stag"},
    {"XTIME", DataType::Float, MemoryOrder::Scalar, Stagger::None, ""},
    {"ITIMESTEP", DataType::Int, MemoryOrder::Scalar, Stagger::None, ""},
    {"P_TOP", DataType::Float, MemoryOrder::Scalar, Stagger::None, ""},
};

nwpio::Schema schema_of(const std::vector<Def>& defs) {
  nwpio::Schema schema;
  schema.add_dimension("soil_layers_stag", kSoilLayers);
  for (const Def& d : defs) schema.add_variable(nwpio::wrf::variable(d.name, d.type, d.order, d.stagger, "", "", d.vertical_dim));
  return schema;
}

// The dates the model's loop (start .. end by time_step, output when due) writes.
std::vector<std::string> expected_dates(const nwpio::OutputOptions& o, const nwpio::ModelSettings& m) {
  std::vector<std::string> dates;
  const std::int64_t start = nwpio::wrf::date_to_seconds(m.start_date);
  const std::int64_t end = nwpio::wrf::date_to_seconds(m.end_date);
  const std::int64_t first = nwpio::wrf::date_to_seconds(o.start_date.empty() ? m.start_date : o.start_date) +
                             o.history_begin_seconds;
  for (std::int64_t s = first; s <= end && o.history_interval_seconds > 0; s += o.history_interval_seconds) {
    if (s >= start) dates.push_back(nwpio::wrf::seconds_to_date(s));
  }
  return dates;
}

bool check_text_att(int ncid, const char* name, const std::string& want) {
  std::size_t len = 0;
  if (nc_inq_attlen(ncid, NC_GLOBAL, name, &len) != NC_NOERR) return false;
  std::string got(len, '\0');
  if (nc_get_att_text(ncid, NC_GLOBAL, name, got.data()) != NC_NOERR) return false;
  return got == want;
}

bool check_double_att(int ncid, const char* name, const std::vector<double>& want, nc_type type) {
  std::size_t len = 0;
  nc_type t = NC_NAT;
  if (nc_inq_att(ncid, NC_GLOBAL, name, &t, &len) != NC_NOERR || t != type || len != want.size()) return false;
  std::vector<double> got(len);
  if (nc_get_att_double(ncid, NC_GLOBAL, name, got.data()) != NC_NOERR) return false;
  return got == want;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  std::string which, namelist, dir, ncvalidator;
  for (int a = 1; a + 1 < argc; a += 2) {
    const std::string k = argv[a], v = argv[a + 1];
    if (k == "--case") which = v;
    else if (k == "--namelist") namelist = v;
    else if (k == "--dir") dir = v;
    else if (k == "--ncvalidator") ncvalidator = v;
  }
  int failures = 0;
  try {
    if (which != "kinds" && which != "mini_wrf") throw std::runtime_error("--case kinds|mini_wrf is required");
    const nwpio::OutputOptions opts = nwpio::OutputOptions::from_namelist(namelist, 1, MPI_COMM_SELF);
    const nwpio::ModelSettings model = nwpio::read_model_settings(namelist, 1, MPI_COMM_SELF);
    const nwpio::Schema schema = schema_of(which == "kinds" ? kKinds : kMiniWrf);
    const std::vector<std::string> dates = expected_dates(opts, model);

    std::vector<std::string> files;
    for (const auto& e : std::filesystem::directory_iterator(dir)) {
      if (e.is_regular_file() && e.path().filename().string().rfind("wrfout_", 0) == 0) files.push_back(e.path().string());
    }
    std::sort(files.begin(), files.end());
    const std::size_t per_file = static_cast<std::size_t>(std::max(1, opts.frames_per_file));
    const std::size_t want_files = (dates.size() + per_file - 1) / per_file;
    if (dates.empty() || files.size() != want_files) {
      std::cerr << "expected " << want_files << " files for " << dates.size() << " frames, found " << files.size()
                << " in " << dir << "\n";
      ++failures;
    }
    for (std::size_t f = 0; f < files.size() && f < want_files; ++f) {
      const std::size_t first = f * per_file;
      const std::vector<std::string> times(dates.begin() + static_cast<std::ptrdiff_t>(first),
                                           dates.begin() + static_cast<std::ptrdiff_t>(std::min(dates.size(), first + per_file)));
      const nwpio::synthetic::VerifyResult r =
          nwpio::synthetic::verify_file(files[f], schema, static_cast<std::int64_t>(first), times);
      std::cout << files[f] << ": " << r.summary() << "\n";
      if (!r.ok) ++failures;
      if (which == "kinds") {
        int ncid = -1;
        if (nc_open(files[f].c_str(), NC_NOWRITE, &ncid) != NC_NOERR) {
          ++failures;
        } else {
          const bool atts = check_text_att(ncid, "TITLE", " OUTPUT FROM FORTRAN_WRITE_TEST") &&
                            check_double_att(ncid, "DX", {model.dx}, NC_FLOAT) &&
                            check_double_att(ncid, "MAP_PROJ", {1}, NC_INT) &&
                            check_double_att(ncid, "DT_R8", {model.time_step}, NC_DOUBLE) &&
                            check_double_att(ncid, "LEVELS", {1, 2, 3}, NC_INT) &&
                            check_double_att(ncid, "WEST-EAST_GRID_DIMENSION", {double(model.e_we)}, NC_INT);
          nc_close(ncid);
          if (!atts) {
            std::cerr << files[f] << ": global attributes differ from what fortran_write_test put\n";
            ++failures;
          }
        }
      }
      int format = 0, ncid = -1;
      if (!ncvalidator.empty() && nc_open(files[f].c_str(), NC_NOWRITE, &ncid) == NC_NOERR) {
        nc_inq_format(ncid, &format);
        nc_close(ncid);
        if (format != NC_FORMAT_NETCDF4 && format != NC_FORMAT_NETCDF4_CLASSIC) {
          // ncvalidator reads "a:b" as a file-system prefix (PnetCDF's convention): hand it a
          // link without colons to files named with WRF's dates.
          const std::filesystem::path link = std::filesystem::path(dir) / ("ncvalidator_" + std::to_string(f) + ".nc");
          std::filesystem::remove(link);
          std::filesystem::create_symlink(std::filesystem::absolute(files[f]), link);
          const std::string cmd = "'" + ncvalidator + "' -q '" + link.string() + "'";
          const int rc = std::system(cmd.c_str());
          std::filesystem::remove(link);
          if (rc != 0) {
            std::cerr << files[f] << ": ncvalidator failed\n";
            ++failures;
          }
        }
      }
    }
  } catch (const std::exception& e) {
    std::cerr << "verify_fortran_output: " << e.what() << "\n";
    ++failures;
  }
  std::cout << (failures ? "FAILED" : "PASSED") << "\n";
  MPI_Finalize();
  return failures ? 1 : 0;
}
