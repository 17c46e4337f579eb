#include "test_model.hpp"

#include <cstdlib>
#include <cstring>
#include <variant>

#include "nwpio/wrf_conventions.hpp"
#include "nwpio/wrf_date.hpp"
#include "nwpio/wrf_decompose.hpp"

namespace nwpio::test {

namespace {

constexpr double kSentinel = -7777.0;

// The value the model stores for an analytic value x, by type (doubles get a fraction so that
// a float path would show; chars cycle through letters).
double stored(DataType type, double x) {
  switch (type) {
    case DataType::Float: return static_cast<float>(x);
    case DataType::Double: return x + 0.25;
    case DataType::Int: return static_cast<std::int32_t>(x);
    case DataType::Char: return 'A' + static_cast<int>(x) % 26;
  }
  return x;
}

void store(std::byte* p, DataType type, double v) {
  switch (type) {
    case DataType::Float: {
      const auto f = static_cast<float>(v);
      std::memcpy(p, &f, 4);
      break;
    }
    case DataType::Double: std::memcpy(p, &v, 8); break;
    case DataType::Int: {
      const auto n = static_cast<std::int32_t>(v);
      std::memcpy(p, &n, 4);
      break;
    }
    case DataType::Char: *p = static_cast<std::byte>(static_cast<int>(v) & 0x7f); break;
  }
}

// File extents of a variable (i, j, k), as the conventions define them.
struct Extent {
  std::int64_t ni = 1, nj = 1, nk = 1;
};

Extent field_extent(const VarSpec& spec, const Schema& schema, const ModelShape& shape) {
  Extent e;
  const bool grid_k = spec.vertical_dim.empty();
  const std::int64_t nk = grid_k ? shape.e_vert - 1 + (spec.stagger == Stagger::Z ? 1 : 0)
                                 : schema.find_dimension(spec.vertical_dim)->length;
  if (is_decomposed(spec.memory_order)) {
    e.ni = shape.e_we - 1 + (spec.stagger == Stagger::X ? 1 : 0);
    e.nj = shape.e_sn - 1 + (spec.stagger == Stagger::Y ? 1 : 0);
  }
  if (is_3d(spec.memory_order) || spec.memory_order == MemoryOrder::Z) e.nk = nk;
  return e;
}

}  // namespace

double analytic(int varid, std::int64_t i, std::int64_t j, std::int64_t k, int t) {
  return static_cast<double>((7 * i + 13 * j + 17 * k + 19 * t + 23 * varid) % 1021);
}

Decomposition make_decomposition(MPI_Comm comm, const ModelShape& shape) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  auto [px, py] = wrf::choose_nproc(size);
  if (shape.nproc_x > 0) {
    px = shape.nproc_x;
    py = shape.nproc_y > 0 ? shape.nproc_y : size / px;
  }
  return Decomposition::from_wrf(comm, wrf::split_domain(shape.e_we, shape.e_sn, shape.e_vert, px, py, rank, shape.halo));
}

