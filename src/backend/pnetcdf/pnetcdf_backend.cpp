#include "backend/pnetcdf/pnetcdf_backend.hpp"

#include <pnetcdf.h>

#include <array>
#include <optional>
#include <string>
#include <type_traits>
#include <variant>

#include "backend/pnetcdf/pnetcdf_check.hpp"
#include "nwpio/error.hpp"
#include "util/mpi_call.hpp"

namespace nwpio::detail {

void pnetcdf_check(int rc, std::string_view call, std::string_view path) {
  if (rc == NC_NOERR) return;
  throw Error(ErrorKind::Pnetcdf,
              std::string(call) + " failed for " + std::string(path) + ": " + ncmpi_strerror(rc));
}

namespace {

// PnetCDF's defaults for the data section (nc.h: NC_DEFAULT_V_ALIGN 512, R_ALIGN 4); the
// header's free space is the caller's (header_reserve_bytes). Hints in the MPI_Info
// (nc_var_align_size, nc_header_align_size, ...) take precedence inside PnetCDF.
constexpr MPI_Offset kVarAlign = 512;
constexpr MPI_Offset kRecAlign = 4;

nc_type nc_type_of(DataType t) {
  switch (t) {
    case DataType::Float: return NC_FLOAT;
    case DataType::Double: return NC_DOUBLE;
    case DataType::Int: return NC_INT;
    case DataType::Char: return NC_CHAR;
  }
  return NC_NAT;
}

class PnetcdfBackend final : public Backend {
 public:
  explicit PnetcdfBackend(MPI_Comm comm) : comm_(comm) {}
  ~PnetcdfBackend() override {
    // Never collective here (see Backend::abandon): a file still open was abandoned.
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (!finalized && info_ != MPI_INFO_NULL) MPI_Info_free(&info_);
  }

  bool parallel() const noexcept override { return true; }

  void create(const std::string& path, const FileLayout& layout, MPI_Info info) override {
    path_ = path;
    if (info_ != MPI_INFO_NULL) MPI_Info_free(&info_);
    if (info != MPI_INFO_NULL) MPI_Info_dup(info, &info_);  // the same hints for the file-bytes handle
    // The few facts write() needs (names, types), kept so the caller's layout may go away.
    vars_.clear();
    for (const auto& v : layout.vars) vars_.push_back({v.name, v.type, v.record});
    const int mode = NC_CLOBBER | (layout.format == FileFormat::Cdf5 ? NC_64BIT_DATA : NC_64BIT_OFFSET);
    int ncid = -1;
    check(ncmpi_create(comm_, path.c_str(), mode, info, &ncid), "ncmpi_create");
    ncid_ = ncid;
    std::vector<int> dimids;
    for (const auto& d : layout.dims) {
      int id = -1;
      check(ncmpi_def_dim(ncid, d.name.c_str(), d.length == 0 ? NC_UNLIMITED : d.length, &id),
            "ncmpi_def_dim(" + d.name + ")");
      dimids.push_back(id);
    }
    for (const auto& v : layout.vars) {
      std::vector<int> ids;
      for (int d : v.dims) ids.push_back(dimids[static_cast<std::size_t>(d)]);
      int varid = -1;
      check(ncmpi_def_var(ncid, v.name.c_str(), nc_type_of(v.type), static_cast<int>(ids.size()), ids.data(), &varid),
            "ncmpi_def_var(" + v.name + ")");
      for (const Attribute& a : v.attributes) put_attribute(varid, v.name, a);
    }
    for (const Attribute& a : layout.global_attributes) put_attribute(NC_GLOBAL, "global", a);
    int old_mode = 0;
    check(ncmpi_set_fill(ncid, NC_NOFILL, &old_mode), "ncmpi_set_fill");
    // h_minfree: free header space, so that adding attributes later never moves the data.
    check(ncmpi__enddef(ncid, layout.header_reserve_bytes, kVarAlign, 0, kRecAlign), "ncmpi__enddef");
  }

  bool takes_file_bytes() const noexcept override { return true; }

