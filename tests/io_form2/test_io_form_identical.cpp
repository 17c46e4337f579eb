// io_form 2 and io_form 11 write the same file: every dimension, variable, attribute (name,
// type, value) and value, at 1-4 ranks (3: an uneven split), in both io_form 2 formats (CDF-2
// and netCDF-4). All files are read through netCDF-C (never PnetCDF) and also checked against
// the synthetic model's fill rule; CDF-2 files pass ncvalidator. The gather buffer of io_form 2
// stays within its bound. In a build without PnetCDF: the fallback and its error.
#include <gtest/gtest.h>
#include <mpi.h>
#include <netcdf.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "nc_reader.hpp"
#include "nwpio/decomposition.hpp"
#include "nwpio/error.hpp"
#include "nwpio/wrf_conventions.hpp"
#include "nwpio/wrf_decompose.hpp"
#include "nwpio_model/wrf_history.hpp"
#include "nwpio/writer.hpp"
#include "scratch.hpp"
#include "synthetic.hpp"

namespace nwpio::test {
namespace {

constexpr int kWe = 23, kSn = 17, kVert = 9, kSoil = 4;  // staggered counts: odd, uneven splits
constexpr int kFrames = 3;

int world_rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

Decomposition make_decomposition() {
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const auto [px, py] = wrf::choose_nproc(size);
  return Decomposition::from_wrf(MPI_COMM_WORLD, wrf::split_domain(kWe, kSn, kVert, px, py, world_rank(), 3));
}

// Every kind of field: 2-D, 3-D XZY and XYZ with halos, U/V/W staggered, soil, Z, scalar, int, double.
Schema make_schema(const Decomposition& d) {
  using wrf::variable;
  Schema s;
  s.add_dimension("soil_layers_stag", kSoil);
  s.add_variable(variable("XLAT", DataType::Float, MemoryOrder::XY, Stagger::None, "LATITUDE, SOUTH IS NEGATIVE", "degree_north"));
  s.add_variable(variable("T2", DataType::Float, MemoryOrder::XY, Stagger::None, "TEMP at 2 M", "K"));
  s.add_variable(variable("U", DataType::Float, MemoryOrder::XZY, Stagger::X, "x-wind component", "m s-1"));
  s.add_variable(variable("V", DataType::Float, MemoryOrder::XZY, Stagger::Y, "y-wind component", "m s-1"));
  s.add_variable(variable("W", DataType::Float, MemoryOrder::XZY, Stagger::Z, "z-wind component", "m s-1"));
  s.add_variable(variable("PH", DataType::Float, MemoryOrder::XYZ, Stagger::Z, "perturbation geopotential", "m2 s-2"));
  s.add_variable(variable("T", DataType::Float, MemoryOrder::XZY, Stagger::None, "perturbation potential temperature", "K"));
  s.add_variable(variable("TSLB", DataType::Float, MemoryOrder::XZY, Stagger::Z, "SOIL TEMPERATURE", "K", "soil_layers_stag"));
  s.add_variable(variable("ZNU", DataType::Float, MemoryOrder::Z, Stagger::None, "eta values on half (mass) levels", ""));
  s.add_variable(variable("ZS", DataType::Float, MemoryOrder::Z, Stagger::Z, "DEPTHS OF CENTERS OF SOIL LAYERS", "m", "soil_layers_stag"));
  s.add_variable(variable("ITIMESTEP", DataType::Int, MemoryOrder::Scalar, Stagger::None, "", ""));
  s.add_variable(variable("XTIME", DataType::Float, MemoryOrder::Scalar, Stagger::None, "minutes since start", "minutes"));
  s.add_variable(variable("IVGTYP", DataType::Int, MemoryOrder::XY, Stagger::None, "DOMINANT VEGETATION CATEGORY", ""));
  s.add_variable(variable("P_D", DataType::Double, MemoryOrder::XZY, Stagger::None, "pressure (double)", "Pa"));
  s.add_variable(variable("DT_D", DataType::Double, MemoryOrder::Scalar, Stagger::None, "time step (double)", "s"));
  s.set_global_attribute({"TITLE", std::string(" OUTPUT FROM nwpio io_form test")});
  s.set_global_attribute({"DX", std::vector<float>{3000.f}});
  s.set_global_attribute({"TRUELATS", std::vector<float>{30.f, 60.f}});
  s.set_global_attribute({"CEN_LATLON_D", std::vector<double>{39.5, -98.25}});
  s.set_global_attribute({"MAP_PROJ", std::vector<std::int32_t>{1}});
  wrf::set_grid_attributes(s, d.domain());
  return s;
}

struct Case {
  std::string name;
  IoForm io_form;
  bool classic;  // io_form 2: use_netcdf_classic
};

struct Written {
  std::vector<std::string> files;
  Statistics stats;
  Schema schema;  // after iofields (none here)
};

OutputOptions options_for(const Case& c, const std::string& dir) {
  OutputOptions o;
  o.output_dir = dir;
  o.io_form = c.io_form;
  o.use_netcdf_classic = c.classic;
  o.frames_per_file = kFrames;
  o.start_date = "2026-11-30_00:00:00";
  o.history_interval_seconds = 3600;
  o.print_timing = false;
  return o;
}

Written write_case(const Decomposition& d, const Schema& schema, const OutputOptions& o) {
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
    const std::string f = writer.current_file();
    if (!f.empty() && (out.files.empty() || out.files.back() != f)) out.files.push_back(f);
  }
  writer.close();
  out.stats = writer.statistics();
  out.schema = writer.schema();
  return out;
}

void expect_same(const NcContents& a, const NcContents& b, const std::string& what) {
  EXPECT_EQ(a.dims, b.dims) << what << ": dimensions differ";
  EXPECT_EQ(a.global_attributes, b.global_attributes) << what << ": global attributes differ";
  ASSERT_EQ(a.vars.size(), b.vars.size()) << what;
  for (std::size_t v = 0; v < a.vars.size(); ++v) {
    const auto& x = a.vars[v];
    const auto& y = b.vars[v];
    EXPECT_EQ(x.name, y.name) << what;
    EXPECT_EQ(x.type, y.type) << what << ": " << x.name;
    EXPECT_EQ(x.dims, y.dims) << what << ": " << x.name;
    EXPECT_EQ(x.attributes, y.attributes) << what << ": attributes of " << x.name;
    EXPECT_TRUE(x.values == y.values) << what << ": values of " << x.name << " differ";
  }
}

int run_quiet(const std::string& command) { return std::system((command + " > /dev/null 2>&1").c_str()); }

#ifdef NWPIO_NCVALIDATOR
// ncvalidator (like PnetCDF and ROMIO) reads "prefix:" as a file-system type, so WRF's file
// names with colons (io_form 2 keeps them unless nocolons) go through the "ufs:" prefix.
int run_ncvalidator(const std::string& path) {
  return run_quiet(std::string(NWPIO_NCVALIDATOR) + " 'ufs:" + std::filesystem::absolute(path).string() + "'");
}
#endif

void check_written(const Written& w, int expected_format, const Schema& schema) {
  ASSERT_EQ(w.files.size(), 1u);
  const NcContents c = read_nc(w.files[0]);
  EXPECT_EQ(c.format, expected_format) << w.files[0];
  const auto r = synthetic::verify_file(w.files[0], schema, 0);
  EXPECT_TRUE(r.ok) << w.files[0] << ": " << r.summary();
  EXPECT_EQ(r.records, kFrames);
  if (expected_format == NC_FORMAT_64BIT_OFFSET) {
#ifdef NWPIO_NCVALIDATOR
    EXPECT_EQ(run_ncvalidator(w.files[0]), 0) << "ncvalidator rejects " << w.files[0];
#endif
  } else {
#ifdef NWPIO_NCDUMP
    EXPECT_EQ(run_quiet(std::string(NWPIO_NCDUMP) + " -h " + w.files[0]), 0) << "ncdump -h fails on " << w.files[0];
#endif
  }
}

void run_identity(const Schema& schema, const Decomposition& d, const std::string& tag) {
  const std::vector<Case> cases = {
#ifdef NWPIO_TEST_HAVE_PNETCDF
      {"io11", IoForm::Pnetcdf, false},
#endif
      {"io2_cdf2", IoForm::NetcdfSerial, true},
      {"io2_nc4", IoForm::NetcdfSerial, false},
  };
  std::vector<Written> written;
  for (const Case& c : cases) written.push_back(write_case(d, schema, options_for(c, scratch_dir(tag + "_" + c.name))));
  if (world_rank() != 0) return;
  std::vector<NcContents> contents;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const int format = cases[i].io_form == IoForm::NetcdfSerial && !cases[i].classic ? NC_FORMAT_NETCDF4 : NC_FORMAT_64BIT_OFFSET;
    check_written(written[i], format, written[i].schema);
    contents.push_back(read_nc(written[i].files.at(0)));
  }
  // Every file against the first (io_form 11 where built): identical contents.
  for (std::size_t i = 1; i < contents.size(); ++i) expect_same(contents[0], contents[i], cases[0].name + " vs " + cases[i].name);
}

