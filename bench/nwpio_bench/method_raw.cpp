// The raw variants (raw_variants.hpp):
//   raw-<v>    MPI-IO writes of the same total bytes as the frame, each rank one contiguous
//              block (rank r: bytes [r B / P, (r+1) B / P)), from a buffer filled before the
//              timing. In rounds of at most max_round_bytes per rank (MPI counts are int), every
//              rank joining every collective call.
//   floor-<v>  the same plus one in-place byte-swap pass over the rank's block inside the timing
//              (netCDF is big-endian): the least any netCDF writer pays on a little-endian
//              machine. The block is swapped by element size as the frame's variables lie in it
//              (the frame's bytes concatenated in variable order).
// Timing: MPI_File_open (create) .. [MPI_File_sync with --fsync] .. MPI_File_close.
#include <fcntl.h>
#include <mpi.h>
#include <unistd.h>

#include <cerrno>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>

#include "backend/deferred_write.hpp"
#include "nwpio/error.hpp"
#include "nwpio/wrf_conventions.hpp"
#include "raw_variants.hpp"
#include "util/mpi_call.hpp"

namespace nwpio::bench {

std::string RawVariant::describe() const {
  if (posix) return "open + pwrite (+ fsync) + close on every rank, no MPI-IO, heap buffer";
  std::string s = collective ? "MPI_File_write_at_all" : "MPI_File_write_at (independent)";
  s += collective_buffering ? ", collective buffering as MPI-IO's default" : ", collective buffering off";
  s += chunk_bytes > 0 ? ", requests of " + std::to_string(chunk_bytes >> 20) + " MiB" : ", one request per rank and round";
  s += shared_buffer ? ", buffer in MPI shared memory" : ", heap buffer";
  if (reserve) s += ", blocks reserved first (fallocate per rank)";
  return s;
}

const std::vector<RawVariant>& raw_variants() {
  static const std::vector<RawVariant> variants = {
      {"all-cb", true, true, 0, false},         // MPI-IO's default (collective buffering)
      {"all", true, false, 0, false},           // as nwpio's writers call it
      {"at", false, false, 0, false},           // no collective at all
      {"all-64m", true, false, std::int64_t{64} << 20, false},
      {"all-shm", true, false, 0, true},
      {"at-reserve", false, false, 0, false, true},
      {"pwrite", false, false, 0, false, false, true},
  };
  return variants;
}

std::vector<std::string> raw_method_names(bool swap) {
  std::vector<std::string> names;
  for (const RawVariant& v : raw_variants()) names.push_back((swap ? "floor-" : "raw-") + v.name);
  return names;
}

namespace {

using detail::mpi_check;

// A run of elements of one size in the frame's byte stream.
struct Segment {
  std::int64_t begin = 0, end = 0;  // byte offsets in the frame
  int elem = 1;
};

std::vector<Segment> frame_segments(const Case& c) {
  std::vector<Segment> out;
  std::int64_t at = wrf::kDateStrLenValue;  // Times: chars, nothing to swap
  out.push_back({0, at, 1});
  for (const VarSpec& v : c.schema.variables()) {
    const auto elem = static_cast<int>(size_of(v.type));
    std::int64_t n = elem;
    for (const std::string& d : wrf::file_dimensions(v)) {
      if (d == wrf::kTime) continue;
      if (d == wrf::kWestEast) n *= c.e_we - 1;
      else if (d == wrf::kWestEastStag) n *= c.e_we;
      else if (d == wrf::kSouthNorth) n *= c.e_sn - 1;
      else if (d == wrf::kSouthNorthStag) n *= c.e_sn;
      else if (d == wrf::kBottomTop) n *= c.e_vert - 1;
      else if (d == wrf::kBottomTopStag) n *= c.e_vert;
      else n *= c.schema.find_dimension(d)->length;
    }
    out.push_back({at, at + n, elem});
    at += n;
  }
  return out;
}

template <class U>
void swap_words(std::byte* p, std::int64_t n) noexcept {
  for (std::int64_t e = 0; e < n; ++e) {
    U w;
    std::memcpy(&w, p + e * static_cast<std::int64_t>(sizeof(U)), sizeof(U));
    if constexpr (sizeof(U) == 4) w = __builtin_bswap32(w);
    else w = __builtin_bswap64(w);
    std::memcpy(p + e * static_cast<std::int64_t>(sizeof(U)), &w, sizeof(U));
  }
}

// fallocate(KEEP_SIZE) of [offset, offset + n) of the (open) file, as nwpio's disk guard
// reserves a frame's slice; a file system without it (EOPNOTSUPP) just writes.
void reserve_block(const std::string& path, std::int64_t offset, std::int64_t n) {
  const int fd = ::open(path.c_str(), O_WRONLY);
  if (fd < 0) throw Error(ErrorKind::Io, "open " + path + ": " + std::strerror(errno));
  const int rc = ::fallocate(fd, FALLOC_FL_KEEP_SIZE, static_cast<off_t>(offset), static_cast<off_t>(n));
  const int err = errno;
  ::close(fd);
  if (rc != 0 && err != EOPNOTSUPP && err != ENOSYS) {
    throw Error(ErrorKind::Io, "fallocate " + path + ": " + std::strerror(err));
  }
}

// The rank's block: on the heap, or a segment of an MPI shared-memory window (as nwpio's
// slabs). Allocated and filled (every page touched) in prepare, outside the timing, freed in
// finish: a case runs up to ten raw variants, each holding its share of the frame.
class Buffer {
 public:
  void allocate(MPI_Comm comm, std::int64_t bytes, bool shared) {
    const std::int64_t n = std::max<std::int64_t>(bytes, 1);
    release();
    bytes_ = n;
    if (!shared) {
      heap_.reset(new std::byte[static_cast<std::size_t>(n)]);
      data_ = heap_.get();
      return;
    }
    mpi_check(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node_), "MPI_Comm_split_type");
    void* base = nullptr;
    mpi_check(MPI_Win_allocate_shared(static_cast<MPI_Aint>(n), 1, MPI_INFO_NULL, node_, &base, &win_),
              "MPI_Win_allocate_shared");
    data_ = static_cast<std::byte*>(base);
  }
  // Collective for a shared buffer (MPI_Win_free).
  void release() {
    if (win_ != MPI_WIN_NULL) mpi_check(MPI_Win_free(&win_), "MPI_Win_free");
    if (node_ != MPI_COMM_NULL) mpi_check(MPI_Comm_free(&node_), "MPI_Comm_free");
    heap_.reset();
    data_ = nullptr;
    bytes_ = 0;
  }
  std::byte* data() const noexcept { return data_; }

