// L0: the PnetCDF backend (io_form 11). Requests go through PnetCDF (iput + one wait_all per
// round); slabs are already the file's bytes (big-endian, at PnetCDF's own offsets) and go
// through a second MPI-IO handle on the same file with one MPI_File_write_at_all, so PnetCDF
// neither swaps them (in place, then back) nor copies them. PnetCDF keeps the header and the
// record count: the rows of Times in a slab also go through it (the same bytes, from the same
// rank, one after the other). The two handles write disjoint bytes otherwise.
//
// Slabs written by the writers themselves: when the hints allow independent writes (collective
// buffering off, independent I/O not forbidden), each writer's slab is one contiguous stretch of
// the file that nobody else writes, and it goes out with plain pwrite(2) through a descriptor of
// the writer's own: the same system call MPI-IO's independent contiguous write ends in (ROMIO's
// ADIOI_GEN_WriteContig, OMPIO's fbtl/posix), without a second collective open, and with the
// system's errors (a full disk, a quota) reported as errors of the write. write_deferred() leaves
// that write to the caller (write-behind). Otherwise slabs go through a second MPI-IO handle with
// one MPI_File_write_at_all (collective buffering, as the hints ask).
//
// The header on rank 0 alone: when the writers write their own slabs and the caller promises
// that only slabs come, with every row of Times in rank 0's slabs (FileHints), PnetCDF runs on
// rank 0 alone, over MPI_COMM_SELF: rank 0's MPI-IO open creates the file with the hints (so a
// parallel file system lays it out as they ask), rank 0 defines it, writes Times and the record
// count, and closes it; the other ranks open a descriptor of their own and write their slabs.
// No collective MPI-IO open or close of the file, and no PnetCDF collective, runs on every rank:
// each would be a round of messages across the nodes for every file, on the model's path, and
// an MPI-IO open on every rank is one more metadata operation per rank and file on the file
// system, beside the descriptor each rank opens for its slabs.
#include "backend/pnetcdf/pnetcdf_backend.hpp"

#include <fcntl.h>
#include <pnetcdf.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <array>
#include <optional>
#include <string>

#include "backend/agreed_open.hpp"
#include "backend/netcdf_types.hpp"
#include "backend/pnetcdf/pnetcdf_check.hpp"
#include "backend/pnetcdf/pnetcdf_layout.hpp"
#include "backend/row_hyperslabs.hpp"
#include "nwpio/error.hpp"
#include "util/agree.hpp"
#include "util/mpi_call.hpp"

namespace nwpio::detail {

static_assert(NC_CHAR == kNcChar && NC_INT == kNcInt && NC_FLOAT == kNcFloat && NC_DOUBLE == kNcDouble);

void pnetcdf_check(int rc, std::string_view call, std::string_view path) {
  if (rc == NC_NOERR) return;
  throw Error(ErrorKind::Pnetcdf, std::string(call) + " failed for " + std::string(path) + ": " + ncmpi_strerror(rc));
}

namespace {

// PnetCDF's defaults for the data section (nc.h: NC_DEFAULT_V_ALIGN 512, R_ALIGN 4); the
// header's free space is the caller's (header_reserve_bytes). Hints in the MPI_Info
// (nc_var_align_size, nc_header_align_size, ...) take precedence inside PnetCDF.
constexpr MPI_Offset kVarAlign = 512;
constexpr MPI_Offset kRecAlign = 4;

class PnetcdfBackend final : public Backend {
 public:
  explicit PnetcdfBackend(MPI_Comm comm) : comm_(comm) { MPI_Comm_rank(comm_, &rank_); }
  ~PnetcdfBackend() override {
    // Never collective here (see Backend::abandon): a file still open was abandoned.
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (fd_ >= 0) ::close(fd_);
    if (finalized) return;
    if (info_ != MPI_INFO_NULL) MPI_Info_free(&info_);
  }

