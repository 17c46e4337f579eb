#include "backend/netcdf/netcdf_serial_backend.hpp"

#include <fcntl.h>
#include <netcdf.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "backend/netcdf/cdf2_limits.hpp"
#include "backend/netcdf/descriptor_diversion.hpp"
#include "backend/netcdf/netcdf_call.hpp"
#include "backend/netcdf_types.hpp"
#include "backend/row_hyperslabs.hpp"
#include "nwpio/error.hpp"
#include "util/agree.hpp"
#include "util/file_sync.hpp"
#include "util/mpi_call.hpp"

namespace nwpio::detail {

FileFormat serial_file_format(const OutputOptions& options) noexcept {
  return options.use_netcdf_classic ? FileFormat::Cdf2 : FileFormat::Netcdf4;
}

namespace {

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "" : ", ") + s;
  return out;
}

static_assert(NC_CHAR == kNcChar && NC_INT == kNcInt && NC_FLOAT == kNcFloat && NC_DOUBLE == kNcDouble);

void put_attribute(int ncid, int varid, const Attribute& att, const std::string& owner, const std::string& path) {
  put_attribute_values(att, [&](int type, const auto& values) {
    netcdf_check(nc_put_att(ncid, varid, att.name.c_str(), type, values.size(), values.data()),
                 "nc_put_att(" + owner + ":" + att.name + ")", path);
  });
}

class NetcdfSerialBackend final : public Backend {
 public:
  explicit NetcdfSerialBackend(MPI_Comm comm) : comm_(comm) {
    mpi_check(MPI_Comm_rank(comm_, &rank_), "MPI_Comm_rank");
  }

  ~NetcdfSerialBackend() override { abandon(); }

  void create(const std::string& path, const FileLayout& layout, const FileHints& /*MPI-IO hints do not apply*/) override {
    layout_ = layout;  // every rank: placement() is answered everywhere
    run_and_agree(comm_, [&] {
      if (rank_ == 0) create_on_root(path, layout);
    });
  }

  // Slabs in native order, variables back to back (netCDF-C converts itself).
  SlabPlacement placement() override { return compact_placement(layout_); }

  void write(std::span<const WriteRequest> requests, const Slab& slab) override {
    run_and_agree(comm_, [&] {
      if (rank_ != 0) {
        if (!requests.empty() || slab.size > 0) {
          throw Error(ErrorKind::Internal, "serial netCDF backend: rank " + std::to_string(rank_) + " was handed " +
                                               std::to_string(requests.size()) + " write requests; only rank 0 writes");
        }
        return;
      }
      if (ncid_ < 0) throw Error(ErrorKind::State, "serial netCDF backend: write() without an open file");
      for (const auto& r : requests) put(r);
      put_slab(slab);
    });
  }

  // netCDF-C's close is local to rank 0, so unlike a parallel backend this one can still close
  // the file here (flushing what was written, under its temporary name) instead of leaking it.
  void abandon() noexcept override {
    if (ncid_ >= 0) {
      try {
        close_or_release(ncid_);
      } catch (...) {  // quietly: the failure that led here is the one reported
      }
    }
    ncid_ = -1;
    vars_.clear();
  }

  // Rank 0 alone writes the file: its fsync after the close makes every byte durable.
  void close(bool durable) override {
    run_and_agree(comm_, [&] {
      if (rank_ != 0 || ncid_ < 0) return;
      const int id = ncid_;
      ncid_ = -1;
      vars_.clear();
      close_or_release(id);
      if (durable) sync_path(path_, O_RDONLY | O_NOFOLLOW);
    });
  }

 private:
  // Per variable: its id and, for compressed netCDF-4 fields, the chunk cache bookkeeping.
  struct VarState {
    std::string name;
    int varid = -1;
    bool record = false;
    bool chunked = false;
    std::int64_t record_elements = 0;  // elements of one record (whole variable if fixed)
    std::size_t cache_bytes = 0;       // chunk cache that holds every chunk of one record
    std::size_t cache_slots = 0;
    bool cache_open = false;           // a record is being written in pieces
    std::int64_t cache_record = -1;
    std::int64_t written = 0;          // elements of cache_record written so far
  };

