// The arithmetic of handing a frame from the compute ranks to the I/O servers of a group, with no
// communication (so that plans of thousands of made-up ranks are unit-tested without MPI).
//
// The servers of a group decompose the domain among themselves in bands of whole rows (a
// 1 x n split as WRF makes it, no halo): server s holds rows [js, je) of every field, over the
// whole i and k extents. Compute rank r hands server s, for every field of the frame, the part
// of its file box that lies inside s's band: a box, packed in file order (k, j, i) by the same
// pack pass the synchronous path uses. Every side computes every other side's boxes from the
// grid (all patches are known to all), so a frame moves only data: per (compute rank, server)
// one byte stream, the pieces back to back in field order, cut into messages of at most a
// fixed size. On the servers the pieces land in the band's arrays, which an ordinary Writer
// over the servers' communicator then writes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "core/stream_layout.hpp"
#include "nwpio/decomposition.hpp"

namespace nwpio::detail {

// Server `index` of `nservers`: WRF's bounds of its band (1 x nservers split of the domain's
// staggered counts, no halo). Throws Error(Config) when there are more servers than rows.
WrfBounds server_band_bounds(const Box& domain, int nservers, int index);
// The same as 0-based half-open boxes: the band (patch) and its memory (the band itself).
Box server_band(const Box& domain, int nservers, int index);

// The grid of the servers' own decomposition (memory: server `index`'s band).
Grid server_grid(const Box& domain, int nservers, int index);

// The same variable in the compute ranks' layout and in the servers' layout.
struct FieldPair {
  const FieldGeometry* compute = nullptr;
  const FieldGeometry* server = nullptr;
};

// The schema indices of the fields a frame carries: the record variables, and with
// `opens_file` (the first frame of a file) the static ones too, in schema order.
std::vector<std::size_t> frame_fields(const StreamLayout& layout, bool opens_file);

struct HandoffPiece {
  std::size_t field = 0;  // index into the FieldPair list
  Box box;                // file indices (k, j, i ranges) of the piece
  std::int64_t bytes = 0;
};

// Pure. The pieces compute rank r hands to server s: one per field with data for both, in
// field order.
std::vector<HandoffPiece> handoff_pieces(std::span<const FieldPair> fields, int r, int s);
std::int64_t handoff_bytes(std::span<const FieldPair> fields, int r, int s);

// One (compute rank, server) byte stream of `bytes` travels as messages of at most `limit`
// bytes (>= 1): message m covers [m * limit, min(bytes, (m + 1) * limit)). No message for 0 bytes.
struct MessageSplit {
  std::int64_t bytes = 0;
  std::int64_t limit = 1;
  int count() const noexcept { return static_cast<int>((bytes + limit - 1) / limit); }
  std::int64_t begin(int m) const noexcept { return static_cast<std::int64_t>(m) * limit; }
  std::int64_t size(int m) const noexcept { return std::min(bytes, begin(m) + limit) - begin(m); }
};

// Elements of a field's array over a memory box (the variable's own memory order; k over the
// box for the model's vertical grid, over the named dimension otherwise).
std::int64_t memory_elements(const FieldGeometry& g, const Box& memory) noexcept;

}  // namespace nwpio::detail