Schema make_test_schema(const ModelShape& shape) {
  using DT = DataType;
  using MO = MemoryOrder;
  using wrf::variable;
  Schema s;
  s.add_dimension("soil_layers_stag", shape.soil);
  s.add_dimension("title_len", 11);
  s.add_variable(variable("T2", DT::Float, MO::XY, Stagger::None, "TEMP at 2 M", "K"));
  s.add_variable(variable("T", DT::Float, MO::XZY, Stagger::None, "perturbation potential temperature", "K"));
  s.add_variable(variable("U", DT::Float, MO::XZY, Stagger::X, "x-wind component", "m s-1"));
  s.add_variable(variable("V", DT::Float, MO::XZY, Stagger::Y, "y-wind component", "m s-1"));
  s.add_variable(variable("W", DT::Float, MO::XZY, Stagger::Z, "z-wind component", "m s-1"));
  s.add_variable(variable("TSLB", DT::Float, MO::XZY, Stagger::Z, "SOIL TEMPERATURE", "K", "soil_layers_stag"));
  s.add_variable(variable("ZNU", DT::Float, MO::Z, Stagger::None, "eta values on half (mass) levels", ""));
  s.add_variable(variable("ZNW", DT::Float, MO::Z, Stagger::Z, "eta values on full (w) levels", ""));
  s.add_variable(variable("ZS", DT::Float, MO::Z, Stagger::Z, "DEPTHS OF CENTERS OF SOIL LAYERS", "m", "soil_layers_stag"));
  s.add_variable(variable("ITIMESTEP", DT::Int, MO::Scalar, Stagger::None, "", ""));
  s.add_variable(variable("XTIME", DT::Float, MO::Scalar, Stagger::None, "minutes since 2019-06-01 00:00:00", "minutes"));
  s.add_variable(variable("P_D", DT::Double, MO::XZY, Stagger::None, "pressure in double", "Pa"));
  s.add_variable(variable("HGT_D", DT::Double, MO::XY, Stagger::None, "terrain height in double", "m"));
  s.add_variable(variable("ISLTYP", DT::Int, MO::XY, Stagger::None, "DOMINANT SOIL CATEGORY", ""));
  s.add_variable(variable("QV_XYZ", DT::Float, MO::XYZ, Stagger::None, "vapor held i-j-k", "kg kg-1"));
  s.add_variable(variable("PH_XYZ", DT::Float, MO::XYZ, Stagger::Z, "geopotential held i-j-k", "m2 s-2"));
  VarSpec mapfac = variable("MAPFAC_M", DT::Float, MO::XY, Stagger::None, "Map scale factor on mass grid", "");
  mapfac.time_dependent = false;
  s.add_variable(std::move(mapfac));
  s.add_variable(variable("TITLE_STR", DT::Char, MO::Z, Stagger::None, "", "", "title_len"));
  s.set_global_attribute({"TITLE", std::string(" OUTPUT FROM NWPIO WRITER TEST")});
  s.set_global_attribute({"DX", std::vector<float>{12000.f}});
  s.set_global_attribute({"P_TOP_D", std::vector<double>{5000.5}});
  Box domain;
  domain.hi = {shape.e_we, shape.e_sn, shape.e_vert};
  wrf::set_grid_attributes(s, domain);
  return s;
}

Model::Model(MPI_Comm comm, const ModelShape& shape)
    : decomposition_(make_decomposition(comm, shape)), schema_(make_test_schema(shape)), shape_(shape) {
  const Box& mem = decomposition_.memory();
  for (const VarSpec& spec : schema_.variables()) {
    const std::int64_t nkm = spec.vertical_dim.empty() ? mem.extent(kAxisK) : schema_.find_dimension(spec.vertical_dim)->length;
    std::int64_t n = 1;
    if (is_3d(spec.memory_order)) n = mem.extent(kAxisI) * mem.extent(kAxisJ) * nkm;
    if (spec.memory_order == MemoryOrder::XY) n = mem.extent(kAxisI) * mem.extent(kAxisJ);
    if (spec.memory_order == MemoryOrder::Z) n = nkm;
    arrays_.emplace_back(static_cast<std::size_t>(n) * size_of(spec.type));
  }
}

