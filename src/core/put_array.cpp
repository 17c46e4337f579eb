// Writer::put with what the front end knows about the array: every check that the C and
// Fortran APIs, WRF's I/O API and C++ users alike need (declared name and type, the array's
// rank and extents against the variable's memory bounds, an explicit memory box that holds
// this rank's part, not put twice). Where the data goes then is the sink's (FrameSink::accept).
#include <string>
#include <vector>

#include "core/stream.hpp"

namespace nwpio::detail {

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

int Stream::checked_index(const std::string& name, const ArrayView& array) const {
  const std::string what = "put(" + name + "): ";
  if (!frame_.open) throw Error(ErrorKind::State, what + "no frame is open; call begin_frame() first");
  const auto it = index_of_.find(name);
  if (it == index_of_.end()) throw Error(ErrorKind::Schema, what + "not defined in the stream");
  const VarSpec& spec = schema_.variables()[static_cast<std::size_t>(it->second)];
  if (spec.type != array.type) {
    throw Error(ErrorKind::InvalidArgument, what + "kind mismatch: the variable is " + std::string(to_string(spec.type)) +
                                                ", the array holds " + std::string(to_string(array.type)));
  }
  if (array.data == nullptr) throw Error(ErrorKind::InvalidArgument, what + "data is a null pointer");
  if (array.extents) {
    try {
      check_extents(declared_bounds(schema_, decomposition_.memory(), spec), *array.extents, spec);
    } catch (const Error& e) {
      throw Error(e.kind(), what + e.what());
    }
  }
  if (array.memory) {
    // The array's own box must hold this rank's part of the field (WRF's I/O servers pass the patch).
    const FieldGeometry& g = layout_.fields[static_cast<std::size_t>(it->second)];
    const Box& part = g.file_boxes[static_cast<std::size_t>(rank())];
    const Box& dom = decomposition_.domain();
    for (int a = 0; a < 3 && g.decomposed && !part.empty(); ++a) {
      if (a == kAxisK && !g.grid_k) continue;
      if (a == kAxisK && !is_3d(g.order)) continue;
      const std::int64_t lo = part.lo[a] + dom.lo[a], hi = part.hi[a] + dom.lo[a];
      if (array.memory->lo[a] > lo || array.memory->hi[a] < hi) {
        throw Error(ErrorKind::InvalidArgument, what + "the array's bounds do not hold this rank's part of the field");
      }
    }
  }
  if (frame_.data[static_cast<std::size_t>(it->second)].data != nullptr) {
    throw Error(ErrorKind::State, what + "already put in frame " + frame_.date);
  }
  return it->second;
}

}  // namespace nwpio::detail