 private:
  std::unique_ptr<std::byte[]> heap_;
  MPI_Win win_ = MPI_WIN_NULL;
  MPI_Comm node_ = MPI_COMM_NULL;
  std::byte* data_ = nullptr;
  std::int64_t bytes_ = 0;
};

class RawMethod final : public Method {
 public:
  RawMethod(RawVariant variant, bool swap) : variant_(std::move(variant)), swap_(swap) {}
  ~RawMethod() override {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (!finalized) {
      try {
        buffer_.release();
      } catch (...) {
      }
    }
  }
  std::string name() const override { return (swap_ ? "floor-" : "raw-") + variant_.name; }
  bool writes_netcdf() const override { return false; }

  void prepare(const CaseContext& ctx, int) override {
    const std::int64_t total = ctx.bench_case->frame_bytes;
    lo_ = total * ctx.rank / ctx.size;
    hi_ = total * (ctx.rank + 1) / ctx.size;
    const std::int64_t n = hi_ - lo_;
    buffer_.allocate(ctx.comm, n, variant_.shared_buffer);
    // Touch every page before the timing, with data that is not all zero.
    std::memset(buffer_.data(), 0x5a + ctx.rank, static_cast<std::size_t>(std::max<std::int64_t>(n, 1)));
    std::int64_t limit = std::min<std::int64_t>(ctx.max_round_bytes, std::int64_t{1} << 30);
    if (variant_.chunk_bytes > 0) limit = std::min(limit, variant_.chunk_bytes);
    std::int64_t rounds = (n + limit - 1) / limit;
    mpi_check(MPI_Allreduce(MPI_IN_PLACE, &rounds, 1, MPI_INT64_T, MPI_MAX, ctx.comm), "MPI_Allreduce(rounds)");
    rounds_ = std::max<std::int64_t>(rounds, 1);
    limit_ = limit;
    segments_.clear();
    if (swap_) {
      for (const Segment& s : frame_segments(*ctx.bench_case)) {
        const std::int64_t a = std::max(s.begin, lo_), b = std::min(s.end, hi_);
        if (a >= b || s.elem == 1) continue;
        // Whole elements of the segment inside this rank's block.
        const std::int64_t first = s.begin + (a - s.begin + s.elem - 1) / s.elem * s.elem;
        const std::int64_t last = s.begin + (b - s.begin) / s.elem * s.elem;
        if (first < last) segments_.push_back({first - lo_, last - lo_, s.elem});
      }
    }
    path_ = (std::filesystem::path(ctx.dir) / (name() + ".bin")).string();
    rehearse(ctx.rank);
  }

