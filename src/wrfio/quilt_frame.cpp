#include "wrfio/quilt_frame.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <string>

#include "wrfio/wrf_status.hpp"

namespace nwpio::wrfio {

namespace {

// The box's extents and origin in the field's memory order (position 0 fastest).
struct OrderedBox {
  std::array<std::int64_t, 3> lo{0, 0, 0};
  std::array<std::int64_t, 3> n{1, 1, 1};
};

OrderedBox in_memory_order(const FieldCall& f, const Box& box) {
  OrderedBox o;
  for (int axis = 0; axis < 3; ++axis) {
    const int p = f.position(axis);
    if (p < 0) continue;
    o.lo[static_cast<std::size_t>(p)] = box.lo[axis];
    o.n[static_cast<std::size_t>(p)] = box.extent(axis);
  }
  return o;
}

[[noreturn]] void fail(const FieldCall& f, const std::string& what) {
  throw WrfError(wrf_status::kDimensionError, ErrorKind::InvalidArgument,
                 "I/O server: variable '" + f.name + "': " + what);
}

}  // namespace

void QuiltFrame::add(int index, const FieldCall& call, const void* field) {
  Piece piece{call, {}};
  const auto n = static_cast<std::size_t>(call.memory_elements());
  const std::size_t bytes = n * size_of(call.type);
  piece.data.resize(bytes);
  if (bytes > 0) std::memcpy(piece.data.data(), field, bytes);
  if (call.wrf_field_type == field_type::kLogical) {
    auto* v = reinterpret_cast<std::int32_t*>(piece.data.data());
    for (std::size_t e = 0; e < n; ++e) v[e] = v[e] != 0 ? 1 : 0;
  }
  pieces_[static_cast<std::size_t>(index)].push_back(std::move(piece));
}

bool QuiltFrame::empty() const noexcept {
  for (const auto& p : pieces_) {
    if (!p.empty()) return false;
  }
  return true;
}

std::vector<FieldCall> QuiltFrame::bounding_calls() const {
  std::vector<FieldCall> calls;
  for (const auto& pieces : pieces_) {
    if (pieces.empty()) continue;
    FieldCall c = pieces.front().call;
    for (const Piece& piece : pieces) {
      for (int p = 0; p < c.ndim; ++p) {
        c.patch_start[p] = std::min(c.patch_start[p], piece.call.patch_start[p]);
        c.patch_end[p] = std::max(c.patch_end[p], piece.call.patch_end[p]);
      }
    }
    calls.push_back(std::move(c));
  }
  return calls;
}

const void* QuiltFrame::assemble(int index, const Box& memory, const Box& write_box) {
  const auto& pieces = pieces_[static_cast<std::size_t>(index)];
  if (pieces.empty()) throw WrfError(wrf_status::kVarNotFound, ErrorKind::State, "I/O server: no data received for a variable");
  const FieldCall& first = pieces.front().call;
  const std::size_t elem = size_of(first.type);
  const OrderedBox dst = in_memory_order(first, memory);
  auto& buffer = buffers_[static_cast<std::size_t>(index)];
  buffer.resize(static_cast<std::size_t>(dst.n[0] * dst.n[1] * dst.n[2]) * elem);

  std::int64_t covered = 0;
  for (std::size_t a = 0; a < pieces.size(); ++a) {
    const Box box = pieces[a].call.patch_box();
    if (!write_box.contains(box)) fail(first, "piece " + box.str() + " is outside the server's part " + write_box.str());
    if (first.decomposed()) {
      for (std::size_t b = 0; b < a; ++b) {
        if (!box.intersect(pieces[b].call.patch_box()).empty()) fail(first, "pieces " + box.str() + " overlap");
      }
      covered += box.volume();
    } else if (!(box == write_box)) {
      fail(first, "piece " + box.str() + " is not the whole field " + write_box.str());
    }
    // Copy the piece's rows (position 0 contiguous) to their place in the buffer.
    const OrderedBox src = in_memory_order(first, box);
    const std::size_t row = static_cast<std::size_t>(src.n[0]) * elem;
    const std::byte* in = pieces[a].data.data();
    for (std::int64_t c = 0; c < src.n[2]; ++c) {
      for (std::int64_t b = 0; b < src.n[1]; ++b) {
        const std::int64_t at = (src.lo[0] - dst.lo[0]) + dst.n[0] * ((src.lo[1] + b - dst.lo[1]) +
                                                                         dst.n[1] * (src.lo[2] + c - dst.lo[2]));
        std::memcpy(buffer.data() + static_cast<std::size_t>(at) * elem, in, row);
        in += row;
      }
    }
  }
  if (first.decomposed() && covered != write_box.volume()) {
    fail(first, "pieces cover " + std::to_string(covered) + " of the " + std::to_string(write_box.volume()) +
                    " points of the server's part " + write_box.str());
  }
  return buffer.data();
}

void QuiltFrame::clear() noexcept {
  for (auto& p : pieces_) p.clear();
}

}  // namespace nwpio::wrfio
