// "ceiling-io13": the least a compressed (deflate 2 + shuffle) write of the frame can cost on
// these ranks, as `ceiling` is for the uncompressed bytes. Inside the timing, every rank takes
// its patch of every field with i and j, plane by plane (one level of its patch: a chunk with one
// owner, as nwpio's and, at even splits, WRF's io_form 13 chunks are), shuffles the plane's bytes
// and deflates it at level 2 with zlib's compress2 (what HDF5's shuffle and deflate filters do to
// a chunk), and writes all its compressed planes with one MPI_File_write_at_all at its offset
// (MPI_Exscan of the sizes); fields without i and j go uncompressed from rank 0, as in io_form
// 13. No netCDF-4/HDF5 structure at all: no chunk index, no metadata, no per-variable collective.
// A real io_form 13 writer does all of this and more, so the ratio of a peer's seconds to this
// method's is the most any deflate-2 writer can gain over that peer on this machine.
//
// Untimed, in finish() of every repetition: every rank reads its bytes back from the file,
// inflates every plane and compares it with the field it came from, shuffled; a mismatch is
// an error of the run (as verify_written for the netCDF methods), --verify reports the check.
#include <mpi.h>
#include <zlib.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <optional>

#include "method.hpp"
#include "nwpio/error.hpp"
#include "nwpio/wrf_conventions.hpp"
#include "util/mpi_call.hpp"

namespace nwpio::bench {
namespace {

using detail::mpi_check;

constexpr int kDeflateLevel = 2;  // WRF's io_form 2 and 13 level, nwpio's default

bool has_i_and_j(MemoryOrder o) noexcept {
  return o == MemoryOrder::XZY || o == MemoryOrder::XYZ || o == MemoryOrder::XY;
}

// One plane (or one whole field without i and j) this rank writes.
struct Piece {
  const synthetic::Field* field = nullptr;
  std::int64_t k = 0;             // the level (fields with i and j)
  std::int64_t raw_bytes = 0;     // uncompressed
  bool compressed = true;         // false: the bytes as they are (no filter)
  std::int64_t out_offset = 0;    // in this rank's output, after run()
  std::int64_t out_bytes = 0;
};

// The field's cells of its fill box at levels [k_lo, k_hi) in file order (i fastest, then j,
// then k): row by row where i is contiguous in memory (every WRF order), else element by element.
void gather(const synthetic::Field& f, std::int64_t k_lo, std::int64_t k_hi, std::byte* out) {
  const std::size_t elem = size_of(f.spec->type);
  const auto* base = static_cast<const std::byte*>(f.data());
  const std::int64_t ni = f.fill.extent(0);
  std::byte* at = out;
  for (std::int64_t k = k_lo; k < k_hi; ++k) {
    for (std::int64_t j = f.fill.lo[1]; j < f.fill.hi[1]; ++j) {
      const std::int64_t row = (f.fill.lo[0] - f.memory.lo[0]) * f.stride[0] + (j - f.memory.lo[1]) * f.stride[1] +
                               (k - f.memory.lo[2]) * f.stride[2];
      if (f.stride[0] == 1) {
        std::memcpy(at, base + static_cast<std::size_t>(row) * elem, static_cast<std::size_t>(ni) * elem);
        at += static_cast<std::size_t>(ni) * elem;
        continue;
      }
      for (std::int64_t i = 0; i < ni; ++i) {
        std::memcpy(at, base + static_cast<std::size_t>(row + i * f.stride[0]) * elem, elem);
        at += elem;
      }
    }
  }
}

// HDF5's shuffle filter: byte b of element e goes to b * n + e (4-byte elements in one pass).
void shuffle(const std::byte* in, std::int64_t bytes, std::size_t elem, std::byte* out) {
  const std::int64_t n = bytes / static_cast<std::int64_t>(elem);
  if (elem == 4) {
    for (std::int64_t e = 0; e < n; ++e) {
      std::uint32_t w;
      std::memcpy(&w, in + 4 * e, 4);
      out[e] = static_cast<std::byte>(w);
      out[n + e] = static_cast<std::byte>(w >> 8);
      out[2 * n + e] = static_cast<std::byte>(w >> 16);
      out[3 * n + e] = static_cast<std::byte>(w >> 24);
    }
    return;
  }
  for (std::size_t b = 0; b < elem; ++b) {
    std::byte* dst = out + static_cast<std::int64_t>(b) * n;
    for (std::int64_t e = 0; e < n; ++e) dst[e] = in[e * static_cast<std::int64_t>(elem) + static_cast<std::int64_t>(b)];
  }
}

class DeflateCeilingMethod final : public Method {
 public:
  std::string name() const override { return "ceiling-io13"; }
  bool writes_netcdf() const override { return false; }

