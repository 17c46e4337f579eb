// io_form 13 (parallel netCDF-4, rank-owned compressed chunks), at 1-4 ranks (3: uneven splits):
//  - the file equals io_form 11's in every dimension, attribute and value (read through netCDF-C's
//    serial path, and through xarray in another process with its own netCDF/HDF5), and the fill
//    rule holds for every value; ncdump and CDO read it;
//  - every chunk is the rule's shape for the writer count (so one writer owns it), filters as set;
//  - quantized variables stay within the bound their setting promises, value by value;
//  - bad settings are errors on every rank, naming the key and value (file:line from a
//    namelist), before any file exists;
//  - under ROMIO (its own runs): WRF's dated names with ':' are refused before any file exists
//    (ROMIO reads the text before ':' as a file-system prefix), nocolons writes.
#include <gtest/gtest.h>
#include <mpi.h>
#include <netcdf.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "mpiio/mpiio_layer.hpp"
#include "nc_reader.hpp"
#include "nwpio/decomposition.hpp"
#include "nwpio/error.hpp"
#include "nwpio/wrf_conventions.hpp"
#include "nwpio/wrf_decompose.hpp"
#include "nwpio/writer.hpp"
#include "scratch.hpp"
#include "synthetic.hpp"

namespace nwpio::test {
namespace {

constexpr int kWe = 23, kSn = 17, kVert = 9, kSoil = 4;
constexpr int kFrames = 2;

int world_rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}
int world_size() {
  int s = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &s);
  return s;
}

Decomposition make_decomposition() {
  const auto [px, py] = wrf::choose_nproc(world_size());
  return Decomposition::from_wrf(MPI_COMM_WORLD, wrf::split_domain(kWe, kSn, kVert, px, py, world_rank(), 3));
}

Schema make_schema(const Decomposition& d) {
  using wrf::variable;
  Schema s;
  s.add_dimension("soil_layers_stag", kSoil);
  s.add_variable(variable("XLAT", DataType::Float, MemoryOrder::XY, Stagger::None, "LATITUDE, SOUTH IS NEGATIVE", "degree_north"));
  s.add_variable(variable("U", DataType::Float, MemoryOrder::XZY, Stagger::X, "x-wind component", "m s-1"));
  s.add_variable(variable("V", DataType::Float, MemoryOrder::XZY, Stagger::Y, "y-wind component", "m s-1"));
  s.add_variable(variable("W", DataType::Float, MemoryOrder::XZY, Stagger::Z, "z-wind component", "m s-1"));
  s.add_variable(variable("PH", DataType::Float, MemoryOrder::XYZ, Stagger::Z, "perturbation geopotential", "m2 s-2"));
  s.add_variable(variable("T", DataType::Float, MemoryOrder::XZY, Stagger::None, "perturbation potential temperature", "K"));
  s.add_variable(variable("TSLB", DataType::Float, MemoryOrder::XZY, Stagger::Z, "SOIL TEMPERATURE", "K", "soil_layers_stag"));
  s.add_variable(variable("ZNU", DataType::Float, MemoryOrder::Z, Stagger::None, "eta values on half (mass) levels", ""));
  s.add_variable(variable("ITIMESTEP", DataType::Int, MemoryOrder::Scalar, Stagger::None, "", ""));
  s.add_variable(variable("IVGTYP", DataType::Int, MemoryOrder::XY, Stagger::None, "DOMINANT VEGETATION CATEGORY", ""));
  s.add_variable(variable("P_D", DataType::Double, MemoryOrder::XZY, Stagger::None, "pressure (double)", "Pa"));
  s.add_variable(variable("T2", DataType::Float, MemoryOrder::XY, Stagger::None, "TEMP at 2 M", "K"));
  s.set_global_attribute({"TITLE", std::string(" OUTPUT FROM nwpio io_form 13 test")});
  s.set_global_attribute({"DX", std::vector<float>{3000.f}});
  wrf::set_grid_attributes(s, d.domain());
  return s;
}

