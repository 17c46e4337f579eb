#include "backend/netcdf_par/netcdf_parallel_backend.hpp"

#include <netcdf.h>
#include <netcdf_par.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "backend/agreed_open.hpp"
#include "backend/netcdf_par/close_at_finalize.hpp"
#include "backend/netcdf/netcdf_call.hpp"
#include "backend/netcdf_types.hpp"
#include "backend/row_hyperslabs.hpp"
#include "nwpio/error.hpp"
#include "util/agree.hpp"
#include "util/mpi_call.hpp"

namespace nwpio::detail {

namespace {

static_assert(NC_CHAR == kNcChar && NC_INT == kNcInt && NC_FLOAT == kNcFloat && NC_DOUBLE == kNcDouble);
static_assert(NC_QUANTIZE_BITGROOM == 1 && NC_QUANTIZE_GRANULARBR == 2 && NC_QUANTIZE_BITROUND == 3);

// One hyperslab this rank writes in the current write().
struct Put {
  std::vector<std::size_t> start, count;
  const void* data = nullptr;
};

class NetcdfParallelBackend final : public Backend {
 public:
  explicit NetcdfParallelBackend(MPI_Comm comm) : comm_(comm) {}

  // close() not reached: the handle is forgotten, never closed here (nc_close is collective).
  ~NetcdfParallelBackend() override = default;

  void create(const std::string& path, const FileLayout& layout, const FileHints& hints) override {
    const MPI_Info info = hints.info;
    if (ncid_ >= 0) throw Error(ErrorKind::State, "parallel netCDF-4 backend: create('" + path + "') while '" + path_ + "' is open");
    layout_ = layout;
    path_ = path;
    // nc_create_par is collective: every rank calls it, and all agree on the outcome before
    // anything else (agreed_open.hpp). Nothing is at `path` (Backend::create), so HDF5's
    // MPI_File_open with MPI_MODE_CREATE creates the file. NC_CLOBBER, not NC_NOCLOBBER:
    // netCDF-C answers NC_NOCLOBBER with an fopen(3) check on every rank, which can see the file
    // rank 0 has just created and fail on that rank alone, and with MPI_MODE_EXCL, which OMPIO's
    // Lustre driver refuses after laying the file out.
    int id = -1;
    bool held = false;
    std::optional<Error> failed;
    try {
      const int rc = nc_create_par(path.c_str(), NC_NETCDF4 | NC_CLOBBER, comm_, info, &id);
      held = rc == NC_NOERR;
      netcdf_check(rc, "nc_create_par", path);
      fault(FaultPhase::CreateOpen);  // tests: this rank fails after the open
    } catch (const Error& e) {
      failed = e;
    }
    agree_on_open(comm_, failed, held, [&] { nc_abort(id); }, [] {});
    ncid_ = id;
    try {
      run_and_agree(comm_, [&] { define(); });  // local: netCDF-4 defines in memory until nc_enddef
      run_and_agree(comm_, [&] { netcdf_check(nc_enddef(ncid_), "nc_enddef", path_); });
      run_and_agree(comm_, [&] {
        for (std::size_t v = 0; v < layout_.vars.size(); ++v) {
          // Filters need collective writes (parallel HDF5), and a record variable can only be
          // extended collectively: every variable is collective.
          netcdf_check(nc_var_par_access(ncid_, static_cast<int>(v), NC_COLLECTIVE),
                       "nc_var_par_access(" + layout_.vars[v].name + ", NC_COLLECTIVE)", path_);
        }
      });
    } catch (...) {
      nc_abort(ncid_);  // every rank is here (the error was agreed on): the collective abort matches
      ncid_ = -1;
      throw;
    }
    puts_.assign(layout_.vars.size(), {});
    calls_.assign(layout_.vars.size(), 0);
  }

  SlabPlacement placement() override { return compact_placement(layout_); }

