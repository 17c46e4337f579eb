// The two references (issue 7 item 2):
//   ceiling      raw MPI_File_write_at_all of the same total bytes as the frame, each rank one
//                contiguous block (rank r: bytes [r B / P, (r+1) B / P)), from a buffer that is
//                filled before the timing. In rounds of at most max_round_bytes per rank (MPI
//                counts are int), every rank joining every round.
//   netcdf-floor the ceiling plus one in-place byte-swap pass over the rank's block inside the
//                timing (netCDF is big-endian): the least any netCDF writer pays on a
//                little-endian machine. The block is swapped by element size as the frame's
//                variables lie in it (the frame's bytes concatenated in variable order).
// Timing: MPI_File_open (create) .. [MPI_File_sync with --fsync] .. MPI_File_close, with the
// same MPI_Info nwpio resolves.
#include <mpi.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <memory>

#include "method.hpp"
#include "nwpio/error.hpp"
#include "nwpio/wrf_conventions.hpp"
#include "util/mpi_call.hpp"

namespace nwpio::bench {
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

class RawMethod final : public Method {
 public:
  explicit RawMethod(bool swap) : swap_(swap) {}
  std::string name() const override { return swap_ ? "netcdf-floor" : "ceiling"; }
  bool writes_netcdf() const override { return false; }

  void prepare(const CaseContext& ctx, int) override {
    const std::int64_t total = ctx.bench_case->frame_bytes;
    lo_ = total * ctx.rank / ctx.size;
    hi_ = total * (ctx.rank + 1) / ctx.size;
    const std::int64_t n = hi_ - lo_;
    buffer_.reset(new std::byte[static_cast<std::size_t>(std::max<std::int64_t>(n, 1))]);
    // Touch every page before the timing, with data that is not all zero.
    std::memset(buffer_.get(), 0x5a + ctx.rank, static_cast<std::size_t>(std::max<std::int64_t>(n, 1)));
    const std::int64_t limit = std::min<std::int64_t>(ctx.max_round_bytes, std::int64_t{1} << 30);
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
  }

  void run(const CaseContext& ctx, int) override {
    if (swap_) {
      for (const Segment& s : segments_) {
        std::byte* p = buffer_.get() + s.begin;
        if (s.elem == 4) swap_words<std::uint32_t>(p, (s.end - s.begin) / 4);
        else if (s.elem == 8) swap_words<std::uint64_t>(p, (s.end - s.begin) / 8);
      }
    }
    MPI_File fh = MPI_FILE_NULL;
    mpi_check(MPI_File_open(ctx.comm, path_.c_str(), MPI_MODE_CREATE | MPI_MODE_WRONLY, ctx.info, &fh),
              "MPI_File_open(" + path_ + ")");
    const std::int64_t n = hi_ - lo_;
    for (std::int64_t t = 0; t < rounds_; ++t) {
      const std::int64_t a = std::min(n, t * limit_), b = std::min(n, (t + 1) * limit_);
      MPI_Status status;
      mpi_check(MPI_File_write_at_all(fh, static_cast<MPI_Offset>(lo_ + a), buffer_.get() + a, static_cast<int>(b - a),
                                      MPI_BYTE, &status),
                "MPI_File_write_at_all(" + path_ + ")");
    }
    if (ctx.options->fsync) mpi_check(MPI_File_sync(fh), "MPI_File_sync(" + path_ + ")");
    mpi_check(MPI_File_close(&fh), "MPI_File_close(" + path_ + ")");
  }

  RunOutcome finish(const CaseContext& ctx) override {
    RunOutcome out;
    const std::int64_t mine = hi_ - lo_;
    mpi_check(MPI_Allreduce(&mine, &out.bytes, 1, MPI_INT64_T, MPI_SUM, ctx.comm), "MPI_Allreduce(bytes)");
    out.file = path_;
    out.buffer_bytes = mine;
    mpi_check(MPI_Allreduce(MPI_IN_PLACE, &out.buffer_bytes, 1, MPI_INT64_T, MPI_MAX, ctx.comm), "MPI_Allreduce(buffer)");
    out.mode = std::to_string(rounds_) + " MPI_File_write_at_all round(s), contiguous block per rank" +
               (swap_ ? ", in-place byte swap first" : "");
    buffer_.reset();
    return out;
  }

 private:
  bool swap_;
  std::int64_t lo_ = 0, hi_ = 0, rounds_ = 1, limit_ = 1;
  std::unique_ptr<std::byte[]> buffer_;
  std::vector<Segment> segments_;
  std::string path_;
};

}  // namespace

std::unique_ptr<Method> make_raw_method(bool swap) { return std::make_unique<RawMethod>(swap); }

}  // namespace nwpio::bench