OutputOptions options_for(IoForm io_form, const std::string& dir) {
  OutputOptions o;
  o.output_dir = dir;
  o.io_form = io_form;
  o.frames_per_file = kFrames;
  o.start_date = "2026-11-30_00:00:00";
  o.history_interval_seconds = 3600;
  o.print_timing = false;
  o.hints.report = HintReport::Off;
  return o;
}

struct Written {
  std::string file;
  Statistics stats;
};

Written write_frames(const Decomposition& d, const Schema& schema, const OutputOptions& o) {
  if (world_rank() == 0) std::filesystem::create_directories(o.output_dir);
  MPI_Barrier(MPI_COMM_WORLD);
  Writer writer(d, schema, o);
  synthetic::SyntheticModel model(d, writer.schema());
  Written out;
  for (int t = 0; t < kFrames; ++t) {
    char date[32];
    std::snprintf(date, sizeof date, "2026-11-30_%02d:00:00", t);
    model.fill(t);
    writer.begin_frame(date);
    model.put_all(writer);
    writer.end_frame();
    if (out.file.empty()) out.file = writer.current_file();
  }
  writer.close();
  out.stats = writer.statistics();
  return out;
}

int run_quiet(const std::string& command) { return std::system((command + " > /dev/null 2>&1").c_str()); }

// Chunk shape and filters of every variable as netCDF-C reads them from the file.
struct VarStorage {
  std::vector<std::size_t> chunks;
  int shuffle = 0, deflate = 0, level = 0, quantize = 0, digits = 0;
};
VarStorage read_storage(int ncid, int varid) {
  VarStorage s;
  int ndims = 0, storage = 0;
  nc_ok(nc_inq_varndims(ncid, varid, &ndims), "nc_inq_varndims");
  s.chunks.resize(static_cast<std::size_t>(ndims));
  nc_ok(nc_inq_var_chunking(ncid, varid, &storage, s.chunks.data()), "nc_inq_var_chunking");
  nc_ok(nc_inq_var_deflate(ncid, varid, &s.shuffle, &s.deflate, &s.level), "nc_inq_var_deflate");
  nc_ok(nc_inq_var_quantize(ncid, varid, &s.quantize, &s.digits), "nc_inq_var_quantize");
  return s;
}