  void write(std::span<const WriteRequest> requests, const Slab& slab) override {
    if (ncid_ < 0) throw Error(ErrorKind::State, "parallel netCDF-4 backend: write() without an open file");
    for (auto& p : puts_) p.clear();
    std::optional<Error> local;
    try {
      for (const WriteRequest& r : requests) add(r.var, r.start, r.count, r.data, r.mem_type);
      for (const SlabPiece& p : slab.pieces) {
        const FileLayout::Var& var = layout_.vars[static_cast<std::size_t>(p.var)];
        for (const Hyperslab& h : row_hyperslabs(layout_, var, slab.record, p.row_begin, p.row_end)) {
          add(p.var, h.start, h.count, slab.data + p.offset + h.offset, MPI_DATATYPE_NULL);
        }
      }
    } catch (const Error& e) {
      local = e;
      for (auto& p : puts_) p.clear();  // this rank still joins every call, with nothing
    }
    // How many collective calls each variable needs: the most pieces any rank holds of it.
    for (std::size_t v = 0; v < puts_.size(); ++v) calls_[v] = static_cast<int>(puts_[v].size());
    mpi_check(MPI_Allreduce(MPI_IN_PLACE, calls_.data(), static_cast<int>(calls_.size()), MPI_INT, MPI_MAX, comm_),
              "MPI_Allreduce(parallel netCDF-4 calls per variable)");
    for (std::size_t v = 0; v < puts_.size(); ++v) {
      const FileLayout::Var& var = layout_.vars[v];
      for (int c = 0; c < calls_[v]; ++c) {
        const bool mine = c < static_cast<int>(puts_[v].size());
        const Put empty{std::vector<std::size_t>(var.dims.size(), 0), std::vector<std::size_t>(var.dims.size(), 0), nullptr};
        const Put& p = mine ? puts_[v][static_cast<std::size_t>(c)] : empty;
        const int rc = nc_put_vara(ncid_, static_cast<int>(v), p.start.data(), p.count.data(), p.data ? p.data : &dummy_);
        if (rc != NC_NOERR && !local) {
          local = Error(ErrorKind::Netcdf, "nc_put_vara(" + var.name + ") failed for '" + path_ + "': " + nc_strerror(rc));
        }
      }
    }
    agree(comm_, local);
  }

  // nc_sync flushes HDF5 (H5Fflush) and syncs through MPI-IO (MPI_File_sync): every rank's
  // bytes, including what the aggregators of collective writes hold.
  void close(bool durable) override {
    if (ncid_ < 0) return;
    const int id = ncid_;
    ncid_ = -1;
    puts_.clear();
    std::optional<Error> failed;
    if (durable) {
      try {
        run_and_agree(comm_, [&] { netcdf_check(nc_sync(id), "nc_sync", path_); });
      } catch (const Error& e) {
        failed = e;
      }
    }
    run_and_agree(comm_, [&] { netcdf_check(nc_close(id), "nc_close", path_); });
    if (failed) throw *failed;
  }

  // nc_close is collective: other ranks may not join any more. The handle is forgotten; the
  // partial file keeps its temporary name.
  // Every rank gives the file up alike (a Writer destroyed during unwinding): it is closed inside
  // MPI_Finalize, before HDF5 and ROMIO end (close_at_finalize.hpp).
  void abandon() noexcept override {
    if (ncid_ >= 0) close_at_mpi_finalize(ncid_);
    ncid_ = -1;
  }

 private:
  void add(int var, const std::vector<std::int64_t>& start, const std::vector<std::int64_t>& count, const void* data,
           MPI_Datatype type) {
    const FileLayout::Var& v = layout_.vars.at(static_cast<std::size_t>(var));
    if (type != MPI_DATATYPE_NULL) {
      throw Error(ErrorKind::Internal, "parallel netCDF-4 backend: request for " + v.name + " carries an MPI datatype");
    }
    bool empty = false;
    for (std::int64_t n : count) empty = empty || n == 0;
    if (empty) return;
    puts_[static_cast<std::size_t>(var)].push_back(
        {std::vector<std::size_t>(start.begin(), start.end()), std::vector<std::size_t>(count.begin(), count.end()), data});
  }

