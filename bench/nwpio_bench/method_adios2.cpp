// "adios2-bp4" and "adios2-bp4-blosc": what WRF's ADIOS2 package (io_form 14,
// external/io_adios2 in WRF 4.7.1) does with a history frame, through ADIOS2's C++ API:
//   - an IO with the BP4 engine (ADIOS2 2.8's default file engine) and NumAggregators = 0 (the
//     package's default: one aggregator, and one sub-file, per node);
//   - WRF's metadata as the package writes it: a _DIM_<name> attribute per dimension, per
//     variable the attributes <var>/Dims (dimension names, Fortran order, Time last),
//     <var>/FieldType, <var>/MemoryOrder and the variable's own, and the global attributes;
//   - -blosc: every variable with the Blosc operator, lz4 (the package's default,
//     adios2_compression_enable = .true.);
//   - per field, as ext_adios2_write_field does: allocate a buffer of the patch, transpose the
//     model's array (halo, i-k-j) into it in file order, one adios2_put in sync mode (ADIOS2
//     copies it into its step buffer), free the buffer; then EndStep (aggregation and the
//     write) and Close.
// Timed: define, open, the step, close [, --fsync: rank 0 fsyncs every file of the BP directory;
// on one node the one aggregator (rank 0) wrote all of them]. The package is synchronous: the
// model waits until Close returns, so the phase `blocked` is define .. Close (max over ranks) and
// the timed seconds add only the fsync. "adios2" is the package's defaults (adios2-bp4-blosc).
// Untimed, in finish(): the BP file
// is converted to netCDF by nwpio-bp2nc's converter (its seconds are the phase "to_netcdf": what
// a user pays before ncdump, CDO or xarray can read the frame) and the netCDF file is checked
// value by value (verify_written: against the fill rule, or for the wrfreal workload against the
// tiled real fields, where Blosc's ratio means something): ADIOS2's data, read back through
// ADIOS2's own reader, must equal what every other method wrote.
#include <adios2.h>
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <type_traits>
#include <variant>

#include "bp_to_netcdf.hpp"
#include "method.hpp"
#include "nwpio/error.hpp"
#include "nwpio/wrf_conventions.hpp"
#include "verify_written.hpp"
#include "wrf_xfield.hpp"

namespace nwpio::bench {
namespace {

constexpr const char* kDate = "2019-06-01_00:00:00";

// The file dimension `name` of the case: staggered counts from the grid, others from the schema.
std::size_t dimension_length(const Case& c, const std::string& name) {
  if (name == wrf::kDateStrLen) return wrf::kDateStrLenValue;
  if (name == wrf::kWestEast) return static_cast<std::size_t>(c.e_we - 1);
  if (name == wrf::kWestEastStag) return static_cast<std::size_t>(c.e_we);
  if (name == wrf::kSouthNorth) return static_cast<std::size_t>(c.e_sn - 1);
  if (name == wrf::kSouthNorthStag) return static_cast<std::size_t>(c.e_sn);
  if (name == wrf::kBottomTop) return static_cast<std::size_t>(c.e_vert - 1);
  if (name == wrf::kBottomTopStag) return static_cast<std::size_t>(c.e_vert);
  return static_cast<std::size_t>(c.schema.find_dimension(name)->length);
}

int field_type(DataType t) {
  return t == DataType::Double ? wrf::kFieldTypeDouble : t == DataType::Int ? wrf::kFieldTypeInt : wrf::kFieldTypeReal;
}

std::string memory_order_text(MemoryOrder o) {
  switch (o) {
    case MemoryOrder::XZY:
    case MemoryOrder::XYZ: return "XYZ";
    case MemoryOrder::XY: return "XY ";
    case MemoryOrder::Z: return "Z  ";
    default: return "0  ";
  }
}

void fsync_tree(const std::string& dir) {
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    const int fd = ::open(e.path().c_str(), O_RDONLY);
    if (fd < 0 || ::fsync(fd) != 0) {
      const int err = errno;
      if (fd >= 0) ::close(fd);
      throw Error(ErrorKind::Io, "fsync of " + e.path().string() + " failed: " + std::strerror(err));
    }
    ::close(fd);
  }
}

class Adios2Method final : public Method {
 public:
  Adios2Method(std::string name, bool blosc) : name_(std::move(name)), blosc_(blosc) {}

  std::string name() const override { return name_; }