  void create(const std::string& path, const FileLayout& layout, const FileHints& hints) override {
    const MPI_Info info = hints.info;
    path_ = path;
    layout_ = layout;  // the few facts write() needs later (shapes, types), kept by value
    record_marker_ = -1;
    for (std::size_t v = 0; v < layout.vars.size() && record_marker_ < 0; ++v) {
      if (layout.vars[v].record) record_marker_ = static_cast<int>(v);
    }
    if (info_ != MPI_INFO_NULL) MPI_Info_free(&info_);
    if (info != MPI_INFO_NULL) MPI_Info_dup(info, &info_);  // the same hints for the slab handle
    independent_slabs_ = hints.independent_writes;
    header_on_rank0_ = hints.independent_writes && hints.slabs_only_times_on_rank0;
    // NC_NOCLOBBER: nothing is there (Backend::create); should something appear meanwhile, the
    // create fails (NC_EEXIST) instead of truncating it. PnetCDF then opens with MPI_MODE_CREATE
    // (1.12 checks the name with access(2) on rank 0 first, where MPI_MODE_EXCL would make
    // OMPIO's Lustre driver refuse the file it just laid out).
    const int mode = NC_NOCLOBBER | (layout.format == FileFormat::Cdf5 ? NC_64BIT_DATA : NC_64BIT_OFFSET);
    if (header_on_rank0_) {
      create_on_rank0(mode, info);
      return;
    }
    // The open's outcome is agreed before anything else: PnetCDF does not agree on its
    // MPI_File_open (outside its safe mode), and ncmpi__enddef and ncmpi_close wait for every
    // rank (agreed_open.hpp).
    std::optional<Error> failed;
    try {
      int ncid = -1;
      check(ncmpi_create(comm_, path.c_str(), mode, info, &ncid), "ncmpi_create");
      ncid_ = ncid;
      fault(FaultPhase::CreateOpen);  // tests: this rank fails after the open
    } catch (const Error& e) {
      failed = e;
    }
    agree_on_open(comm_, failed, ncid_ >= 0, [&] { discard(); }, [&] { ncid_ = -1; });
    // Defined in memory on every rank (local), then ncmpi__enddef writes the header.
    try {
      run_and_agree(comm_, [&] { define(layout); });
    } catch (const Error&) {
      discard();  // every rank is in define mode: the collective abort matches, and removes the file
      throw;
    }
    try {
      run_and_agree(comm_, [&] { end_define(); });
    } catch (const Error&) {
      // Some ranks may have left define mode and others not: no collective call is certain to
      // match any more. The handle is forgotten, unclosed (agreed_open.hpp); the caller
      // removes the file.
      ncid_ = -1;
      throw;
    }
  }

  // The rows' positions, and this rank's handle for its slabs: its own descriptor (independent
  // writes) or a second MPI-IO handle, each open agreed on before anything else.
  SlabPlacement placement() override {
    SlabPlacement p;
    if (header_on_rank0_) {
      run_and_agree(comm_, [&] { open_slab_descriptor(); });  // rank 0's placement came with the create
      record_stride_ = rank0_placement_.record_stride;
      return rank0_placement_;
    }
    run_and_agree(comm_, [&] {
      p = pnetcdf_placement(ncid_, layout_, path_);
      if (independent_slabs_) open_slab_descriptor();
    });
    if (!independent_slabs_) open_slab_handle();
    record_stride_ = p.record_stride;
    return p;
  }

  void write(std::span<const WriteRequest> requests, const Slab& slab) override { write_round(requests, slab, nullptr); }

  std::unique_ptr<DeferredWrite> write_deferred(std::span<const WriteRequest> requests, const Slab& slab) override {
    std::unique_ptr<DeferredWrite> deferred;
    write_round(requests, slab, fd_ >= 0 ? &deferred : nullptr);
    return deferred;
  }

  // Slabs through this rank's own descriptor (placement() with independent writes): pwrite
  // reports a full disk, and the caller may make that write itself.
  bool reports_full_disk() const noexcept override { return fd_ >= 0; }
  bool defers_slabs() const noexcept override { return fd_ >= 0; }

  // Every handle is closed, and every collective step entered, whatever the step before it
  // returned on this rank (a network file system reports a write error at close(2)); the first
  // failure is thrown after.
  void close(bool durable) override {
    std::optional<Error> failed;
    const auto step = [&](const auto& f) {
      try {
        f();
      } catch (const Error& e) {
        if (!failed) failed = e;
      }
    };
    if (durable) {
      step([&] {
        if (fd_ >= 0 && ::fsync(fd_) != 0) throw Error(ErrorKind::Io, "fsync " + path_ + ": " + std::strerror(errno));
      });
      step([&] {
        if (fh_ != MPI_FILE_NULL) mpi_io_check(MPI_File_sync(fh_), "MPI_File_sync");
      });
      step([&] {
        if (ncid_ >= 0) check(ncmpi_sync(ncid_), "ncmpi_sync");
      });
    }
    step([&] { close_slab_descriptor(); });  // local
    step([&] { close_slab_handle(); });      // collective: first, its data is complete before PnetCDF's last header write
    step([&] {                               // collective
      if (ncid_ < 0) return;
      const int ncid = ncid_;
      ncid_ = -1;
      check(ncmpi_close(ncid), "ncmpi_close");
    });
    if (failed) throw *failed;
  }