  void define() {
    int old_fill = 0;
    netcdf_check(nc_set_fill(ncid_, NC_NOFILL, &old_fill), "nc_set_fill(NC_NOFILL)", path_);
    std::vector<int> dimids(layout_.dims.size());
    for (std::size_t d = 0; d < layout_.dims.size(); ++d) {
      const auto& dim = layout_.dims[d];
      const std::size_t len = dim.length == 0 ? NC_UNLIMITED : static_cast<std::size_t>(dim.length);
      netcdf_check(nc_def_dim(ncid_, dim.name.c_str(), len, &dimids[d]), "nc_def_dim(" + dim.name + ")", path_);
    }
    for (const auto& att : layout_.global_attributes) put_attribute(NC_GLOBAL, att, "global");
    for (std::size_t v = 0; v < layout_.vars.size(); ++v) {
      const FileLayout::Var& var = layout_.vars[v];
      std::vector<int> ids;
      for (int d : var.dims) ids.push_back(dimids[static_cast<std::size_t>(d)]);
      int varid = -1;
      netcdf_check(nc_def_var(ncid_, var.name.c_str(), nc_type_of(var.type), static_cast<int>(ids.size()), ids.data(), &varid),
                   "nc_def_var(" + var.name + ")", path_);
      if (varid != static_cast<int>(v)) {
        throw Error(ErrorKind::Internal, "parallel netCDF-4 backend: " + var.name + " got id " + std::to_string(varid));
      }
      define_storage(var, varid);
      for (const auto& att : var.attributes) put_attribute(varid, att, var.name);
    }
  }

  // The layout's chunk shape (rank-owned chunks), its filters and quantization. The chunk cache
  // is 0: whole chunks are written once, by one rank, and need no cache.
  void define_storage(const FileLayout::Var& var, int varid) {
    const std::string& name = var.name;
    if (var.chunks.empty()) return;
    netcdf_check(nc_def_var_chunking(ncid_, varid, NC_CHUNKED, var.chunks.data()), "nc_def_var_chunking(" + name + ")", path_);
    const auto& f = var.filters;
    if (f.shuffle || f.deflate_level > 0) {
      netcdf_check(nc_def_var_deflate(ncid_, varid, f.shuffle ? 1 : 0, f.deflate_level > 0 ? 1 : 0, f.deflate_level),
                   "nc_def_var_deflate(" + name + ", shuffle " + std::to_string(f.shuffle) + ", level " +
                       std::to_string(f.deflate_level) + ")",
                   path_);
    }
    if (f.quantize != 0) {
      netcdf_check(nc_def_var_quantize(ncid_, varid, f.quantize, f.quantize_digits),
                   "nc_def_var_quantize(" + name + ", mode " + std::to_string(f.quantize) + ", " +
                       std::to_string(f.quantize_digits) + ")",
                   path_);
    }
    netcdf_check(nc_set_var_chunk_cache(ncid_, varid, 0, 0, 1.0f), "nc_set_var_chunk_cache(" + name + ")", path_);
  }

  void put_attribute(int varid, const Attribute& att, const std::string& owner) {
    put_attribute_values(att, [&](int type, const auto& values) {
      netcdf_check(nc_put_att(ncid_, varid, att.name.c_str(), type, values.size(), values.data()),
                   "nc_put_att(" + owner + ":" + att.name + ")", path_);
    });
  }

  MPI_Comm comm_;
  FileLayout layout_;
  int ncid_ = -1;
  std::string path_;
  std::vector<std::vector<Put>> puts_;  // by varid: this rank's pieces in the current write()
  std::vector<int> calls_;              // by varid: collective calls every rank makes
  double dummy_ = 0;                    // a valid pointer for empty pieces
};

}  // namespace

std::unique_ptr<Backend> make_netcdf_parallel_backend(MPI_Comm comm) {
  return std::make_unique<NetcdfParallelBackend>(comm);
}

}  // namespace nwpio::detail