  void prepare(const CaseContext& ctx, int) override {
    bp_ = (std::filesystem::path(ctx.dir) / (name_ + ".bp")).string();
    nc_ = (std::filesystem::path(ctx.dir) / (name_ + ".nc")).string();
    adios_ = std::make_unique<adios2::ADIOS>(ctx.comm);
  }

  void run(const CaseContext& ctx, int) override {
    const Case& c = *ctx.bench_case;
    local_bytes_ = 0;
    const auto t0 = std::chrono::steady_clock::now();
    adios2::IO io = adios_->DeclareIO(name_);
    io.SetEngine("BP4");
    io.SetParameter("NumAggregators", "0");
    define(io, c);
    adios2::Engine engine = io.Open(bp_, adios2::Mode::Write);
    engine.BeginStep();
    if (ctx.rank == 0) {
      engine.Put(io.InquireVariable<std::string>("Times"), std::string(kDate), adios2::Mode::Sync);
      local_bytes_ += wrf::kDateStrLenValue;
    }
    for (const synthetic::Field& f : ctx.model->fields()) put_field(ctx, io, engine, f);
    engine.EndStep();
    engine.Close();
    blocked_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (ctx.options->fsync) {
      MPI_Barrier(ctx.comm);
      if (ctx.rank == 0) fsync_tree(bp_);
    }
  }

  RunOutcome finish(const CaseContext& ctx) override {
    adios_.reset();  // frees ADIOS2's step buffers before the conversion
    RunOutcome out;
    MPI_Allreduce(&local_bytes_, &out.bytes, 1, MPI_INT64_T, MPI_SUM, ctx.comm);
    double blocked = 0;
    MPI_Allreduce(&blocked_, &blocked, 1, MPI_DOUBLE, MPI_MAX, ctx.comm);
    double seconds = 0;
    std::int64_t bp_bytes = 0;
    int subfiles = 0;
    agree_step(ctx.comm, [&] {
      if (ctx.rank != 0) return;
      for (const auto& e : std::filesystem::directory_iterator(bp_)) {
        bp_bytes += static_cast<std::int64_t>(e.file_size());
        subfiles += e.path().filename().string().rfind("data.", 0) == 0;
      }
      bp2nc::ConvertOptions options;
      options.order.push_back("Times");
      for (const VarSpec& v : ctx.bench_case->schema.variables()) options.order.push_back(v.name);
      const auto t0 = std::chrono::steady_clock::now();
      bp2nc::convert(bp_, nc_, options);
      seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    });
    verify_written(ctx, name_, nc_);  // every repetition, through ADIOS2's reader
    out.file = nc_;
    out.phases = {{"blocked", blocked}, {"to_netcdf", seconds}};
    out.mode = std::string("BP4, NumAggregators 0 (one per node): ") + std::to_string(subfiles) + " sub-file(s), " +
               std::to_string(bp_bytes) + " bytes on disk" + (blosc_ ? ", Blosc lz4" : ", no compression") +
               "; netCDF by nwpio-bp2nc's converter";
    return out;
  }

 private:
  // Variables, then WRF's attributes (the package defines them while WRF trains the file).
  void define(adios2::IO& io, const Case& c) {
    std::optional<adios2::Operator> op;
    if (blosc_) op = adios_->DefineOperator("Compressor", "blosc");
    std::map<std::string, bool> dims_seen;
    auto dim = [&](const std::string& name) {
      if (!dims_seen[name]) io.DefineAttribute<std::int32_t>("_DIM_" + name, static_cast<std::int32_t>(dimension_length(c, name)));
      dims_seen[name] = true;
    };
    dim(std::string(wrf::kDateStrLen));
    io.DefineVariable<std::string>("Times");
    const std::vector<std::string> times_dims = {std::string(wrf::kDateStrLen), std::string(wrf::kTime)};
    io.DefineAttribute<std::string>("Dims", times_dims.data(), times_dims.size(), "Times");
    for (const VarSpec& v : c.schema.variables()) {
      if (!v.time_dependent) throw Error(ErrorKind::Unsupported, name_ + ": WRF's package writes every field per step, not " + v.name);
      std::vector<std::string> names = wrf::file_dimensions(v);  // Time first
      adios2::Dims shape;
      for (std::size_t d = 1; d < names.size(); ++d) {
        dim(names[d]);
        shape.push_back(dimension_length(c, names[d]));
      }
      if (shape.empty()) shape.push_back(1);  // a 0-D field: shape [1], as the package defines it
      const adios2::Dims zero(shape.size(), 0);
      switch (v.type) {
        case DataType::Float: add_operation(io.DefineVariable<float>(v.name, shape, zero, zero), op); break;
        case DataType::Double: add_operation(io.DefineVariable<double>(v.name, shape, zero, zero), op); break;
        case DataType::Int: add_operation(io.DefineVariable<std::int32_t>(v.name, shape, zero, zero), op); break;
        case DataType::Char: throw Error(ErrorKind::Unsupported, name_ + ": char field " + v.name);
      }
      std::vector<std::string> fortran(names.rbegin(), names.rend() - 1);
      fortran.push_back(std::string(wrf::kTime));
      io.DefineAttribute<std::string>("Dims", fortran.data(), fortran.size(), v.name);
      io.DefineAttribute<std::int32_t>("FieldType", field_type(v.type), v.name);
      io.DefineAttribute<std::string>("MemoryOrder", memory_order_text(v.memory_order), v.name);
      for (const Attribute& a : v.attributes) {
        if (a.name != "FieldType" && a.name != "MemoryOrder") define_attribute(io, a, v.name);
      }
    }
    for (const Attribute& a : c.schema.global_attributes()) define_attribute(io, a, "");
  }