void Model::fill(int t) {
  const Box& mem = decomposition_.memory();
  const Box& patch = decomposition_.patch();
  const auto& vars = schema_.variables();
  for (std::size_t s = 0; s < vars.size(); ++s) {
    const VarSpec& spec = vars[s];
    const int varid = static_cast<int>(s) + 1;
    const Extent ext = field_extent(spec, schema_, shape_);
    const bool grid_k = spec.vertical_dim.empty();
    const std::int64_t nim = mem.extent(kAxisI), njm = mem.extent(kAxisJ);
    const std::int64_t nkm = grid_k ? mem.extent(kAxisK) : ext.nk;
    const std::size_t es = size_of(spec.type);
    std::byte* base = arrays_[s].data();
    auto value = [&](std::int64_t i, std::int64_t j, std::int64_t k, bool decomposed) {
      const bool in_field = i >= 0 && j >= 0 && k >= 0 && i < ext.ni && j < ext.nj && k < ext.nk;
      const bool in_patch = !decomposed || (i >= patch.lo[kAxisI] && i < patch.hi[kAxisI] && j >= patch.lo[kAxisJ] &&
                                            j < patch.hi[kAxisJ]);
      return in_field && in_patch ? stored(spec.type, analytic(varid, i, j, k, t)) : kSentinel;
    };
    switch (spec.memory_order) {
      case MemoryOrder::XZY:
      case MemoryOrder::XYZ:
        for (std::int64_t jj = 0; jj < njm; ++jj) {
          for (std::int64_t kk = 0; kk < nkm; ++kk) {
            for (std::int64_t ii = 0; ii < nim; ++ii) {
              const std::int64_t idx = spec.memory_order == MemoryOrder::XZY ? ii + nim * (kk + nkm * jj)
                                                                             : ii + nim * (jj + njm * kk);
              const std::int64_t k = grid_k ? mem.lo[kAxisK] + kk : kk;
              store(base + idx * static_cast<std::int64_t>(es), spec.type,
                    value(mem.lo[kAxisI] + ii, mem.lo[kAxisJ] + jj, k, true));
            }
          }
        }
        break;
      case MemoryOrder::XY:
        for (std::int64_t jj = 0; jj < njm; ++jj) {
          for (std::int64_t ii = 0; ii < nim; ++ii) {
            store(base + (ii + nim * jj) * static_cast<std::int64_t>(es), spec.type,
                  value(mem.lo[kAxisI] + ii, mem.lo[kAxisJ] + jj, 0, true));
          }
        }
        break;
      case MemoryOrder::Z:
        for (std::int64_t kk = 0; kk < nkm; ++kk) {
          const std::int64_t k = grid_k ? mem.lo[kAxisK] + kk : kk;
          store(base + kk * static_cast<std::int64_t>(es), spec.type, value(0, 0, k, false));
        }
        break;
      case MemoryOrder::Scalar: store(base, spec.type, value(0, 0, 0, false)); break;
    }
  }
}

std::vector<std::byte> Model::patch_array(std::size_t s, int t, Box& box) const {
  const VarSpec& spec = schema_.variables()[s];
  const int varid = static_cast<int>(s) + 1;
  const Extent ext = field_extent(spec, schema_, shape_);
  box = Decomposition::write_box(decomposition_.patch(), decomposition_.domain(), spec.stagger);
  if (!spec.vertical_dim.empty() || !is_3d(spec.memory_order)) {
    box.lo[kAxisK] = 0;
    box.hi[kAxisK] = ext.nk;
  }
  const std::int64_t ni = box.extent(kAxisI), nj = box.extent(kAxisJ), nk = box.extent(kAxisK);
  const std::size_t es = size_of(spec.type);
  std::vector<std::byte> out(static_cast<std::size_t>(ni * nj * nk) * es);
  for (std::int64_t k = 0; k < nk; ++k) {
    for (std::int64_t j = 0; j < nj; ++j) {
      for (std::int64_t i = 0; i < ni; ++i) {
        const std::int64_t idx = spec.memory_order == MemoryOrder::XZY ? i + ni * (k + nk * j) : i + ni * (j + nj * k);
        const double v = stored(spec.type, analytic(varid, box.lo[kAxisI] + i, box.lo[kAxisJ] + j, box.lo[kAxisK] + k, t));
        store(out.data() + idx * static_cast<std::int64_t>(es), spec.type, v);
      }
    }
  }
  return out;
}

namespace {

std::string dim_name(int ncid, int dimid) {
  char name[NC_MAX_NAME + 1] = {};
  nc_inq_dimname(ncid, dimid, name);
  return name;
}

void check_attribute(int ncid, int varid, const std::string& where, const Attribute& a) {
  nc_type type = NC_NAT;
  size_t len = 0;
  if (nc_inq_att(ncid, varid, a.name.c_str(), &type, &len) != NC_NOERR) {
    ADD_FAILURE() << where << ": attribute " << a.name << " missing";
    return;
  }
  std::visit(
      [&](const auto& v) {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::string>) {
          std::string got(len, '\0');
          EXPECT_EQ(type, NC_CHAR) << where << ":" << a.name;
          if (len > 0) nc_get_att_text(ncid, varid, a.name.c_str(), got.data());
          EXPECT_EQ(got, v) << where << ":" << a.name;
        } else {
          using E = typename T::value_type;
          T got(len);
          if constexpr (std::is_same_v<E, float>) {
            EXPECT_EQ(type, NC_FLOAT);
            nc_get_att_float(ncid, varid, a.name.c_str(), got.data());
          } else if constexpr (std::is_same_v<E, double>) {
            EXPECT_EQ(type, NC_DOUBLE);
            nc_get_att_double(ncid, varid, a.name.c_str(), got.data());
          } else {
            EXPECT_EQ(type, NC_INT);
            nc_get_att_int(ncid, varid, a.name.c_str(), got.data());
          }
          EXPECT_EQ(got, v) << where << ":" << a.name;
        }
      },
      a.value);
}

}  // namespace