  void prepare(const CaseContext& ctx, int) override {
    path_ = (std::filesystem::path(ctx.dir) / "ceiling_io13.bin").string();
    pieces_.clear();
    std::int64_t largest = 1, bound = 0;
    for (const synthetic::Field& f : ctx.model->fields()) {
      const auto elem = static_cast<std::int64_t>(size_of(f.spec->type));
      if (has_i_and_j(f.spec->memory_order)) {
        const std::int64_t plane = f.fill.extent(0) * f.fill.extent(1) * elem;
        if (plane == 0) continue;
        for (std::int64_t k = f.fill.lo[2]; k < f.fill.hi[2]; ++k) pieces_.push_back({&f, k, plane, true});
      } else if (ctx.rank == 0 && f.fill.volume() > 0) {
        pieces_.push_back({&f, 0, f.fill.volume() * elem, false});
      }
    }
    raw_bytes_ = 0;
    for (const Piece& p : pieces_) {
      largest = std::max(largest, p.raw_bytes);
      bound += p.compressed ? static_cast<std::int64_t>(compressBound(static_cast<uLong>(p.raw_bytes))) : p.raw_bytes;
      raw_bytes_ += p.raw_bytes;
    }
    plane_.assign(static_cast<std::size_t>(largest), std::byte{0});
    shuffled_.assign(static_cast<std::size_t>(largest), std::byte{0});
    out_.assign(static_cast<std::size_t>(std::max<std::int64_t>(bound, 1)), std::byte{1});  // touched before the timing
  }

  void run(const CaseContext& ctx, int) override {
    std::int64_t used = 0;
    double copy = 0, deflate = 0;
    std::optional<Error> failed;
    for (Piece& p : pieces_) {
      const synthetic::Field& f = *p.field;
      p.out_offset = used;
      std::byte* dst = out_.data() + used;
      if (!p.compressed) {
        gather(f, f.fill.lo[2], f.fill.hi[2], dst);
        p.out_bytes = p.raw_bytes;
      } else {
        const double t0 = MPI_Wtime();
        gather(f, p.k, p.k + 1, plane_.data());
        shuffle(plane_.data(), p.raw_bytes, size_of(f.spec->type), shuffled_.data());
        const double t1 = MPI_Wtime();
        auto n = static_cast<uLongf>(out_.size() - static_cast<std::size_t>(used));
        const int rc = compress2(reinterpret_cast<Bytef*>(dst), &n, reinterpret_cast<const Bytef*>(shuffled_.data()),
                                 static_cast<uLong>(p.raw_bytes), kDeflateLevel);
        if (rc != Z_OK) {  // every rank must still reach the agreement below
          if (!failed) failed = Error(ErrorKind::Internal, "compress2(" + f.spec->name + ") returned " + std::to_string(rc));
          n = 0;
        }
        p.out_bytes = static_cast<std::int64_t>(n);
        copy += t1 - t0;
        deflate += MPI_Wtime() - t1;
      }
      used += p.out_bytes;
    }
    used_ = used;
    const double t_write = MPI_Wtime();
    offset_ = 0;
    mpi_check(MPI_Exscan(&used, &offset_, 1, MPI_INT64_T, MPI_SUM, ctx.comm), "MPI_Exscan(compressed bytes)");
    if (ctx.rank == 0) offset_ = 0;  // MPI_Exscan leaves rank 0's result undefined
    // One call per rank (MPI counts are int): a compressed share over 2 GiB is refused, not cut.
    if (!failed && used > std::numeric_limits<int>::max()) {
      failed = Error(ErrorKind::InvalidArgument, "ceiling-io13: this rank's compressed share (" + std::to_string(used) +
                                                     " bytes) exceeds one MPI write; use more ranks");
    }
    detail::agree(ctx.comm, failed);  // every rank throws the same Error before the collective open
    MPI_File fh = MPI_FILE_NULL;
    mpi_check(MPI_File_open(ctx.comm, path_.c_str(), MPI_MODE_CREATE | MPI_MODE_WRONLY, ctx.info_slabs, &fh),
              "MPI_File_open(" + path_ + ")");
    MPI_Status status;
    mpi_check(MPI_File_write_at_all(fh, offset_, out_.data(), static_cast<int>(used), MPI_BYTE, &status),
              "MPI_File_write_at_all(" + path_ + ")");
    if (ctx.options->fsync) mpi_check(MPI_File_sync(fh), "MPI_File_sync(" + path_ + ")");
    mpi_check(MPI_File_close(&fh), "MPI_File_close(" + path_ + ")");
    phases_ = {{"copy+shuffle", copy}, {"deflate", deflate}, {"write", MPI_Wtime() - t_write}};
  }