  void run(const CaseContext& ctx, int) override {
    if (swap_) {
      for (const Segment& s : segments_) {
        std::byte* p = buffer_.data() + s.begin;
        if (s.elem == 4) swap_words<std::uint32_t>(p, (s.end - s.begin) / 4);
        else if (s.elem == 8) swap_words<std::uint64_t>(p, (s.end - s.begin) / 8);
      }
    }
    if (variant_.posix) {
      run_posix(ctx);
      return;
    }
    const MPI_Info info = variant_.collective_buffering ? ctx.info : ctx.info_slabs;
    MPI_File fh = MPI_FILE_NULL;
    mpi_check(MPI_File_open(ctx.comm, path_.c_str(), MPI_MODE_CREATE | MPI_MODE_WRONLY, info, &fh),
              "MPI_File_open(" + path_ + ")");
    const std::int64_t n = hi_ - lo_;
    if (variant_.reserve && n > 0) reserve_block(path_, lo_, n);
    for (std::int64_t t = 0; t < rounds_; ++t) {
      const std::int64_t a = std::min(n, t * limit_), b = std::min(n, (t + 1) * limit_);
      const auto offset = static_cast<MPI_Offset>(lo_ + a);
      MPI_Status status;
      if (variant_.collective) {
        mpi_check(MPI_File_write_at_all(fh, offset, buffer_.data() + a, static_cast<int>(b - a), MPI_BYTE, &status),
                  "MPI_File_write_at_all(" + path_ + ")");
      } else if (b > a) {
        mpi_check(MPI_File_write_at(fh, offset, buffer_.data() + a, static_cast<int>(b - a), MPI_BYTE, &status),
                  "MPI_File_write_at(" + path_ + ")");
      }
    }
    if (ctx.options->fsync) mpi_check(MPI_File_sync(fh), "MPI_File_sync(" + path_ + ")");
    mpi_check(MPI_File_close(&fh), "MPI_File_close(" + path_ + ")");
  }

  // Every rank: its block with pwrite through a descriptor of its own (the file created by
  // whichever rank comes first; O_CREAT without O_TRUNC, so nobody truncates another's bytes).
  void run_posix(const CaseContext& ctx) {
    const int fd = ::open(path_.c_str(), O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
    if (fd < 0) throw Error(ErrorKind::Io, "open " + path_ + ": " + std::strerror(errno));
    std::optional<Error> failed;
    try {
      detail::write_all_at(fd, path_, lo_, buffer_.data(), hi_ - lo_);
      if (ctx.options->fsync && ::fsync(fd) != 0) throw Error(ErrorKind::Io, "fsync " + path_ + ": " + std::strerror(errno));
    } catch (const Error& e) {
      failed = e;
    }
    if (::close(fd) != 0 && !failed) failed = Error(ErrorKind::Io, "close " + path_ + ": " + std::strerror(errno));
    if (failed) throw *failed;
  }

  // Untimed: this rank's block written once to a scratch file that is removed at once. On a
  // fresh VM the first use of memory the guest never touched is slow (the host backs it page by
  // page: a first 448 MB write into tmpfs took 1.3-1.5 s, the next ones 0.10-0.17 s), and each
  // variant allocates a new buffer, while nwpio's repetitions reuse their slabs and the pages the
  // previous file freed. The rehearsal hands the timed write the same kind of pages.
  void rehearse(int rank) const {
    const std::int64_t n = hi_ - lo_;
    if (n <= 0) return;
    const std::string scratch = path_ + ".rehearsal." + std::to_string(rank);
    const int fd = ::open(scratch.c_str(), O_CREAT | O_WRONLY | O_TRUNC, 0644);
    if (fd < 0) throw Error(ErrorKind::Io, "open " + scratch + ": " + std::strerror(errno));
    std::int64_t done = 0;
    while (done < n) {
      const ssize_t w = ::pwrite(fd, buffer_.data() + done, static_cast<std::size_t>(std::min<std::int64_t>(n - done, 1 << 30)),
                                 static_cast<off_t>(done));
      if (w <= 0) break;
      done += w;
    }
    ::close(fd);
    ::unlink(scratch.c_str());
  }

  RunOutcome finish(const CaseContext& ctx) override {
    RunOutcome out;
    const std::int64_t mine = hi_ - lo_;
    mpi_check(MPI_Allreduce(&mine, &out.bytes, 1, MPI_INT64_T, MPI_SUM, ctx.comm), "MPI_Allreduce(bytes)");
    out.file = path_;
    out.buffer_bytes = mine;
    mpi_check(MPI_Allreduce(MPI_IN_PLACE, &out.buffer_bytes, 1, MPI_INT64_T, MPI_MAX, ctx.comm), "MPI_Allreduce(buffer)");
    out.mode = std::to_string(rounds_) + " round(s): " + variant_.describe() + (swap_ ? "; in-place byte swap first" : "");
    buffer_.release();
    return out;
  }

 private:
  RawVariant variant_;
  bool swap_;
  std::int64_t lo_ = 0, hi_ = 0, rounds_ = 1, limit_ = 1;
  Buffer buffer_;
  std::vector<Segment> segments_;
  std::string path_;
};

}  // namespace

std::unique_ptr<Method> make_raw_variant_method(const std::string& name) {
  for (const bool swap : {false, true}) {
    const std::string prefix = swap ? "floor-" : "raw-";
    if (name.rfind(prefix, 0) != 0) continue;
    for (const RawVariant& v : raw_variants()) {
      if (name == prefix + v.name) return std::make_unique<RawMethod>(v, swap);
    }
  }
  return nullptr;
}

}  // namespace nwpio::bench