  void create_on_root(const std::string& path, const FileLayout& layout) {
    if (ncid_ >= 0) throw Error(ErrorKind::State, "serial netCDF backend: create('" + path + "') while '" + path_ + "' is open");
    format_ = layout.format;
    deflate_level_ = layout.deflate_level;
    if (format_ == FileFormat::Netcdf4 && (deflate_level_ < 0 || deflate_level_ > 9)) {
      throw Error(ErrorKind::Config, "deflate_level " + std::to_string(deflate_level_) + " is outside 0..9");
    }
    path_ = path;
    // NC_NOCLOBBER: nothing is there (Backend::create); netCDF-C creates the file exclusively
    // (O_EXCL, through HDF5 for netCDF-4), so its create is the file's first and only.
    const int mode = NC_NOCLOBBER | (format_ == FileFormat::Cdf2 ? NC_64BIT_OFFSET : NC_NETCDF4);
    netcdf_check(nc_create(path.c_str(), mode, &ncid_), "nc_create", path);
    try {
      int old_fill = 0;
      // Before any variable: in netCDF-4 NOFILL applies to variables defined afterwards.
      netcdf_check(nc_set_fill(ncid_, NC_NOFILL, &old_fill), "nc_set_fill(NC_NOFILL)", path);
      define(layout);
      end_define(layout);
    } catch (...) {
      nc_abort(ncid_);  // a file still in define mode: netCDF-C removes it, nothing half-written stays
      ncid_ = -1;
      vars_.clear();
      throw;
    }
  }

  void define(const FileLayout& layout) {
    std::vector<int> dimids(layout.dims.size());
    for (std::size_t d = 0; d < layout.dims.size(); ++d) {
      const auto& dim = layout.dims[d];
      const std::size_t len = dim.length == 0 ? NC_UNLIMITED : static_cast<std::size_t>(dim.length);
      netcdf_check(nc_def_dim(ncid_, dim.name.c_str(), len, &dimids[d]), "nc_def_dim(" + dim.name + ")", path_);
    }
    for (const auto& att : layout.global_attributes) put_attribute(ncid_, NC_GLOBAL, att, "global", path_);

    vars_.assign(layout.vars.size(), VarState{});
    for (std::size_t v = 0; v < layout.vars.size(); ++v) {
      const auto& var = layout.vars[v];
      VarState& st = vars_[v];
      std::vector<int> ids;
      for (int d : var.dims) ids.push_back(dimids[static_cast<std::size_t>(d)]);
      netcdf_check(nc_def_var(ncid_, var.name.c_str(), nc_type_of(var.type), static_cast<int>(ids.size()), ids.data(), &st.varid),
                   "nc_def_var(" + var.name + ")", path_);
      st.name = var.name;
      st.record = var.record;
      st.record_elements = record_bytes(layout, var) / static_cast<std::int64_t>(size_of(var.type));
      if (format_ == FileFormat::Netcdf4) define_storage(layout, var, st);
      for (const auto& att : var.attributes) put_attribute(ncid_, st.varid, att, var.name, path_);
    }
  }

  // netCDF-4 storage: the layout's chunk shapes (WRF's, decided by the core), shuffle + deflate.
  // Their chunk cache starts at 0 bytes: a write that covers whole chunks goes straight to
  // the file, and no variable keeps chunks in memory once written (see put()).
  void define_storage(const FileLayout& layout, const FileLayout::Var& var, VarState& st) {
    const std::vector<std::size_t>& chunks = var.chunks;
    if (chunks.empty()) return;
    const std::string& name = var.name;
    netcdf_check(nc_def_var_chunking(ncid_, st.varid, NC_CHUNKED, chunks.data()), "nc_def_var_chunking(" + name + ")", path_);
    if (deflate_level_ > 0) {
      netcdf_check(nc_def_var_deflate(ncid_, st.varid, 1, 1, deflate_level_), "nc_def_var_deflate(" + name + ")", path_);
    }
    netcdf_check(nc_set_var_chunk_cache(ncid_, st.varid, 0, 0, 1.0f), "nc_set_var_chunk_cache(" + name + ")", path_);
    st.chunked = true;
    // Chunks per record (edge chunks overhang) times bytes per chunk.
    std::size_t per_chunk = size_of(var.type);
    std::size_t count = 1;
    for (std::size_t d = var.record ? 1 : 0; d < var.dims.size(); ++d) {
      const auto len = static_cast<std::size_t>(layout.dims[static_cast<std::size_t>(var.dims[d])].length);
      per_chunk *= chunks[d];
      count *= (len + chunks[d] - 1) / chunks[d];
    }
    st.cache_bytes = per_chunk * count;
    st.cache_slots = std::max<std::size_t>(521, 10 * count + 1);
  }