  LayoutFacts layout_facts() const override {
    LayoutFacts facts = pnetcdf_layout_facts(ncid_, layout_);
    facts.mpiio_on_rank0_alone = header_on_rank0_;
    return facts;
  }

  void abandon() noexcept override {
    ncid_ = -1;
    fh_ = MPI_FILE_NULL;
  }

 private:
  // `deferred` non-null: the slab's write is left to the caller (returned there) instead of made.
  void write_round(std::span<const WriteRequest> requests, const Slab& slab, std::unique_ptr<DeferredWrite>* deferred) {
    // Post every request; a failure is remembered, and this rank still joins ncmpi_wait_all
    // and the slab write (both collective) before throwing, so that no rank hangs.
    std::optional<Error> failed;
    requests_.clear();
    // With the header on rank 0 alone, only rank 0 holds a PnetCDF handle, and only slabs come.
    const bool through_pnetcdf = !header_on_rank0_ || rank_ == 0;
    if (header_on_rank0_ && !requests.empty()) {
      failed = Error(ErrorKind::Internal, "PnetCDF backend: a write request for " + path_ +
                                              ", whose header rank 0 keeps alone (slabs only were promised)");
    }
    for (const WriteRequest& r : requests) {
      if (failed || !through_pnetcdf) break;
      try {
        post(r);
      } catch (const Error& e) {
        if (!failed) failed = e;
      }
    }
    try {
      if (through_pnetcdf) post_record_marker(slab);
    } catch (const Error& e) {
      if (!failed) failed = e;
    }
    statuses_.assign(requests_.size(), NC_NOERR);
    // Collective over PnetCDF's communicator: every rank, or rank 0 alone over MPI_COMM_SELF.
    const int rc = through_pnetcdf
                       ? ncmpi_wait_all(ncid_, static_cast<int>(requests_.size()), requests_.data(), statuses_.data())
                       : NC_NOERR;
    if (deferred) {
      // Every rank's small writes (Times, the header's record count) are in the file before any
      // rank's slab goes behind: a file system that serialises writes to one file (ext4's inode
      // lock) would otherwise hold rank 0's 19-byte Times write behind another rank's slab write
      // for as long as that takes, inside the model's frame.
      mpi_check(MPI_Barrier(comm_), "MPI_Barrier(before the slabs go behind)");
    }
    std::optional<Error> slab_failed;
    try {
      if (deferred && slab.size > 0 && !failed) {
        const int fd = ::dup(fd_);
        if (fd < 0) throw Error(ErrorKind::Io, "dup of the descriptor of " + path_ + ": " + std::strerror(errno));
        *deferred = std::make_unique<DeferredWrite>(fd, path_, slab_offset(slab), slab.data, slab.size);
      } else if (fd_ >= 0) {
        if (slab.size > 0) write_all_at(fd_, path_, slab_offset(slab), slab.data, slab.size);
      } else if (fh_ != MPI_FILE_NULL) {
        write_slab(slab);
      }
    } catch (const Error& e) {
      slab_failed = e;
    }
    if (failed) throw *failed;
    check(rc, "ncmpi_wait_all");
    for (int s : statuses_) check(s, "ncmpi_wait_all (request status)");
    if (slab_failed) throw *slab_failed;
  }

  MPI_Offset slab_offset(const Slab& slab) const noexcept {
    return slab.position + static_cast<MPI_Offset>(slab.record) * record_stride_;
  }

  // Collective: PnetCDF on rank 0 alone (see the top of this file) creates, defines and lays out
  // the file; every rank learns the outcome and the rows' positions. On failure rank 0's
  // handle is gone (a file still in define mode removed by ncmpi_abort); the caller removes
  // the rest.
  void create_on_rank0(int mode, MPI_Info info) {
    std::optional<Error> failed;
    if (rank_ == 0) {
      try {
        int ncid = -1;
        check(ncmpi_create(MPI_COMM_SELF, path_.c_str(), mode, info, &ncid), "ncmpi_create");
        ncid_ = ncid;
        define(layout_);
        end_define();
        rank0_placement_ = pnetcdf_placement(ncid_, layout_, path_);
      } catch (const Error& e) {
        failed = e;
      }
    }
    try {
      fault(FaultPhase::CreateOpen);  // tests: this rank fails after the create
    } catch (const Error& e) {
      if (!failed) failed = e;
    }
    try {
      agree(comm_, failed);
    } catch (const Error&) {
      discard();  // rank 0's handle, over MPI_COMM_SELF: local
      throw;
    }
    // Every rank stages its slab at rank 0's positions.
    std::vector<std::int64_t> positions = rank0_placement_.var_begin;
    positions.resize(layout_.vars.size());
    positions.push_back(rank0_placement_.record_stride);
    mpi_check(MPI_Bcast(positions.data(), static_cast<int>(positions.size()), MPI_INT64_T, 0, comm_),
              "MPI_Bcast(the rows' positions)");
    rank0_placement_.record_stride = positions.back();
    positions.pop_back();
    rank0_placement_.var_begin = std::move(positions);
  }

