#include "core/field_copies.hpp"

#include <new>

#include "core/memory_check.hpp"
#include "core/pack.hpp"

namespace nwpio::detail {

FieldSource FieldCopies::copy(int index, const FieldSource& src) {
  const FieldGeometry& g = layout_.fields[static_cast<std::size_t>(index)];
  const Box& part = g.file_boxes[static_cast<std::size_t>(rank_)];
  std::vector<std::byte>& copy = copies_[static_cast<std::size_t>(index)];
  const std::int64_t bytes = part.volume() * static_cast<std::int64_t>(g.elem);
  try {
    copy.resize(static_cast<std::size_t>(bytes));
  } catch (const std::bad_alloc&) {
    throw_out_of_memory(bytes, "the copy of " + g.name + " taken at put (held until end_frame)");
  }
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