TEST(IoFormIdentical, AllFieldKindsInEveryFormat) {
  const Decomposition d = make_decomposition();
  run_identity(make_schema(d), d, "kinds");
}

// The real WRF V4.4.1 variable set (201 variables and the header's global attributes).
TEST(IoFormIdentical, RealWrfVariableSet) {
  const Decomposition d = make_decomposition();
  wrf::HistorySchemaOptions h;
  h.e_we = kWe;
  h.e_sn = kSn;
  h.e_vert = kVert;
  run_identity(wrf::history_schema(h), d, "wrf");
}

// Bytes of the part of field `spec` that `patch` writes (decomposed record fields only).
std::int64_t field_bytes(const VarSpec& spec, const Decomposition& d, const Box& patch, const Schema& schema) {
  if (!is_decomposed(spec.memory_order) || !spec.time_dependent) return 0;
  const Box w = Decomposition::write_box(patch, d.domain(), spec.stagger);
  std::int64_t nk = 1;
  if (is_3d(spec.memory_order)) {
    if (!spec.vertical_dim.empty()) {
      nk = schema.find_dimension(spec.vertical_dim)->length;
    } else {
      nk = Decomposition::write_box(d.domain(), d.domain(), spec.stagger).extent(kAxisK);
    }
  }
  return w.extent(kAxisI) * w.extent(kAxisJ) * nk * static_cast<std::int64_t>(size_of(spec.type));
}

