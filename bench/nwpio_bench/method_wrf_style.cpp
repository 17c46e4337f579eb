// "wrf-style": what WRF's own PnetCDF layer (external/io_pnetcdf/wrf_io.F90) does with a
// history frame, reproduced with PnetCDF's C API:
//   - ncmpi_create (CDF-2, NC_CLOBBER | NC_64BIT_OFFSET), define every dimension, variable and
//     attribute, ncmpi_enddef (no extra header space; PnetCDF's default is NOFILL);
//   - Times with one blocking collective (ncmpi_put_vara_text_all);
//   - per variable, as ext_pnc_write_field does: allocate a buffer of the patch, transpose the
//     model's array (halo, i-k-j) into it in file order, ONE blocking collective
//     ncmpi_put_vara_<type>_all of the patch, free the buffer. About 200 collectives per frame.
//   - [--fsync: ncmpi_sync], ncmpi_close.
// Every repetition's file is read back and checked (verify_written.hpp) before it counts.
// Non-decomposed fields (Z, scalar) and Times are written by rank 0; the other ranks join each
// collective with a zero-length request. The hints are the ones nwpio resolves (ctx.info), so
// that hints are not what differs between the methods.
#include <pnetcdf.h>

#include <filesystem>
#include <map>
#include <memory>
#include <type_traits>
#include <variant>

#include "method.hpp"
#include "nwpio/error.hpp"
#include "nwpio/wrf_conventions.hpp"
#include "verify_written.hpp"
#include "wrf_xfield.hpp"

namespace nwpio::bench {
namespace {

void check(int rc, const std::string& call, const std::string& path) {
  if (rc != NC_NOERR) {
    throw Error(ErrorKind::Pnetcdf, call + " failed for " + path + ": " + ncmpi_strerror(rc));
  }
}

nc_type nc_type_of(DataType t) {
  switch (t) {
    case DataType::Float: return NC_FLOAT;
    case DataType::Double: return NC_DOUBLE;
    case DataType::Int: return NC_INT;
    case DataType::Char: return NC_CHAR;
  }
  return NC_NAT;
}

class WrfStyleMethod final : public Method {
 public:
  std::string name() const override { return "wrf-style"; }
  void prepare(const CaseContext& ctx, int) override { path_ = (std::filesystem::path(ctx.dir) / "wrf_style.nc").string(); }

  void run(const CaseContext& ctx, int) override {
    const Case& c = *ctx.bench_case;
    local_bytes_ = 0;
    int ncid = -1;
    check(ncmpi_create(ctx.comm, path_.c_str(), NC_CLOBBER | NC_64BIT_OFFSET, ctx.info, &ncid), "ncmpi_create", path_);
    std::vector<int> varids = define(ncid, c);
    check(ncmpi_enddef(ncid), "ncmpi_enddef", path_);
    // Times: one collective.
    const char date[] = "2019-06-01_00:00:00";
    MPI_Offset tstart[2] = {0, 0}, tcount[2] = {1, ctx.rank == 0 ? 19 : 0};
    if (ctx.rank != 0) tcount[0] = 0;
    check(ncmpi_put_vara_text_all(ncid, 0, tstart, tcount, date), "ncmpi_put_vara_text_all(Times)", path_);
    local_bytes_ = tcount[0] * tcount[1];
    const auto& fields = ctx.model->fields();
    for (std::size_t s = 0; s < fields.size(); ++s) write_field(ctx, ncid, varids[s], fields[s]);
    if (ctx.options->fsync) check(ncmpi_sync(ncid), "ncmpi_sync", path_);
    check(ncmpi_close(ncid), "ncmpi_close", path_);
  }

  RunOutcome finish(const CaseContext& ctx) override {
    verify_written(ctx, name(), path_);  // every repetition: no time for a wrong file
    RunOutcome out;
    // The bytes this method handed to PnetCDF, counted from its own requests (all ranks).
    MPI_Allreduce(&local_bytes_, &out.bytes, 1, MPI_INT64_T, MPI_SUM, ctx.comm);
    out.file = path_;
    out.mode = "one blocking ncmpi_put_vara_*_all per variable";
    return out;
  }