  // The data of a rearranged frame is already big-endian and contiguous per writer: it goes
  // through a second MPI-IO handle on the same file, at the offsets PnetCDF laid out, so that
  // PnetCDF neither swaps it (in place, then back) nor copies it. PnetCDF keeps the header and
  // the record count (Times still goes through it). The two handles write disjoint bytes.
  FileOffsets open_file_bytes() override {
    FileOffsets o;
    for (std::size_t v = 0; v < vars_.size(); ++v) {
      MPI_Offset off = 0;
      check(ncmpi_inq_varoffset(ncid_, static_cast<int>(v), &off), "ncmpi_inq_varoffset(" + vars_[v].name + ")");
      o.var_begin.push_back(off);
    }
    MPI_Offset recsize = 0;
    check(ncmpi_inq_recsize(ncid_, &recsize), "ncmpi_inq_recsize");
    o.record_size = recsize;
    MPI_File fh = MPI_FILE_NULL;
    const int rc = MPI_File_open(comm_, path_.c_str(), MPI_MODE_WRONLY, info_, &fh);
    mpi_io_check(rc, "MPI_File_open");
    fh_ = fh;
    return o;
  }

  void write(std::span<const WriteRequest> requests, const FileBytes& bytes) override {
    // Post every request; a failure is remembered, and this rank still joins ncmpi_wait_all
    // (collective) before throwing, so that no rank hangs.
    std::optional<Error> failed;
    requests_.clear();
    for (const WriteRequest& r : requests) {
      try {
        post(r);
      } catch (const Error& e) {
        if (!failed) failed = e;
      }
    }
    statuses_.assign(requests_.size(), NC_NOERR);
    const int rc = ncmpi_wait_all(ncid_, static_cast<int>(requests_.size()), requests_.data(), statuses_.data());
    // The file bytes join their own collective even after a failure above (no rank hangs).
    std::optional<Error> bytes_failed;
    if (fh_ != MPI_FILE_NULL) {
      try {
        write_bytes(bytes);
      } catch (const Error& e) {
        bytes_failed = e;
      }
    }
    if (failed) throw *failed;
    check(rc, "ncmpi_wait_all");
    for (int s : statuses_) check(s, "ncmpi_wait_all (request status)");
    if (bytes_failed) throw *bytes_failed;
  }

  void close() override {
    if (fh_ != MPI_FILE_NULL) {  // first: its data is complete before PnetCDF's last header write
      MPI_File fh = fh_;
      fh_ = MPI_FILE_NULL;
      mpi_io_check(MPI_File_close(&fh), "MPI_File_close");
    }
    if (ncid_ < 0) return;
    const int ncid = ncid_;
    ncid_ = -1;
    check(ncmpi_close(ncid), "ncmpi_close");
  }

  LayoutFacts layout_facts() const override {
    LayoutFacts facts;
    if (ncid_ < 0) return facts;
    MPI_Offset size = 0, extent = 0;
    if (ncmpi_inq_header_size(ncid_, &size) != NC_NOERR || ncmpi_inq_header_extent(ncid_, &extent) != NC_NOERR) {
      return facts;
    }
    facts.known = true;
    facts.header_size = size;
    facts.header_extent = extent;
    for (std::size_t v = 0; v < vars_.size(); ++v) {
      MPI_Offset off = 0;
      if (ncmpi_inq_varoffset(ncid_, static_cast<int>(v), &off) == NC_NOERR) facts.var_offsets[vars_[v].name] = off;
      if (vars_[v].record) facts.record_vars.insert(vars_[v].name);
    }
    return facts;
  }

  void abandon() noexcept override {
    ncid_ = -1;
    fh_ = MPI_FILE_NULL;
  }

 private:
  void check(int rc, const std::string& call) const { pnetcdf_check(rc, call, path_); }

  void mpi_io_check(int rc, const std::string& call) const {
    if (rc == MPI_SUCCESS) return;
    throw Error(ErrorKind::Io, call + " failed for " + path_ + ": " + mpi_error_string(rc));
  }

