#include "core/field_copies.hpp"

#include "core/pack.hpp"

namespace nwpio::detail {

FieldSource FieldCopies::copy(int index, const FieldSource& src) {
  const FieldGeometry& g = layout_.fields[static_cast<std::size_t>(index)];
  const Box& part = g.file_boxes[static_cast<std::size_t>(rank_)];
  std::vector<std::byte>& copy = copies_[static_cast<std::size_t>(index)];
  copy.resize(static_cast<std::size_t>(part.volume() * static_cast<std::int64_t>(g.elem)));
  if (!part.empty()) pack_rows(g, src, part, 0, g.rows(), copy.data());
  static constexpr std::byte kNothing{};
  return {copy.empty() ? &kNothing : copy.data(), compact_map(part)};
}

std::size_t FieldCopies::bytes() const noexcept {
  std::size_t n = 0;
  for (const auto& c : copies_) n += c.capacity();
  return n;
}

}  // namespace nwpio::detail