TEST(ParallelNetcdf4, SameFileAsIoForm11EveryValue) {
  const Decomposition d = make_decomposition();
  const Schema schema = make_schema(d);
  const Written io13 = write_frames(d, schema, options_for(IoForm::NetcdfParallel, scratch_dir("same_io13")));
#ifdef NWPIO_HAVE_PNETCDF
  const Written io11 = write_frames(d, schema, options_for(IoForm::Pnetcdf, scratch_dir("same_io11")));
#endif
  EXPECT_EQ(io13.stats.backend, "netcdf4-parallel");
  if (world_rank() != 0) return;
  const NcContents c13 = read_nc(io13.file);
  EXPECT_EQ(c13.format, NC_FORMAT_NETCDF4);
  const auto r = synthetic::verify_file(io13.file, schema, 0);
  EXPECT_TRUE(r.ok) << r.summary();
  EXPECT_EQ(r.records, kFrames);
#ifdef NWPIO_HAVE_PNETCDF
  const NcContents c11 = read_nc(io11.file);
  EXPECT_EQ(c11.dims, c13.dims);
  EXPECT_EQ(c11.global_attributes, c13.global_attributes);
  ASSERT_EQ(c11.vars.size(), c13.vars.size());
  for (std::size_t v = 0; v < c11.vars.size(); ++v) {
    EXPECT_EQ(c11.vars[v].name, c13.vars[v].name);
    EXPECT_EQ(c11.vars[v].dims, c13.vars[v].dims) << c11.vars[v].name;
    EXPECT_EQ(c11.vars[v].attributes, c13.vars[v].attributes) << c11.vars[v].name;
    EXPECT_TRUE(c11.vars[v].values == c13.vars[v].values) << "values of " << c11.vars[v].name << " differ";
  }
#ifdef NWPIO_PYTHON3
  // A second, independent reader: xarray over the Debian python's own netCDF4/HDF5.
  const std::string py = std::string(NWPIO_PYTHON3) + " " + NWPIO_TEST_SOURCE_DIR + "/xarray_compare.py ";
  EXPECT_EQ(run_quiet(py + io13.file + " " + io11.file), 0) << "xarray finds the io_form 13 and 11 files different";
#endif
#endif
#ifdef NWPIO_NCDUMP
  EXPECT_EQ(run_quiet(std::string(NWPIO_NCDUMP) + " " + io13.file), 0) << "ncdump fails on " << io13.file;
#endif
#ifdef NWPIO_CDO
  EXPECT_EQ(run_quiet(std::string(NWPIO_CDO) + " -s info " + io13.file), 0) << "cdo info fails on " << io13.file;
#endif
  // The storage: every variable with i and j chunked by the rule for this many writers, with
  // shuffle + deflate 2 (WRF's), and the same shape in the statistics' storage report.
  int ncid = -1;
  nc_ok(nc_open(io13.file.c_str(), NC_NOWRITE, &ncid), "nc_open");
  std::string report;
  for (const auto& [k, text] : io13.stats.attachments) {
    if (k.rfind("storage:", 0) == 0) report = text;
  }
  EXPECT_FALSE(report.empty()) << "no storage report in the statistics";
  for (std::size_t v = 1; v < c13.vars.size(); ++v) {
    const VarStorage s = read_storage(ncid, static_cast<int>(v));
    const auto& dims = c13.vars[v].dims;
    const bool horizontal = dims.size() >= 3 && dims[dims.size() - 1].rfind("west_east", 0) == 0;
    if (!horizontal) continue;
    // Time 1, one plane, whole rows of i.
    EXPECT_EQ(s.chunks.front(), 1u) << c13.vars[v].name;
    std::size_t i_len = 0, j_len = 0;
    for (const auto& dim : c13.dims) {
      if (dim.name == dims.back()) i_len = dim.length;
      if (dim.name == dims[dims.size() - 2]) j_len = dim.length;
    }
    EXPECT_EQ(s.chunks.back(), i_len) << c13.vars[v].name;
    for (std::size_t k = 1; k + 2 < s.chunks.size(); ++k) EXPECT_EQ(s.chunks[k], 1u) << c13.vars[v].name;
    const std::size_t cj = s.chunks[s.chunks.size() - 2];
    EXPECT_TRUE(cj == j_len || dims.size() == 3) << c13.vars[v].name << ": stripes only for 2-D fields here";
    EXPECT_EQ(s.shuffle, 1) << c13.vars[v].name;
    EXPECT_EQ(s.deflate, 1) << c13.vars[v].name;
    EXPECT_EQ(s.level, 2) << c13.vars[v].name;
    EXPECT_NE(report.find("\"" + c13.vars[v].name + "\""), std::string::npos) << c13.vars[v].name << " not in the storage report";
  }
  nc_close(ncid);
}

// |q - x| within what the setting promises: BitRound keeps `bits` mantissa bits (rounded to
// nearest: half a unit of the last kept bit); GranularBR and BitGroom keep `digits` significant
// decimal digits (half a unit of the last kept digit).
double bound(const std::string& mode, int n, double x) {
  if (x == 0) return 0;
  const double ax = std::fabs(x);
  if (mode == "bitround") return std::ldexp(1.0, std::ilogb(ax) - n - 1);
  return 0.5 * std::pow(10.0, std::floor(std::log10(ax)) + 1 - n);
}