  // Collective: every rank calls it, with size 0 when it has nothing (counts are MPI ints:
  // the rearranger bounds a round below INT_MAX).
  void write_bytes(const FileBytes& bytes) {
    MPI_Status status;
    const int count = static_cast<int>(bytes.size);
    mpi_io_check(MPI_File_write_at_all(fh_, static_cast<MPI_Offset>(bytes.offset), bytes.data, count, MPI_BYTE, &status),
                 "MPI_File_write_at_all");
    int written = count;
    MPI_Get_count(&status, MPI_BYTE, &written);
    if (written != count) {
      throw Error(ErrorKind::Io, "MPI_File_write_at_all wrote " + std::to_string(written) + " of " +
                                     std::to_string(count) + " bytes at offset " + std::to_string(bytes.offset) +
                                     " of " + path_);
    }
  }

  void put_attribute(int varid, const std::string& owner, const Attribute& a) {
    const std::string call = "ncmpi_put_att(" + owner + ":" + a.name + ")";
    std::visit(
        [&](const auto& value) {
          using T = std::decay_t<decltype(value)>;
          const auto n = static_cast<MPI_Offset>(value.size());
          if constexpr (std::is_same_v<T, std::string>) {
            check(ncmpi_put_att_text(ncid_, varid, a.name.c_str(), n, value.data()), call);
          } else if constexpr (std::is_same_v<T, std::vector<std::int32_t>>) {
            check(ncmpi_put_att_int(ncid_, varid, a.name.c_str(), NC_INT, n, value.data()), call);
          } else if constexpr (std::is_same_v<T, std::vector<float>>) {
            check(ncmpi_put_att_float(ncid_, varid, a.name.c_str(), NC_FLOAT, n, value.data()), call);
          } else {
            check(ncmpi_put_att_double(ncid_, varid, a.name.c_str(), NC_DOUBLE, n, value.data()), call);
          }
        },
        a.value);
  }

  void post(const WriteRequest& r) {
    // PnetCDF's NC_MAX_VAR_DIMS is INT_MAX; nwpio's variables have at most 4 dimensions.
    std::array<MPI_Offset, 8> start{}, count{};
    if (r.start.size() > start.size()) throw Error(ErrorKind::Internal, "write request with too many dimensions");
    for (std::size_t d = 0; d < r.start.size(); ++d) {
      start[d] = r.start[d];
      count[d] = r.count[d];
      if (count[d] == 0) return;  // nothing to write
    }
    const int var = r.var;
    const VarInfo& info = vars_[static_cast<std::size_t>(var)];
    int req = NC_REQ_NULL;
    int rc = NC_NOERR;
    if (r.mem_type != MPI_DATATYPE_NULL) {
      rc = ncmpi_iput_vara(ncid_, var, start.data(), count.data(), r.data, 1, r.mem_type, &req);
    } else {
      switch (info.type) {
        case DataType::Float:
          rc = ncmpi_iput_vara_float(ncid_, var, start.data(), count.data(), static_cast<const float*>(r.data), &req);
          break;
        case DataType::Double:
          rc = ncmpi_iput_vara_double(ncid_, var, start.data(), count.data(), static_cast<const double*>(r.data), &req);
          break;
        case DataType::Int:
          rc = ncmpi_iput_vara_int(ncid_, var, start.data(), count.data(), static_cast<const int*>(r.data), &req);
          break;
        case DataType::Char:
          rc = ncmpi_iput_vara_text(ncid_, var, start.data(), count.data(), static_cast<const char*>(r.data), &req);
          break;
      }
    }
    check(rc, "ncmpi_iput_vara(" + info.name + ")");
    requests_.push_back(req);
  }

  MPI_Comm comm_;
  MPI_Info info_ = MPI_INFO_NULL;
  MPI_File fh_ = MPI_FILE_NULL;  // file bytes (open_file_bytes), beside PnetCDF's own handle
  int ncid_ = -1;
  std::string path_;
  struct VarInfo {
    std::string name;
    DataType type;
    bool record;
  };
  std::vector<VarInfo> vars_;
  std::vector<int> requests_, statuses_;
};

}  // namespace

std::unique_ptr<Backend> make_pnetcdf_backend(MPI_Comm comm) { return std::make_unique<PnetcdfBackend>(comm); }

}  // namespace nwpio::detail