  void end_define(const FileLayout& layout) {
    if (format_ == FileFormat::Netcdf4) {
      netcdf_check(nc_enddef(ncid_), "nc_enddef", path_);
      return;
    }
    const auto reserve = static_cast<std::size_t>(std::max<std::int64_t>(0, layout.header_reserve_bytes));
    const int rc = nc__enddef(ncid_, reserve, 4, 0, 4);
    if (rc == NC_EVARSIZE) {
      const auto big = cdf2_oversize_variables(layout);
      throw Error(ErrorKind::Unsupported,
                  "nc__enddef failed for '" + path_ + "': " + nc_strerror(rc) +
                      ". netCDF-C cannot write this layout as CDF-2 (64-bit offset, io_form 2 with use_netcdf_classic = .true.)" +
                      (big.empty() ? std::string() : "; over the 4 GiB per-variable limit: " + join(big)) +
                      ". Use use_netcdf_classic = .false. (io_form 2 writes netCDF-4), or io_form_history = 11 with the CDF-5 format");
    }
    netcdf_check(rc, "nc__enddef", path_);
  }

  void put(const WriteRequest& r) {
    VarState& st = vars_.at(static_cast<std::size_t>(r.var));
    if (r.mem_type != MPI_DATATYPE_NULL) {
      throw Error(ErrorKind::Internal, "serial netCDF backend: request for " + st.name + " carries an MPI datatype; io_form 2 takes packed data");
    }
    std::vector<std::size_t> start(r.start.begin(), r.start.end());
    std::vector<std::size_t> count(r.count.begin(), r.count.end());
    std::int64_t elements = 1;
    for (std::size_t d = st.record ? 1 : 0; d < count.size(); ++d) elements *= r.count[d];
    if (elements == 0 || (st.record && r.count.at(0) == 0)) return;

    // A compressed field written in pieces (a record split over rounds): hold its chunks in a
    // cache of one record until the record is complete, then drop the cache (netCDF-C reopens
    // the dataset, which flushes and frees it). Without this every piece would read, inflate,
    // deflate and rewrite each chunk it touches. So at most one variable's record sits in
    // HDF5's cache at a time, and only while it is split.
    const bool piece = st.chunked && !(elements == st.record_elements && (!st.record || r.count[0] == 1));
    const std::int64_t rec = st.record ? r.start[0] : 0;
    if (piece && (!st.cache_open || st.cache_record != rec)) {
      set_cache(st, st.cache_bytes, st.cache_slots);
      st.cache_open = true;
      st.cache_record = rec;
      st.written = 0;
    }
    errno = 0;
    const int rc = nc_put_vara(ncid_, st.varid, start.data(), count.data(), r.data);
    netcdf_check(rc, "nc_put_vara(" + st.name + ")", path_, errno);
    if (piece) {
      st.written += elements;
      if (st.written >= st.record_elements) {
        set_cache(st, 0, 0);
        st.cache_open = false;
      }
    }
  }

  // A slab's pieces as hyperslabs of their variables (data contiguous in file order).
  void put_slab(const Slab& slab) {
    for (const SlabPiece& p : slab.pieces) {
      for (const WriteRequest& r : piece_requests(layout_, slab, p)) put(r);
    }
  }

  // A failed nc_close leaves a netCDF-4 file open in netCDF-C and HDF5, half closed (HDF5 could
  // not flush it); left so, HDF5 crashes when the process ends (descriptor_diversion.hpp). Its
  // descriptors are diverted and it is closed again, which then succeeds; the file on disk keeps
  // its temporary name and is never committed. The error names the system's reason, which
  // netCDF-C reduces to "HDF error": the errno the failed write left.
  void close_or_release(int id) {
    errno = 0;
    const int rc = nc_close(id);
    if (rc == NC_NOERR) return;
    const int err = errno;
    if (format_ == FileFormat::Netcdf4 && divert_descriptors_to_memory(path_) > 0) nc_close(id);
    netcdf_check(rc, "nc_close", path_, err);
  }

  void set_cache(const VarState& st, std::size_t bytes, std::size_t slots) {
    netcdf_check(nc_set_var_chunk_cache(ncid_, st.varid, bytes, slots, 1.0f), "nc_set_var_chunk_cache(" + st.name + ")", path_);
  }

  MPI_Comm comm_;
  int rank_ = 0;
  FileLayout layout_;
  FileFormat format_ = FileFormat::Cdf2;
  int deflate_level_ = 0;
  int ncid_ = -1;
  std::string path_;
  std::vector<VarState> vars_;
};

}  // namespace

std::unique_ptr<Backend> make_netcdf_serial_backend(MPI_Comm comm) {
  return std::make_unique<NetcdfSerialBackend>(comm);
}

}  // namespace nwpio::detail
