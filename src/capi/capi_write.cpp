// C API (L4): nwpio_write, the one place where an array from C or Fortran meets a declared
// variable. It checks kind, rank and extents against the declaration and the memory bounds of
// set_domain, then hands the pointer to Writer::put (no copy; the data is read at end_frame).
#include <array>
#include <cstring>
#include <string>
#include <vector>

#include "capi/capi_error.hpp"
#include "capi/capi_stream.hpp"
#include "nwpio/nwpio.h"

namespace nwpio::capi {
namespace {

const char* kind_name(int kind) {
  switch (kind) {
    case NWPIO_REAL4: return "NWPIO_REAL4 (real(4))";
    case NWPIO_REAL8: return "NWPIO_REAL8 (real(8))";
    case NWPIO_INT4: return "NWPIO_INT4 (integer(4))";
    default: return "an unknown kind";
  }
}

int kind_of(DataType type) {
  switch (type) {
    case DataType::Float: return NWPIO_REAL4;
    case DataType::Double: return NWPIO_REAL8;
    case DataType::Int: return NWPIO_INT4;
    case DataType::Char: break;
  }
  return 0;
}

struct Extent {
  std::int64_t lo, hi;  // 1-based inclusive, as the model declares it
  const char* name;     // "ims:ime", ...
};

// The memory bounds the declaration asks for, in the array's own dimension order.
std::vector<Extent> declared_bounds(const nwpio_stream& s, const VarSpec& spec) {
  const Box& m = s.decomposition->memory();
  const Extent i{m.lo[kAxisI] + 1, m.hi[kAxisI], "ims:ime"};
  const Extent j{m.lo[kAxisJ] + 1, m.hi[kAxisJ], "jms:jme"};
  Extent k{m.lo[kAxisK] + 1, m.hi[kAxisK], "kms:kme"};
  if (!spec.vertical_dim.empty()) {
    const DimSpec* d = s.schema.find_dimension(spec.vertical_dim);
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

void check_array(const nwpio_stream& s, const std::string& name, const void* data, int kind, int ndims,
                 const int* lbound, const int* ubound) {
  if (!s.in_frame) throw Error(ErrorKind::State, "no frame open: call nwpio_begin_frame first");
  const VarSpec* spec = s.schema.find(name);
  if (spec == nullptr) throw Error(ErrorKind::Schema, "not defined with nwpio_def_var");
  if (data == nullptr) throw Error(ErrorKind::InvalidArgument, "data pointer is NULL");
  const int declared_kind = kind_of(spec->type);
  if (kind != declared_kind) {
    throw Error(ErrorKind::InvalidArgument, std::string("kind mismatch: declared ") +
                                                kind_name(declared_kind) + " but the array is " + kind_name(kind));
  }
  const std::vector<Extent> want = declared_bounds(s, *spec);
  const std::string order(to_string(spec->memory_order));
  if (ndims != static_cast<int>(want.size())) {
    throw Error(ErrorKind::InvalidArgument, "declared with memory order '" + order +
                                                "' (" + std::to_string(want.size()) + " dimensions) but a " +
                                                std::to_string(ndims) + "-dimensional array was passed");
  }
  if (ndims > 0 && (lbound == nullptr || ubound == nullptr)) {
    throw Error(ErrorKind::InvalidArgument, "array bounds (lbound/ubound) are NULL");
  }
  std::vector<Extent> got;
  bool same = true;
  for (int d = 0; d < ndims; ++d) {
    got.push_back(Extent{lbound[d], ubound[d], ""});
    same = same && (std::int64_t{ubound[d]} - lbound[d] == want[d].hi - want[d].lo);
  }
  if (!same) {
    throw Error(ErrorKind::InvalidArgument, "array bounds " + bounds_text(got, false) +
                                                " disagree with the declared memory bounds " +
                                                bounds_text(want, true) + " (memory order '" +
                                                order + "'): the extents differ");
  }
}

}  // namespace
}  // namespace nwpio::capi

extern "C" int nwpio_write(nwpio_stream* stream, const char* name, const void* data, int kind, int ndims,
                           const int* lbound, const int* ubound) {
  using namespace nwpio;
  return capi::guard("nwpio_write", [&] {
    nwpio_stream& s = capi::stream_ref(stream);
    try {
      const std::string n = capi::checked_name(name, "variable");
      try {
        capi::check_array(s, n, data, kind, ndims, lbound, ubound);
        const DataType type = s.schema.find(n)->type;
        if (ndims == 0) {
          // Scalars are copied: the caller's value may be a temporary (see nwpio.h).
          std::array<std::byte, 8>& slot = s.scalars.emplace_back();
          std::memcpy(slot.data(), data, size_of(type));
          data = slot.data();
        }
        s.writer->put(n, data, type);
      } catch (const Error& e) {
        throw Error(e.kind(), "variable " + n + ": " + e.what());
      }
    } catch (const Error& e) {
      // Keep the first failure for end_frame, which then fails on every rank with this text.
      if (!s.pending && s.in_frame) s.pending = Error(e.kind(), std::string("nwpio_write: ") + e.what());
      throw;
    }
  });
}
