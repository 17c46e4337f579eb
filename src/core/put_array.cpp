// Writer::put with what the front end knows about the array: every check that the C and
// Fortran APIs, WRF's I/O API and C++ users alike need (declared name and type, the array's
// rank and extents against the variable's memory bounds, an explicit memory box that holds
// this rank's part), and "pack on put": the rank's part copied in file order at once, so the
// caller may reuse or free the array as soon as put() returns.
#include <string>
#include <vector>

#include "core/pack.hpp"
#include "core/writer_impl.hpp"

namespace nwpio {

namespace {

struct Extent {
  std::int64_t lo, hi;  // 1-based inclusive, as a Fortran model declares it
  const char* name;     // "ims:ime", ...
};

// The memory bounds a variable's array must have, in the array's own dimension order.
std::vector<Extent> declared_bounds(const Schema& schema, const Box& m, const VarSpec& spec) {
  const Extent i{m.lo[kAxisI] + 1, m.hi[kAxisI], "ims:ime"};
  const Extent j{m.lo[kAxisJ] + 1, m.hi[kAxisJ], "jms:jme"};
  Extent k{m.lo[kAxisK] + 1, m.hi[kAxisK], "kms:kme"};
  if (!spec.vertical_dim.empty()) {
    const DimSpec* d = schema.find_dimension(spec.vertical_dim);
    k = Extent{1, d ? d->length : 0, "1:length"};
  }
  switch (spec.memory_order) {
    case MemoryOrder::XZY: return {i, k, j};
    case MemoryOrder::XYZ: return {i, j, k};
    case MemoryOrder::XY: return {i, j};
    case MemoryOrder::Z: return {k};
    case MemoryOrder::Scalar: return {};
  }
  return {};
}

std::string bounds_text(const std::vector<Extent>& b, bool names) {
  std::string t = "(";
  for (std::size_t d = 0; d < b.size(); ++d) {
    if (d) t += ", ";
    t += std::to_string(b[d].lo) + ":" + std::to_string(b[d].hi);
  }
  t += ")";
  if (names && !b.empty()) {
    t += " = (";
    for (std::size_t d = 0; d < b.size(); ++d) t += std::string(d ? ", " : "") + b[d].name;
    t += ")";
  }
  return t;
}

// The array's extents against the declared memory bounds (lower bounds are not compared: an
// assumed-shape Fortran dummy always starts at 1).
void check_extents(const std::vector<Extent>& want, const std::vector<std::int64_t>& extents, const VarSpec& spec) {
  const std::string order(to_string(spec.memory_order));
  if (extents.size() != want.size()) {
    throw Error(ErrorKind::InvalidArgument, "declared with memory order '" + order + "' (" + std::to_string(want.size()) +
                                                " dimensions) but a " + std::to_string(extents.size()) +
                                                "-dimensional array was passed");
  }
  bool same = true;
  std::vector<Extent> got;
  for (std::size_t d = 0; d < extents.size(); ++d) {
    got.push_back(Extent{1, extents[d], ""});
    same = same && extents[d] == want[d].hi - want[d].lo + 1;
  }
  if (!same) {
    throw Error(ErrorKind::InvalidArgument, "array bounds " + bounds_text(got, false) +
                                                " disagree with the declared memory bounds " + bounds_text(want, true) +
                                                " (memory order '" + order + "'): the extents differ");
  }
}

}  // namespace

int Writer::Impl::checked_index(const std::string& name, const ArrayView& array) const {
  const std::string what = "put(" + name + "): ";
  if (!frame.open) throw Error(ErrorKind::State, what + "no frame is open; call begin_frame() first");
  const auto it = index_of.find(name);
  if (it == index_of.end()) throw Error(ErrorKind::Schema, what + "not defined in the stream");
  const VarSpec& spec = schema.variables()[static_cast<std::size_t>(it->second)];
  if (spec.type != array.type) {
    throw Error(ErrorKind::InvalidArgument, what + "kind mismatch: the variable is " + std::string(to_string(spec.type)) +
                                                ", the array holds " + std::string(to_string(array.type)));
  }
  if (array.data == nullptr) throw Error(ErrorKind::InvalidArgument, what + "data is a null pointer");
  if (array.extents) {
    try {
      check_extents(declared_bounds(schema, decomposition.memory(), spec), *array.extents, spec);
    } catch (const Error& e) {
      throw Error(e.kind(), what + e.what());
    }
  }
  if (array.memory) {
    // The array's own box must hold this rank's part of the field (WRF's I/O servers pass the patch).
    const detail::FieldGeometry& g = layout.fields[static_cast<std::size_t>(it->second)];
    const Box& part = g.file_boxes[static_cast<std::size_t>(rank)];
    const Box& dom = decomposition.domain();
    for (int a = 0; a < 3 && g.decomposed && !part.empty(); ++a) {
      if (a == kAxisK && !g.grid_k) continue;
      if (a == kAxisK && !is_3d(g.order)) continue;
      const std::int64_t lo = part.lo[a] + dom.lo[a], hi = part.hi[a] + dom.lo[a];
      if (array.memory->lo[a] > lo || array.memory->hi[a] < hi) {
        throw Error(ErrorKind::InvalidArgument, what + "the array's bounds do not hold this rank's part of the field");
      }
    }
  }
  if (frame.data[static_cast<std::size_t>(it->second)].data != nullptr) {
    throw Error(ErrorKind::State, what + "already put in frame " + frame.date);
  }
  return it->second;
}

detail::FieldSource Writer::Impl::copy_on_put(int index, const detail::FieldSource& src) {
  const detail::FieldGeometry& g = layout.fields[static_cast<std::size_t>(index)];
  const Box& part = g.file_boxes[static_cast<std::size_t>(rank)];
  std::vector<std::byte>& copy = copies[static_cast<std::size_t>(index)];
  // Allocated once per field (the part's size never changes) and reused frame after frame.
  copy.resize(static_cast<std::size_t>(part.volume() * static_cast<std::int64_t>(g.elem)));
  if (!part.empty()) detail::pack_rows(g, src, part, 0, g.rows(), copy.data());
  // Ranks without a part still hand over a non-null pointer: the field was put.
  static constexpr std::byte kNothing{};
  return {copy.empty() ? &kNothing : copy.data(), detail::compact_map(part)};
}

detail::FieldSource Writer::Impl::pack_on_put(int index, const detail::FieldSource& src) {
  const int f = frame.packing ? plan_position[frame.opens_file ? 1 : 0][static_cast<std::size_t>(index)] : -1;
  if (f < 0) return copy_on_put(index, src);
  frame.packing->pack_field(static_cast<std::size_t>(f), src);
  static constexpr std::byte kPacked{};
  return {&kPacked, {}, true};  // non-null: the field was put
}

}  // namespace nwpio