  // Local: this rank's descriptor for its slabs.
  void open_slab_descriptor() {
    fd_ = ::open(path_.c_str(), O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd_ < 0) throw Error(ErrorKind::Io, "open " + path_ + " for the slab writes: " + std::strerror(errno));
    fault(FaultPhase::SlabOpen, [&] { close_slab_descriptor(); });  // tests: this rank's open failed
  }

  // Collective: the second MPI-IO handle, its open agreed (agreed_open.hpp).
  void open_slab_handle() {
    std::optional<Error> failed;
    try {
      MPI_File fh = MPI_FILE_NULL;
      mpi_io_check(MPI_File_open(comm_, path_.c_str(), MPI_MODE_WRONLY, info_, &fh), "MPI_File_open");
      fh_ = fh;
      fault(FaultPhase::SlabOpen, [&] { fh_ = MPI_FILE_NULL; });  // tests: this rank's open failed
    } catch (const Error& e) {
      failed = e;
    }
    agree_on_open(comm_, failed, fh_ != MPI_FILE_NULL, [&] { close_slab_handle(); }, [&] { fh_ = MPI_FILE_NULL; });
  }

  // Local. close(2) releases the descriptor even when it reports an error.
  void close_slab_descriptor() {
    if (fd_ < 0) return;
    const int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0) throw Error(ErrorKind::Io, "close " + path_ + ": " + std::strerror(errno));
    fault(FaultPhase::SlabClose);  // tests: the close failed
  }

  // Collective.
  void close_slab_handle() {
    if (fh_ == MPI_FILE_NULL) return;
    MPI_File fh = fh_;
    fh_ = MPI_FILE_NULL;
    mpi_io_check(MPI_File_close(&fh), "MPI_File_close");
  }

  // Collective over PnetCDF's communicator, never throws: the file is closed and, still in define
  // mode after its create, removed (ncmpi_abort).
  void discard() noexcept {
    if (ncid_ < 0) return;
    const int ncid = ncid_;
    ncid_ = -1;
    ncmpi_abort(ncid);
  }

  // Collective over PnetCDF's communicator: writes the header. h_minfree: free header space, so
  // that adding attributes later never moves the data.
  void end_define() {
    check(ncmpi__enddef(ncid_, layout_.header_reserve_bytes, kVarAlign, 0, kRecAlign), "ncmpi__enddef");
  }

  // Local: PnetCDF keeps the definitions in memory until ncmpi__enddef.
  void define(const FileLayout& layout) {
    std::vector<int> dimids;
    for (const auto& d : layout.dims) {
      int id = -1;
      check(ncmpi_def_dim(ncid_, d.name.c_str(), d.length == 0 ? NC_UNLIMITED : d.length, &id),
            "ncmpi_def_dim(" + d.name + ")");
      dimids.push_back(id);
    }
    for (const auto& v : layout.vars) {
      std::vector<int> ids;
      for (int d : v.dims) ids.push_back(dimids[static_cast<std::size_t>(d)]);
      int varid = -1;
      check(ncmpi_def_var(ncid_, v.name.c_str(), nc_type_of(v.type), static_cast<int>(ids.size()), ids.data(), &varid),
            "ncmpi_def_var(" + v.name + ")");
      for (const Attribute& a : v.attributes) put_attribute(varid, v.name, a);
    }
    for (const Attribute& a : layout.global_attributes) put_attribute(NC_GLOBAL, "global", a);
    int old_mode = 0;
    check(ncmpi_set_fill(ncid_, NC_NOFILL, &old_mode), "ncmpi_set_fill");
  }

  void check(int rc, const std::string& call) const { pnetcdf_check(rc, call, path_); }

  void mpi_io_check(int rc, const std::string& call) const {
    if (rc == MPI_SUCCESS) return;
    throw Error(ErrorKind::Io, call + " failed for " + path_ + ": " + mpi_error_string(rc));
  }