void check_file(const ExpectedFile& f, const Schema& schema, const ModelShape& shape, int expected_format) {
  SCOPED_TRACE(f.path);
  int ncid = -1;
  ASSERT_EQ(nc_open(f.path.c_str(), NC_NOWRITE, &ncid), NC_NOERR) << "nc_open " << f.path;
  int format = 0;
  nc_inq_format(ncid, &format);
  EXPECT_EQ(format, expected_format);

  // Dimensions: WRF's order, then the schema's own.
  const std::vector<std::pair<std::string, std::size_t>> dims = {
      {"Time", f.frames.size()},
      {"DateStrLen", 19},
      {"west_east", static_cast<std::size_t>(shape.e_we - 1)},
      {"south_north", static_cast<std::size_t>(shape.e_sn - 1)},
      {"bottom_top", static_cast<std::size_t>(shape.e_vert - 1)},
      {"bottom_top_stag", static_cast<std::size_t>(shape.e_vert)},
      {"soil_layers_stag", static_cast<std::size_t>(shape.soil)},
      {"west_east_stag", static_cast<std::size_t>(shape.e_we)},
      {"south_north_stag", static_cast<std::size_t>(shape.e_sn)},
      {"title_len", 11}};
  int ndims = 0, unlimited = -1;
  nc_inq_ndims(ncid, &ndims);
  nc_inq_unlimdim(ncid, &unlimited);
  ASSERT_EQ(ndims, static_cast<int>(dims.size()));
  EXPECT_EQ(unlimited, 0);
  for (int d = 0; d < ndims; ++d) {
    size_t len = 0;
    nc_inq_dimlen(ncid, d, &len);
    EXPECT_EQ(dim_name(ncid, d), dims[static_cast<std::size_t>(d)].first);
    EXPECT_EQ(len, dims[static_cast<std::size_t>(d)].second) << dim_name(ncid, d);
  }

  // Times.
  int nvars = 0;
  nc_inq_nvars(ncid, &nvars);
  ASSERT_EQ(nvars, 1 + static_cast<int>(schema.variables().size()));
  char name[NC_MAX_NAME + 1] = {};
  nc_inq_varname(ncid, 0, name);
  EXPECT_STREQ(name, "Times");
  for (std::size_t r = 0; r < f.frames.size(); ++r) {
    char text[20] = {};
    const size_t start[2] = {r, 0}, count[2] = {1, 19};
    EXPECT_EQ(nc_get_vara_text(ncid, 0, start, count, text), NC_NOERR);
    EXPECT_EQ(std::string(text), f.dates[r]);
  }

  // Every variable: name, type, dimensions, attributes, every value.
  const auto& vars = schema.variables();
  for (std::size_t s = 0; s < vars.size(); ++s) {
    const VarSpec& spec = vars[s];
    const int varid = static_cast<int>(s) + 1;
    nc_inq_varname(ncid, varid, name);
    EXPECT_EQ(std::string(name), spec.name);
    const std::vector<std::string> want_dims = wrf::file_dimensions(spec);
    int nd = 0;
    int dimids[NC_MAX_VAR_DIMS];
    nc_inq_varndims(ncid, varid, &nd);
    nc_inq_vardimid(ncid, varid, dimids);
    ASSERT_EQ(nd, static_cast<int>(want_dims.size())) << spec.name;
    for (int d = 0; d < nd; ++d) EXPECT_EQ(dim_name(ncid, dimids[d]), want_dims[static_cast<std::size_t>(d)]) << spec.name;
    int natts = 0;
    nc_inq_varnatts(ncid, varid, &natts);
    EXPECT_EQ(natts, static_cast<int>(spec.attributes.size())) << spec.name;
    for (const Attribute& a : spec.attributes) check_attribute(ncid, varid, spec.name, a);

    const Extent ext = field_extent(spec, schema, shape);
    const std::size_t n = static_cast<std::size_t>(ext.ni * ext.nj * ext.nk);
    std::vector<double> values(n);
    std::vector<char> text(n);
    const std::size_t nrec = spec.time_dependent ? f.frames.size() : 1;
    for (std::size_t r = 0; r < nrec; ++r) {
      std::vector<size_t> start, count;
      if (spec.time_dependent) {
        start.push_back(r);
        count.push_back(1);
      }
      if (is_3d(spec.memory_order) || spec.memory_order == MemoryOrder::Z) {
        start.push_back(0);
        count.push_back(static_cast<size_t>(ext.nk));
      }
      if (is_decomposed(spec.memory_order)) {
        start.insert(start.end(), {0, 0});
        count.insert(count.end(), {static_cast<size_t>(ext.nj), static_cast<size_t>(ext.ni)});
      }
      int rc = spec.type == DataType::Char ? nc_get_vara_text(ncid, varid, start.data(), count.data(), text.data())
                                           : nc_get_vara_double(ncid, varid, start.data(), count.data(), values.data());
      ASSERT_EQ(rc, NC_NOERR) << spec.name << ": " << nc_strerror(rc);
      const int t = f.frames[r];
      std::size_t bad = 0;
      std::string first;
      for (std::int64_t k = 0; k < ext.nk; ++k) {
        for (std::int64_t j = 0; j < ext.nj; ++j) {
          for (std::int64_t i = 0; i < ext.ni; ++i) {
            const std::size_t idx = static_cast<std::size_t>((k * ext.nj + j) * ext.ni + i);
            const double want = stored(spec.type, analytic(varid, i, j, k, t));
            const double got = spec.type == DataType::Char ? static_cast<double>(text[idx]) : values[idx];
            if (got != want && bad++ == 0) {
              first = "(i,j,k)=(" + std::to_string(i) + "," + std::to_string(j) + "," + std::to_string(k) +
                      ") got " + std::to_string(got) + " want " + std::to_string(want);
            }
          }
        }
      }
      EXPECT_EQ(bad, 0u) << spec.name << " record " << r << ": " << bad << " wrong values, first " << first;
    }
  }

  // Global attributes, in the schema's order.
  int ngatts = 0;
  nc_inq_natts(ncid, &ngatts);
  EXPECT_EQ(ngatts, static_cast<int>(schema.global_attributes().size()));
  for (std::size_t a = 0; a < schema.global_attributes().size(); ++a) {
    nc_inq_attname(ncid, NC_GLOBAL, static_cast<int>(a), name);
    EXPECT_EQ(std::string(name), schema.global_attributes()[a].name);
    check_attribute(ncid, NC_GLOBAL, "global", schema.global_attributes()[a]);
  }
  nc_close(ncid);
}

bool ncvalidator_ok(const std::string& path) {
  const char* tool = std::getenv("NWPIO_NCVALIDATOR");
  if (tool == nullptr || *tool == '\0') {
    ADD_FAILURE() << "NWPIO_NCVALIDATOR is not set";
    return false;
  }
  const std::string cmd = std::string(tool) + " -q '" + path + "' > /dev/null 2>&1";
  return std::system(cmd.c_str()) == 0;
}

void write_hourly_frames(Writer& w, Model& model, int frames) {
  for (int t = 0; t < frames; ++t) {
    model.fill(t);
    w.begin_frame(wrf::add_seconds("2019-06-01_00:00:00", 3600 * t));
    model.put_all([&](const std::string& n, const void* p, DataType ty) { w.put(n, p, ty); });
    w.end_frame();
  }
  w.close();
}

}  // namespace nwpio::test