// The gather to rank 0 is bounded: its staging buffers never exceed rank 0's own data plus one
// variable plus the configured chunk, and the frame really is split into rounds.
TEST(SerialGather, PeakBufferWithinTheConfiguredBound) {
  const Decomposition d = make_decomposition();
  const Schema schema = make_schema(d);
  std::int64_t own = 0, largest = 0, frame = 0;
  for (const VarSpec& v : schema.variables()) {
    own += field_bytes(v, d, d.all_patches()[0], schema);
    const std::int64_t whole = field_bytes(v, d, d.domain(), schema);
    largest = std::max(largest, whole);
    frame += whole;
  }
  for (bool classic : {true, false}) {
    OutputOptions o = options_for({"bound", IoForm::NetcdfSerial, classic}, scratch_dir(classic ? "bound_cdf2" : "bound_nc4"));
    o.serial_chunk_bytes = largest / 3;  // the largest variable needs several rounds
    const Written w = write_case(d, schema, o);
    // The bound is own data + one variable + the chunk; nwpio's staging alone stays
    // within the chunk (the model's own arrays are not copied).
    const std::int64_t bound = own + largest + o.serial_chunk_bytes;
    for (const FrameStats& f : w.stats.frames) {
      EXPECT_GT(f.peak_buffer_bytes, 0) << "the gather buffer was not measured";
      EXPECT_LE(f.peak_buffer_bytes, o.serial_chunk_bytes) << "staging over the configured chunk";
      EXPECT_LE(f.peak_buffer_bytes, bound) << "own " << own << " + largest variable " << largest << " + chunk "
                                            << o.serial_chunk_bytes;
      EXPECT_LT(f.peak_buffer_bytes, frame) << "rank 0 staged a whole frame";
      EXPECT_GE(f.rounds, 3) << "a frame of " << frame << " bytes in chunks of " << o.serial_chunk_bytes;
    }
    if (world_rank() == 0) check_written(w, classic ? NC_FORMAT_64BIT_OFFSET : NC_FORMAT_NETCDF4, w.schema);
  }
}

TEST(IoFormSwitch, UnknownIoFormIsAnErrorOnEveryRankListingTheSupported) {
  const Decomposition d = make_decomposition();
  OutputOptions o = options_for({"bad", IoForm::NetcdfSerial, false}, scratch_dir("bad"));
  o.io_form = static_cast<IoForm>(7);
  if (world_rank() == 0) std::filesystem::create_directories(o.output_dir);
  MPI_Barrier(MPI_COMM_WORLD);
  try {
    Writer w(d, make_schema(d), o);
    FAIL() << "io_form 7 accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Unsupported);
    const std::string m = e.what();
    EXPECT_NE(m.find("io_form 7 is not supported"), std::string::npos) << m;
    for (const char* v : {"0 (null", "2 (serial netCDF)", "11 (PnetCDF"}) EXPECT_NE(m.find(v), std::string::npos) << m;
  }
}

// io_form 11 with fallback_to_serial: where PnetCDF is built, nothing changes (a CDF-2 file from
// PnetCDF); without it, io_form 2 writes the file (netCDF-4: use_netcdf_classic is .false.),
// and without the fallback it is Error(Unsupported) on every rank.
TEST(IoFormSwitch, FallbackToSerial) {
  const Decomposition d = make_decomposition();
  const Schema schema = make_schema(d);
  OutputOptions o = options_for({"fallback", IoForm::Pnetcdf, false}, scratch_dir("fallback"));
  o.fallback_to_serial = true;
  const Written w = write_case(d, schema, o);
#ifdef NWPIO_TEST_HAVE_PNETCDF
  if (world_rank() == 0) check_written(w, NC_FORMAT_64BIT_OFFSET, w.schema);
#else
  if (world_rank() == 0) check_written(w, NC_FORMAT_NETCDF4, w.schema);
  o.fallback_to_serial = false;
  o.output_dir = scratch_dir("no_fallback");
  try {
    write_case(d, schema, o);
    FAIL() << "io_form 11 accepted by a build without PnetCDF";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Unsupported);
    EXPECT_NE(std::string(e.what()).find("built without PnetCDF"), std::string::npos) << e.what();
  }
#endif
}

}  // namespace
}  // namespace nwpio::test
