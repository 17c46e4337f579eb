// boxmodel (C++): the small box model of examples/c, not WRF, through nwpio's C++ API
// (nwpio/nwpio.hpp): the history settings in code instead of a namelist, the decomposition as
// 0-based boxes, errors as exceptions. Every value it writes follows a formula (README.md).
//
//   mpiexec -n 3 ./boxmodel_cpp [output_dir] [io_form]     io_form 11 (PnetCDF, default) or 2
#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <exception>
#include <optional>
#include <string>
#include <vector>

#include "nwpio/nwpio.hpp"

namespace {

// NX x NY cells of NZ layers; U lives on the cells' west and east faces (NX + 1 along x).
constexpr int kNx = 23, kNy = 17, kNz = 6, kHalo = 2;
constexpr int kTimeStep = 1800, kRunSeconds = 12 * 3600;
constexpr double kNotWritten = -999.0;  // halo points and points outside a field's grid
const std::string kStart = "2024-03-01_00:00:00";

// This rank's part of the grid as nwpio boxes: 0-based, half-open, axes (i, j, k).
struct RankGrid {
  // nwpio's domain is the staggered grid (NX + 1, NY + 1, NZ + 1 points), so the last rank along
  // x also owns the column i = NX (U's east face), the last along y the row j = NY, and every
  // rank the level k = NZ.
  nwpio::Box patch;
  nwpio::Box memory;  // the arrays: the patch with kHalo points on each side in i and j

  std::int64_t extent(int axis) const { return memory.extent(axis); }
  // Arrays are a[k][j][i] with i fastest: nwpio's memory order XYZ (XY for 2-D).
  std::size_t at(std::int64_t i, std::int64_t j, std::int64_t k) const {
    return static_cast<std::size_t>((i - memory.lo[0]) + extent(0) * ((j - memory.lo[1]) + extent(1) * (k - memory.lo[2])));
  }
  bool owns(std::int64_t i, std::int64_t j, std::int64_t nx) const {
    return i >= patch.lo[0] && i < patch.hi[0] && i < nx && j >= patch.lo[1] && j < patch.hi[1] && j < kNy;
  }
};

// Start of task t's share when n points are split over p tasks, the first n % p one larger.
std::int64_t split_start(int n, int p, int t) { return t * (n / p) + (t < n % p ? t : n % p); }

// 2 ranks split x (12 + 11 columns), 3 ranks split y (6 + 6 + 5 rows), 4 ranks both.
RankGrid decompose(int rank, int nranks) {
  const int px = nranks % 2 == 0 ? 2 : 1, py = nranks / px;
  const int task[2] = {rank % px, rank / px}, ntasks[2] = {px, py}, cells[2] = {kNx, kNy};
  RankGrid g;
  for (int a = 0; a < 2; ++a) {
    const bool last = task[a] == ntasks[a] - 1;
    g.patch.lo[a] = split_start(cells[a], ntasks[a], task[a]);
    g.patch.hi[a] = split_start(cells[a], ntasks[a], task[a] + 1) + (last ? 1 : 0);  // + the staggered end
    g.memory.lo[a] = g.patch.lo[a] - kHalo;
    g.memory.hi[a] = g.patch.hi[a] + kHalo;
  }
  g.patch.lo[2] = g.memory.lo[2] = 0;
  g.patch.hi[2] = g.memory.hi[2] = kNz + 1;
  return g;
}

// The fields, as functions of the point (i, j, k) and the hours t since the start.
float temperature(std::int64_t i, std::int64_t j, std::int64_t k, double t) {
  return static_cast<float>(280.0 + i / 2.0 + j / 4.0 - k + t / 8.0);
}
float u_face(std::int64_t i, std::int64_t j, std::int64_t k, double t) {
  return static_cast<float>(i / 4.0 - j / 8.0 + k / 2.0 + t / 16.0);
}
double sea_surface(std::int64_t i, std::int64_t j, double t) { return (i - j) / 64.0 + t / 32.0; }

// The model's state: halo'd arrays that live through the run.
struct State {
  std::vector<float> t, u;  // T: NX x NY x NZ, U: (NX + 1) x NY x NZ
  explicit State(const RankGrid& g) : t(g.memory.volume()), u(g.memory.volume()) {}