TEST(ParallelNetcdf4, QuantizedValuesWithinTheirBound) {
  const Decomposition d = make_decomposition();
  const Schema schema = make_schema(d);
  OutputOptions o = options_for(IoForm::NetcdfParallel, scratch_dir("quantize"));
  o.quantize = {"bitround=5", ""};  // every float field with i and j
  o.compression_vars = {"T: granularbr=2; V: bitgroom=3; XLAT: quantize=none", ""};
  const Written q = write_frames(d, schema, o);
  // The same frames without quantization: the exact values (checked against the fill rule).
  const Written exact = write_frames(d, schema, options_for(IoForm::NetcdfParallel, scratch_dir("quantize_ref")));
  if (world_rank() != 0) return;
  const auto r = synthetic::verify_file(exact.file, schema, 0);
  ASSERT_TRUE(r.ok) << r.summary();
  const NcContents cq = read_nc(q.file), ce = read_nc(exact.file);
  struct Expect {
    const char* name;
    std::string mode;
    int n;
  };
  for (const Expect& e : {Expect{"U", "bitround", 5}, Expect{"T", "granularbr", 2}, Expect{"V", "bitgroom", 3},
                          Expect{"XLAT", "none", 0}, Expect{"T2", "bitround", 5}, Expect{"PH", "bitround", 5}}) {
    const NcVariable* vq = cq.find(e.name);
    const NcVariable* ve = ce.find(e.name);
    ASSERT_TRUE(vq && ve) << e.name;
    const std::vector<float> got = values_as<float>(*vq), want = values_as<float>(*ve);
    ASSERT_EQ(got.size(), want.size()) << e.name;
    std::size_t changed = 0, outside = 0;
    for (std::size_t i = 0; i < got.size(); ++i) {
      changed += got[i] != want[i];
      const double b = e.mode == "none" ? 0.0 : bound(e.mode, e.n, want[i]);
      if (std::fabs(static_cast<double>(got[i]) - want[i]) > b) {
        if (outside++ < 5) ADD_FAILURE() << e.name << "[" << i << "] = " << got[i] << ", exact " << want[i] << ": off by more than " << b;
      }
    }
    EXPECT_EQ(outside, 0u) << e.name << ": " << outside << " values outside the bound";
    if (e.mode == "none") {
      EXPECT_EQ(changed, 0u) << e.name << " is not quantized but changed";
    } else {
      EXPECT_GT(changed, 0u) << e.name << ": quantization changed nothing (values up to 1020 need more than "
                             << e.n << (e.mode == "bitround" ? " bits" : " digits") << ")";
    }
    int ncid = -1, mode = -1, nsd = -1, varid = -1;
    nc_ok(nc_open(q.file.c_str(), NC_NOWRITE, &ncid), "nc_open");
    nc_ok(nc_inq_varid(ncid, e.name, &varid), "nc_inq_varid");
    nc_ok(nc_inq_var_quantize(ncid, varid, &mode, &nsd), "nc_inq_var_quantize");
    nc_close(ncid);
    const int want_mode = e.mode == "bitround" ? NC_QUANTIZE_BITROUND : e.mode == "granularbr" ? NC_QUANTIZE_GRANULARBR
                          : e.mode == "bitgroom" ? NC_QUANTIZE_BITGROOM : NC_NOQUANTIZE;
    EXPECT_EQ(mode, want_mode) << e.name;
    if (want_mode != NC_NOQUANTIZE) {
      EXPECT_EQ(nsd, e.n) << e.name;
    }
  }
  // Integer fields are never quantized by the stream-wide setting.
  EXPECT_TRUE(cq.find("IVGTYP")->values == ce.find("IVGTYP")->values);
}