  RunOutcome finish(const CaseContext& ctx) override {
    RunOutcome out;
    mpi_check(MPI_Allreduce(&raw_bytes_, &out.bytes, 1, MPI_INT64_T, MPI_SUM, ctx.comm), "MPI_Allreduce(bytes)");
    out.file = path_;
    out.phases = phases_;  // this rank's (the report's phases are rank 0's, as nwpio's FrameStats)
    out.buffer_bytes = static_cast<std::int64_t>(out_.size() + plane_.size() + shuffled_.size());
    mpi_check(MPI_Allreduce(MPI_IN_PLACE, &out.buffer_bytes, 1, MPI_INT64_T, MPI_MAX, ctx.comm), "MPI_Allreduce(buffer)");
    out.mode = "shuffle + zlib compress2 level " + std::to_string(kDeflateLevel) +
               " per patch plane, one MPI_File_write_at_all of the compressed bytes";
    // Every repetition, as verify_written does for the netCDF methods: a wrong file stops the run.
    const std::string problem = check_file();
    int bad = problem.empty() ? 0 : 1, any = 0;
    mpi_check(MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, ctx.comm), "MPI_Allreduce(check)");
    if (any != 0) {
      throw Error(ErrorKind::Internal, "ceiling-io13 wrote a wrong file " + path_ + ": " +
                                           (problem.empty() ? "another rank's planes differ" : problem));
    }
    out.self_checked = true;
    out.self_check = "every plane inflated and equal to its field";
    return out;
  }

 private:
  // Reads this rank's bytes back, inflates each piece and compares it with its field.
  std::string check_file() {
    std::ifstream in(path_, std::ios::binary);
    std::vector<std::byte> got(static_cast<std::size_t>(std::max<std::int64_t>(used_, 1)));
    in.seekg(offset_);
    in.read(reinterpret_cast<char*>(got.data()), used_);
    if (in.gcount() != used_) return path_ + ": short read at " + std::to_string(offset_);
    std::vector<std::byte> plane(plane_.size()), expect(plane_.size()), inflated(plane_.size());
    for (const Piece& p : pieces_) {
      const synthetic::Field& f = *p.field;
      const std::byte* src = got.data() + p.out_offset;
      if (!p.compressed) {
        std::vector<std::byte> whole(static_cast<std::size_t>(p.raw_bytes));
        gather(f, f.fill.lo[2], f.fill.hi[2], whole.data());
        if (std::memcmp(whole.data(), src, whole.size()) != 0) return f.spec->name + ": bytes differ";
        continue;
      }
      auto n = static_cast<uLongf>(p.raw_bytes);
      if (uncompress(reinterpret_cast<Bytef*>(inflated.data()), &n, reinterpret_cast<const Bytef*>(src),
                     static_cast<uLong>(p.out_bytes)) != Z_OK ||
          static_cast<std::int64_t>(n) != p.raw_bytes) {
        return f.spec->name + " level " + std::to_string(p.k) + ": does not inflate to its plane";
      }
      // The field's plane, shuffled as run() did (shuffling is one-to-one), against what inflated.
      gather(f, p.k, p.k + 1, plane.data());
      shuffle(plane.data(), p.raw_bytes, size_of(f.spec->type), expect.data());
      if (std::memcmp(expect.data(), inflated.data(), static_cast<std::size_t>(p.raw_bytes)) != 0) {
        return f.spec->name + " level " + std::to_string(p.k) + ": values differ from the field";
      }
    }
    return {};
  }

  std::string path_;
  std::vector<Piece> pieces_;
  std::vector<std::byte> plane_, shuffled_, out_;
  std::int64_t raw_bytes_ = 0, used_ = 0, offset_ = 0;
  std::map<std::string, double> phases_;
};

}  // namespace

std::unique_ptr<Method> make_deflate_ceiling_method() { return std::make_unique<DeflateCeilingMethod>(); }

}  // namespace nwpio::bench