  void compute(const RankGrid& g, double hours) {
    const nwpio::Box& m = g.memory;
    for (std::int64_t k = m.lo[2]; k < m.hi[2]; ++k) {
      for (std::int64_t j = m.lo[1]; j < m.hi[1]; ++j) {
        for (std::int64_t i = m.lo[0]; i < m.hi[0]; ++i) {
          const bool layer = k < kNz;
          t[g.at(i, j, k)] = layer && g.owns(i, j, kNx) ? temperature(i, j, k, hours) : float(kNotWritten);
          u[g.at(i, j, k)] = layer && g.owns(i, j, kNx + 1) ? u_face(i, j, k, hours) : float(kNotWritten);
        }
      }
    }
  }
};

// The variables and global attributes of the history files. nwpio names the file dimensions
// itself (west_east, south_north, bottom_top, west_east_stag, Time); the attributes are the
// model's own choice (wrf::variable() would add WRF's).
nwpio::Schema history_schema() {
  const auto variable = [](std::string name, nwpio::DataType type, nwpio::MemoryOrder order, nwpio::Stagger stagger,
                           std::string long_name, std::string units) {
    nwpio::VarSpec v;
    v.name = std::move(name);
    v.type = type;
    v.memory_order = order;
    v.stagger = stagger;
    v.attributes = {{"long_name", std::move(long_name)}, {"units", std::move(units)}};
    return v;
  };
  using nwpio::DataType, nwpio::MemoryOrder, nwpio::Stagger;
  nwpio::Schema schema;
  schema.add_variable(variable("T", DataType::Float, MemoryOrder::XYZ, Stagger::None, "temperature", "K"));
  schema.add_variable(variable("U", DataType::Float, MemoryOrder::XYZ, Stagger::X, "x-velocity on the cell faces", "m s-1"));
  schema.add_variable(variable("SSH", DataType::Double, MemoryOrder::XY, Stagger::None, "sea surface height", "m"));
  schema.set_global_attribute({"TITLE", std::string("boxmodel, the C++ example of nwpio")});
  schema.set_global_attribute({"DX", std::vector<float>{5000.0f}});
  return schema;
}

nwpio::OutputOptions history_options(const std::string& output_dir, int io_form) {
  nwpio::OutputOptions o;
  o.io_form = static_cast<nwpio::IoForm>(io_form);
  o.use_netcdf_classic = true;  // io_form 2: the classic format io_form 11 writes
  o.output_dir = output_dir;
  o.outname = "boxmodel_cpp_<date>.nc";
  o.frames_per_file = 2;
  o.start_date = kStart;
  o.history_interval_seconds = 6 * 3600;  // frames at 00, 06 and 12 h: 2 files
  o.e_we = kNx + 1;                       // checked against the decomposition
  o.e_sn = kNy + 1;
  o.e_vert = kNz + 1;
  return o;
}

// A diagnostic computed for output only, into an array that is gone when this returns: copy =
// true packs it at put(). The checked put also compares the array's extents with the memory box.
void put_sea_surface(nwpio::Writer& history, const RankGrid& g, double hours) {
  std::vector<double> ssh(static_cast<std::size_t>(g.extent(0) * g.extent(1)));
  for (std::int64_t j = g.memory.lo[1]; j < g.memory.hi[1]; ++j) {
    for (std::int64_t i = g.memory.lo[0]; i < g.memory.hi[0]; ++i) {
      ssh[g.at(i, j, 0)] = g.owns(i, j, kNx) ? sea_surface(i, j, hours) : kNotWritten;
    }
  }
  history.put("SSH", nwpio::ArrayView{.data = ssh.data(),
                                      .type = nwpio::DataType::Double,
                                      .extents = std::vector<std::int64_t>{g.extent(0), g.extent(1)},
                                      .memory = std::nullopt,  // the decomposition's memory box
                                      .copy = true});
}

void run(MPI_Comm comm, const std::string& output_dir, int io_form) {
  int rank = 0, nranks = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &nranks);
  const RankGrid g = decompose(rank, nranks);
  // Collective: every rank's boxes are checked together (the patches tile the domain, each
  // memory box holds its patch), and every rank throws the same Error if not.
  const nwpio::Box domain{{0, 0, 0}, {kNx + 1, kNy + 1, kNz + 1}};
  const auto decomposition = nwpio::Decomposition::from_boxes(comm, domain, g.memory, g.patch);
  // Collective: the options are checked (output directory, io_form of this build) here.
  nwpio::Writer history(decomposition, history_schema(), history_options(output_dir, io_form));

  State state(g);
  for (int step = 0; step * kTimeStep <= kRunSeconds; ++step) {
    const std::string date = nwpio::wrf::add_seconds(kStart, std::int64_t{step} * kTimeStep);
    if (!history.output_due(date)) continue;  // local, cheap
    const double hours = step * kTimeStep / 3600.0;
    state.compute(g, hours);
    history.begin_frame(date);  // collective
    try {
      // No copy: nwpio reads these arrays in end_frame(), so they stay unchanged until then.
      history.put("T", state.t.data());
      history.put("U", state.u.data());
      put_sea_surface(history, g, hours);
    } catch (const nwpio::Error&) {
      // put() throws on this rank only; end_frame() throws the same Error on every rank, so all
      // ranks leave together (leaving from here would leave the others waiting in end_frame).
    }
    history.end_frame();  // collective: writes the frame; the arrays may change again
  }
  history.close();  // collective: every file carries its final name when it returns
  if (rank == 0) std::printf("boxmodel: history written on %d ranks\n", nranks);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int status = 0;
  try {
    run(MPI_COMM_WORLD, argc > 1 ? argv[1] : ".", argc > 2 ? std::stoi(argv[2]) : 11);
  } catch (const nwpio::Error& e) {
    // The same Error on every rank. The Writer was destroyed on the way out: during unwinding
    // it enters no collective call, and a partial file keeps its temporary name.
    if (rank == 0) std::fprintf(stderr, "boxmodel: %s error: %s\n", std::string(nwpio::to_string(e.kind())).c_str(), e.what());
    status = 1;
  } catch (const std::exception& e) {
    // Not nwpio's: the other ranks may be inside a collective call.
    std::fprintf(stderr, "boxmodel[%d]: %s\n", rank, e.what());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Finalize();
  return status;
}
