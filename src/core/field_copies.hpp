// Pack on put into a copy: this rank's part of a field copied in file order when it is put (the
// caller's array may change or go away as soon as put() returns), one buffer per field, allocated
// once (the part's size never changes) and reused frame after frame.
#pragma once

#include <cstddef>
#include <vector>

#include "core/stream_layout.hpp"

namespace nwpio::detail {

class FieldCopies {
 public:
  FieldCopies(const StreamLayout& layout, int rank) : layout_(layout), rank_(rank), copies_(layout.fields.size()) {}
  // Copies field `index` from `source`; returns where the copy lies (non-null even for a rank
  // without a part: the field was put).
  FieldSource copy(int index, const FieldSource& source);
  std::size_t bytes() const noexcept;

 private:
  const StreamLayout& layout_;
  int rank_ = 0;
  std::vector<std::vector<std::byte>> copies_;  // by schema index
};

}  // namespace nwpio::detail