// A bad setting: Error(Config) on every rank, naming the key and the value, and no file.
void expect_config_error(const OutputOptions& o, const std::vector<std::string>& parts) {
  const Decomposition d = make_decomposition();
  const Schema schema = make_schema(d);
  if (world_rank() == 0) std::filesystem::create_directories(o.output_dir);
  MPI_Barrier(MPI_COMM_WORLD);
  try {
    Writer w(d, schema, o);
    w.begin_frame("2026-11-30_00:00:00");
    ADD_FAILURE() << "accepted: " << parts.front();
  } catch (const Error& e) {
    for (const std::string& p : parts) EXPECT_NE(std::string(e.what()).find(p), std::string::npos) << e.what();
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (world_rank() == 0) {
    EXPECT_TRUE(std::filesystem::is_empty(o.output_dir)) << "a file was created in " << o.output_dir;
  }
}

TEST(ParallelNetcdf4, BadSettingsAreErrorsBeforeAnyFile) {
  const std::string dir = scratch_dir("bad");
  OutputOptions o = options_for(IoForm::NetcdfParallel, dir);
  o.deflate_level = 12;
  expect_config_error(o, {"deflate_level", "12", "from 0 to 9"});
  o = options_for(IoForm::NetcdfParallel, dir);
  o.compression_filter = "zstd";
  expect_config_error(o, {"compression_filter", "zstd"});
  o = options_for(IoForm::NetcdfParallel, dir);
  o.compression_vars = {"IVGTYP: bitround=5", "cfg.nml:7:20"};
  expect_config_error(o, {"cfg.nml:7:20", "compression_vars", "IVGTYP", "float or double"});
  o = options_for(IoForm::NetcdfParallel, dir);
  o.compression_vars = {"T: chunk=1x5x7", ""};
  expect_config_error(o, {"compression_vars", "1x1x5x7", "T", "cannot be honoured"});
  o = options_for(IoForm::NetcdfParallel, dir);
  o.compression_vars = {"TT: deflate=3", ""};
  expect_config_error(o, {"no variable TT"});
  o = options_for(IoForm::NetcdfParallel, dir);
  o.quantize = {"granularbr=9", ""};
  expect_config_error(o, {"quantize", "granularbr=9", "float"});
  o = options_for(IoForm::NetcdfParallel, dir);
  o.compression_vars = {"T: deflate=4 bogus=1", ""};
  expect_config_error(o, {"bogus", "unknown setting"});
}

// From a namelist: the error names the file and line of the value.
TEST(ParallelNetcdf4, NamelistSettingErrorNamesFileAndLine) {
  const std::string dir = scratch_dir("bad_nml");
  const std::string nml = scratch_dir("bad.nml");
  if (world_rank() == 0) {
    std::filesystem::create_directories(scratch_dir());
    std::ofstream(nml) << "&time_control\n start_year = 2026, start_month = 11, start_day = 30,\n"
                          " history_interval = 60, io_form_history = 13\n/\n&nwpio\n output_dir = '"
                       << dir << "'\n compression_vars = 'T: deflate=3; ITIMESTEP: granularbr=3'\n/\n";
  }
  MPI_Barrier(MPI_COMM_WORLD);
  OutputOptions o = OutputOptions::from_namelist(nml, 1, MPI_COMM_WORLD);
  EXPECT_EQ(o.io_form, IoForm::NetcdfParallel);
  o.print_timing = false;
  expect_config_error(o, {"bad.nml:7:", "ITIMESTEP", "int"});
}

// Run only under ROMIO (CMake: mpi_nc4par_romio_np<N>, OMPI_MCA_io=romio321; the OMPIO runs
// leave this suite out). ROMIO reads the text before ':' as a file-system prefix: WRF's dated
// names are refused before any file exists, naming nocolons; with nocolons the file is written
// and every value reads back.
TEST(UnderRomio, ColonNamesRefusedBeforeAnyFileAndNocolonsWrites) {
  ASSERT_EQ(detail::detect_mpiio().layer, detail::IoLayer::Romio) << "run with OMPI_MCA_io=romio321";
  const Decomposition d = make_decomposition();
  const Schema schema = make_schema(d);
  OutputOptions o = options_for(IoForm::NetcdfParallel, scratch_dir("romio_colons"));
  expect_config_error(o, {"ROMIO", "file-system prefix", "wrfout_d01_2026-11-30_00:00:00", "nocolons = .true."});
  o.output_dir = scratch_dir("romio:dir");
  o.nocolons = true;
  expect_config_error(o, {"output_dir without ':'"});
  o.output_dir = scratch_dir("romio_nocolons");
  const Written w = write_frames(d, schema, o);
  if (world_rank() != 0) return;
  EXPECT_EQ(std::filesystem::path(w.file).filename(), "wrfout_d01_2026-11-30_00_00_00");
  const auto r = synthetic::verify_file(w.file, schema, 0);
  EXPECT_TRUE(r.ok) << r.summary();
  EXPECT_EQ(r.records, kFrames);
}

}  // namespace
}  // namespace nwpio::test
