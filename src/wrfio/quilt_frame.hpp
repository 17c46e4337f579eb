// The frame an I/O server (WRF built with PNETCDF_QUILT) receives: per variable one or more
// pieces, each exactly a patch (MemoryStart(1) = -998899), copied in as they arrive and
// assembled at iosync into one array per variable shaped like the server's memory box, which
// is what Writer::put takes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "nwpio/box.hpp"
#include "wrfio/field_call.hpp"

namespace nwpio::wrfio {

class QuiltFrame {
 public:
  explicit QuiltFrame(std::size_t variables) : pieces_(variables), buffers_(variables) {}

  // Local. Copies the piece (logicals as 0/1).
  void add(int index, const FieldCall& call, const void* field);
  bool empty() const noexcept;
  bool received(int index) const noexcept { return !pieces_[static_cast<std::size_t>(index)].empty(); }

  // Per received variable one call whose patch is the bounding box of its pieces (for
  // stream_grid()).
  std::vector<FieldCall> bounding_calls() const;

  // Local. Assembles variable `index` into its buffer: `memory` is the buffer's box over
  // (i, j, k) -- k over [0, named length) for a named vertical dimension -- and `write_box`
  // the part the server must hold. Throws WrfError(kDimensionError) naming the variable when
  // the pieces are not inside `write_box` or do not cover it exactly (decomposed fields), or
  // do not each hold the whole field (Z and scalar fields, which every compute task sends).
  const void* assemble(int index, const Box& memory, const Box& write_box);

  void clear() noexcept;  // pieces dropped; buffers kept for the next frame

 private:
  struct Piece {
    FieldCall call;
    std::vector<std::byte> data;
  };
  std::vector<std::vector<Piece>> pieces_;
  std::vector<std::vector<std::byte>> buffers_;
};

}  // namespace nwpio::wrfio