  template <class T>
  static void add_operation(adios2::Variable<T> var, const std::optional<adios2::Operator>& op) {
    if (op) var.AddOperation(*op, {{"compressor", "lz4"}});
  }

  static void define_attribute(adios2::IO& io, const Attribute& a, const std::string& var) {
    std::visit(
        [&](const auto& value) {
          using T = std::decay_t<decltype(value)>;
          if constexpr (std::is_same_v<T, std::string>) {
            io.DefineAttribute<std::string>(a.name, value, var);
          } else if (!value.empty()) {
            io.DefineAttribute<typename T::value_type>(a.name, value.data(), value.size(), var);
          }
        },
        a.value);
  }

  template <class T>
  void put_typed(const CaseContext& ctx, adios2::IO& io, adios2::Engine& engine, const synthetic::Field& f) {
    const VarSpec& spec = *f.spec;
    if (!is_decomposed(spec.memory_order) && ctx.rank != 0) return;  // Z and 0-D fields: rank 0
    const Box& b = f.fill;
    adios2::Dims start, count;
    if (is_3d(spec.memory_order) || spec.memory_order == MemoryOrder::Z) {
      start.push_back(static_cast<std::size_t>(b.lo[2]));
      count.push_back(static_cast<std::size_t>(b.extent(2)));
    }
    if (is_decomposed(spec.memory_order)) {
      start.push_back(static_cast<std::size_t>(b.lo[1]));
      count.push_back(static_cast<std::size_t>(b.extent(1)));
      start.push_back(static_cast<std::size_t>(b.lo[0]));
      count.push_back(static_cast<std::size_t>(b.extent(0)));
    }
    if (start.empty()) {
      start.push_back(0);
      count.push_back(1);
    }
    adios2::Variable<T> var = io.InquireVariable<T>(spec.name);
    var.SetSelection({start, count});
    // ext_adios2_write_field: allocate XField of the patch, Transpose into it, put (sync), free.
    const std::int64_t n = b.volume();
    std::unique_ptr<T[]> xfield(new T[static_cast<std::size_t>(n)]);
    copy_patch_to_xfield(f, xfield.get());
    engine.Put(var, xfield.get(), adios2::Mode::Sync);
    local_bytes_ += n * static_cast<std::int64_t>(sizeof(T));
  }

  void put_field(const CaseContext& ctx, adios2::IO& io, adios2::Engine& engine, const synthetic::Field& f) {
    switch (f.spec->type) {
      case DataType::Float: put_typed<float>(ctx, io, engine, f); return;
      case DataType::Double: put_typed<double>(ctx, io, engine, f); return;
      case DataType::Int: put_typed<std::int32_t>(ctx, io, engine, f); return;
      case DataType::Char: break;
    }
    throw Error(ErrorKind::Unsupported, name_ + ": char field " + f.spec->name);
  }

  std::string name_;
  bool blosc_ = false;
  std::string bp_, nc_;
  std::unique_ptr<adios2::ADIOS> adios_;
  std::int64_t local_bytes_ = 0;
  double blocked_ = 0;
};

}  // namespace

std::unique_ptr<Method> make_adios2_method(const std::string& name) {
  if (name == "adios2-bp4") return std::make_unique<Adios2Method>(name, false);
  if (name == "adios2-bp4-blosc" || name == "adios2") return std::make_unique<Adios2Method>(name, true);
  return nullptr;
}

}  // namespace nwpio::bench