  // Collective: every rank calls it, with size 0 when it has nothing (counts are MPI ints:
  // the rearranger bounds a round below INT_MAX).
  void write_slab(const Slab& slab) {
    MPI_Status status;
    const int count = static_cast<int>(slab.size);
    const MPI_Offset offset = slab_offset(slab);
    mpi_io_check(MPI_File_write_at_all(fh_, offset, slab.data, count, MPI_BYTE, &status), "MPI_File_write_at_all");
    check_count(status, count, offset, "MPI_File_write_at_all");
  }

  void check_count(const MPI_Status& status, int count, MPI_Offset offset, const std::string& call) const {
    int written = count;
    MPI_Get_count(&status, MPI_BYTE, &written);
    if (written != count) {
      throw Error(ErrorKind::Io, call + " wrote " + std::to_string(written) + " of " + std::to_string(count) +
                                     " bytes at offset " + std::to_string(offset) + " of " + path_);
    }
  }

  // PnetCDF counts records only through its own writes: the rows of the first record variable
  // (Times, characters: the same bytes in either byte order) that this slab holds also go
  // through PnetCDF.
  void post_record_marker(const Slab& slab) {
    for (const SlabPiece& p : slab.pieces) {
      if (p.var != record_marker_) continue;
      const FileLayout::Var& var = layout_.vars[static_cast<std::size_t>(p.var)];
      if (var.type != DataType::Char) {
        throw Error(ErrorKind::Internal, "PnetCDF backend: the first record variable " + var.name + " is not text");
      }
      for (const WriteRequest& r : piece_requests(layout_, slab, p)) post(r);
      return;
    }
  }

  void put_attribute(int varid, const std::string& owner, const Attribute& a) {
    put_attribute_values(a, [&](int type, const auto& values) {
      check(ncmpi_put_att(ncid_, varid, a.name.c_str(), type, static_cast<MPI_Offset>(values.size()), values.data()),
            "ncmpi_put_att(" + owner + ":" + a.name + ")");
    });
  }

  void post(const WriteRequest& r) {
    // nwpio's variables have at most 4 dimensions.
    std::array<MPI_Offset, 8> start{}, count{};
    if (r.start.size() > start.size()) throw Error(ErrorKind::Internal, "write request with too many dimensions");
    for (std::size_t d = 0; d < r.start.size(); ++d) {
      start[d] = r.start[d];
      count[d] = r.count[d];
      if (count[d] == 0) return;  // nothing to write
    }
    const FileLayout::Var& var = layout_.vars[static_cast<std::size_t>(r.var)];
    int req = NC_REQ_NULL;
    int rc = NC_NOERR;
    if (r.mem_type != MPI_DATATYPE_NULL) {
      rc = ncmpi_iput_vara(ncid_, r.var, start.data(), count.data(), r.data, 1, r.mem_type, &req);
    } else {
      switch (var.type) {  // native data of the variable's own type
        case DataType::Float:
          rc = ncmpi_iput_vara_float(ncid_, r.var, start.data(), count.data(), static_cast<const float*>(r.data), &req);
          break;
        case DataType::Double:
          rc = ncmpi_iput_vara_double(ncid_, r.var, start.data(), count.data(), static_cast<const double*>(r.data), &req);
          break;
        case DataType::Int:
          rc = ncmpi_iput_vara_int(ncid_, r.var, start.data(), count.data(), static_cast<const int*>(r.data), &req);
          break;
        case DataType::Char:
          rc = ncmpi_iput_vara_text(ncid_, r.var, start.data(), count.data(), static_cast<const char*>(r.data), &req);
          break;
      }
    }
    check(rc, "ncmpi_iput_vara(" + var.name + ")");
    requests_.push_back(req);
  }

  MPI_Comm comm_;
  int rank_ = 0;
  MPI_Info info_ = MPI_INFO_NULL;
  MPI_File fh_ = MPI_FILE_NULL;  // slabs written collectively (after placement()), beside PnetCDF's own handle
  int ncid_ = -1;
  std::string path_;
  FileLayout layout_;
  MPI_Offset record_stride_ = 0;
  int record_marker_ = -1;  // the first record variable (Times): its rows also go through PnetCDF
  std::vector<int> requests_, statuses_;
  bool independent_slabs_ = false;  // the hints allow independent writes: slabs go through fd_
  int fd_ = -1;                     // this rank's descriptor for its slabs (independent writes)
  bool header_on_rank0_ = false;    // PnetCDF on rank 0 alone, over MPI_COMM_SELF (see the top)
  SlabPlacement rank0_placement_;   // with the header on rank 0: its positions, learnt at the create
};

}  // namespace

std::unique_ptr<Backend> make_pnetcdf_backend(MPI_Comm comm) { return std::make_unique<PnetcdfBackend>(comm); }

}  // namespace nwpio::detail