 private:
  // Dimensions in first-use order (Time, DateStrLen, then as the variables use them), Times
  // first, then the schema's variables with their attributes, then the global attributes.
  std::vector<int> define(int ncid, const Case& c) {
    std::map<std::string, int> dims;
    auto dim = [&](const std::string& name) {
      auto it = dims.find(name);
      if (it != dims.end()) return it->second;
      MPI_Offset len = 0;
      if (name == wrf::kTime) len = NC_UNLIMITED;
      else if (name == wrf::kDateStrLen) len = wrf::kDateStrLenValue;
      else if (name == wrf::kWestEast) len = c.e_we - 1;
      else if (name == wrf::kWestEastStag) len = c.e_we;
      else if (name == wrf::kSouthNorth) len = c.e_sn - 1;
      else if (name == wrf::kSouthNorthStag) len = c.e_sn;
      else if (name == wrf::kBottomTop) len = c.e_vert - 1;
      else if (name == wrf::kBottomTopStag) len = c.e_vert;
      else len = c.schema.find_dimension(name)->length;
      int id = -1;
      check(ncmpi_def_dim(ncid, name.c_str(), len, &id), "ncmpi_def_dim(" + name + ")", path_);
      dims.emplace(name, id);
      return id;
    };
    int times = -1;
    int tdims[2] = {dim(std::string(wrf::kTime)), dim(std::string(wrf::kDateStrLen))};
    check(ncmpi_def_var(ncid, "Times", NC_CHAR, 2, tdims, &times), "ncmpi_def_var(Times)", path_);
    std::vector<int> ids;
    for (const VarSpec& v : c.schema.variables()) {
      std::vector<int> d;
      for (const std::string& name : wrf::file_dimensions(v)) d.push_back(dim(name));
      int id = -1;
      check(ncmpi_def_var(ncid, v.name.c_str(), nc_type_of(v.type), static_cast<int>(d.size()), d.data(), &id),
            "ncmpi_def_var(" + v.name + ")", path_);
      for (const Attribute& a : v.attributes) put_attribute(ncid, id, a);
      ids.push_back(id);
    }
    for (const Attribute& a : c.schema.global_attributes()) put_attribute(ncid, NC_GLOBAL, a);
    return ids;
  }

  void put_attribute(int ncid, int varid, const Attribute& a) {
    const std::string call = "ncmpi_put_att(" + a.name + ")";
    std::visit(
        [&](const auto& value) {
          using T = std::decay_t<decltype(value)>;
          const auto n = static_cast<MPI_Offset>(value.size());
          if constexpr (std::is_same_v<T, std::string>) {
            check(ncmpi_put_att_text(ncid, varid, a.name.c_str(), n, value.data()), call, path_);
          } else if constexpr (std::is_same_v<T, std::vector<std::int32_t>>) {
            check(ncmpi_put_att_int(ncid, varid, a.name.c_str(), NC_INT, n, value.data()), call, path_);
          } else if constexpr (std::is_same_v<T, std::vector<float>>) {
            check(ncmpi_put_att_float(ncid, varid, a.name.c_str(), NC_FLOAT, n, value.data()), call, path_);
          } else {
            check(ncmpi_put_att_double(ncid, varid, a.name.c_str(), NC_DOUBLE, n, value.data()), call, path_);
          }
        },
        a.value);
  }

  template <class T>
  void write_typed(const CaseContext& ctx, int ncid, int varid, const synthetic::Field& f) {
    const VarSpec& spec = *f.spec;
    const bool mine = is_decomposed(spec.memory_order) || ctx.rank == 0;
    const Box& b = f.fill;
    // Start/count in file order: [Time,] k, j, i as the variable has them.
    std::vector<MPI_Offset> start, count;
    if (spec.time_dependent) {
      start.push_back(0);
      count.push_back(1);
    }
    const MemoryOrder order = spec.memory_order;
    if (is_3d(order) || order == MemoryOrder::Z) {
      start.push_back(b.lo[2]);
      count.push_back(b.extent(2));
    }
    if (is_decomposed(order)) {
      start.push_back(b.lo[1]);
      count.push_back(b.extent(1));
      start.push_back(b.lo[0]);
      count.push_back(b.extent(0));
    }
    if (!mine) {
      for (auto& n : count) n = 0;
    }
    // ext_pnc_write_field: allocate XField of the patch, Transpose into it, FieldIO, deallocate.
    const std::int64_t n = mine ? b.volume() : 0;
    local_bytes_ += n * static_cast<std::int64_t>(sizeof(T));
    std::unique_ptr<T[]> xfield(new T[static_cast<std::size_t>(std::max<std::int64_t>(n, 1))]);
    if (mine) copy_patch_to_xfield(f, xfield.get());
    const std::string call = "ncmpi_put_vara_all(" + spec.name + ")";
    if constexpr (std::is_same_v<T, float>) {
      check(ncmpi_put_vara_float_all(ncid, varid, start.data(), count.data(), xfield.get()), call, path_);
    } else if constexpr (std::is_same_v<T, double>) {
      check(ncmpi_put_vara_double_all(ncid, varid, start.data(), count.data(), xfield.get()), call, path_);
    } else {
      check(ncmpi_put_vara_int_all(ncid, varid, start.data(), count.data(), xfield.get()), call, path_);
    }
  }

  void write_field(const CaseContext& ctx, int ncid, int varid, const synthetic::Field& f) {
    switch (f.spec->type) {
      case DataType::Float: write_typed<float>(ctx, ncid, varid, f); return;
      case DataType::Double: write_typed<double>(ctx, ncid, varid, f); return;
      case DataType::Int: write_typed<std::int32_t>(ctx, ncid, varid, f); return;
      case DataType::Char: break;
    }
    throw Error(ErrorKind::Unsupported, "wrf-style: char field " + f.spec->name);
  }

  std::string path_;
  std::int64_t local_bytes_ = 0;
};

}  // namespace

std::unique_ptr<Method> make_wrf_style_method() { return std::make_unique<WrfStyleMethod>(); }

}  // namespace nwpio::bench
