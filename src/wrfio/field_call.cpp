#include "wrfio/field_call.hpp"

#include <vector>

#include "nwpio/wrf_conventions.hpp"
#include "nwpio/wrf_date.hpp"
#include "util/text.hpp"
#include "wrfio/wrf_status.hpp"

namespace nwpio::wrfio {

namespace {

[[noreturn]] void fail(int status, ErrorKind kind, const std::string& var, const std::string& what) {
  throw WrfError(status, kind, "variable '" + var + "': " + what);
}

std::string bounds_text(const std::array<int, 3>& s, const std::array<int, 3>& e, int ndim) {
  std::string t = "(";
  for (int p = 0; p < ndim; ++p) {
    if (p) t += ", ";
    t += std::to_string(s[p]) + ":" + std::to_string(e[p]);
  }
  return t + ")";
}

MemoryOrder parse_order(const std::string& var, std::string_view text) {
  const std::string o = detail::lower(text);
  if (o == "xzy") return MemoryOrder::XZY;
  if (o == "xyz") return MemoryOrder::XYZ;
  if (o == "xy") return MemoryOrder::XY;
  if (o == "z" || o == "c") return MemoryOrder::Z;
  if (o == "0") return MemoryOrder::Scalar;
  fail(wrf_status::kBadMemoryOrder, ErrorKind::Unsupported, var,
       "memory order '" + std::string(text) + "' is not supported (nwpio writes XZY, XYZ, XY, Z, C and 0)");
}

Stagger parse_stagger(const std::string& var, std::string_view text) {
  const std::string s = detail::lower(text);
  if (s.empty()) return Stagger::None;
  if (s == "x") return Stagger::X;
  if (s == "y") return Stagger::Y;
  if (s == "z") return Stagger::Z;
  if (s == "xy" || s == "yx") return Stagger::XY;
  fail(wrf_status::kNotSupported, ErrorKind::Unsupported, var,
       "stagger '" + std::string(text) + "' is not supported (nwpio writes '', X, Y, Z and XY)");
}

DataType parse_type(const std::string& var, int field_type) {
  switch (field_type) {
    case field_type::kReal: return DataType::Float;
    case field_type::kDouble: return DataType::Double;
    case field_type::kInteger:
    case field_type::kLogical: return DataType::Int;
    default:
      fail(wrf_status::kBadDataType, ErrorKind::Unsupported, var,
           "FieldType " + std::to_string(field_type) +
               " is not supported (104 real, 105 double, 106 integer, 107 logical)");
  }
}

int dimensions_of(MemoryOrder order) {
  switch (order) {
    case MemoryOrder::XZY:
    case MemoryOrder::XYZ: return 3;
    case MemoryOrder::XY: return 2;
    case MemoryOrder::Z: return 1;
    case MemoryOrder::Scalar: return 0;
  }
  return 0;
}

}  // namespace

std::string fortran_string(const char* text, int length, bool adjust_left) {
  if (text == nullptr || length <= 0) return {};
  std::string s(text, static_cast<std::size_t>(length));
  const auto end = s.find_last_not_of(std::string(" \0", 2));
  s.erase(end == std::string::npos ? 0 : end + 1);
  if (adjust_left) s.erase(0, s.find_first_not_of(' '));
  return s;
}

std::string grid_dimension_name(int axis, bool staggered) {
  std::string_view base = axis == kAxisI ? wrf::kWestEast : axis == kAxisJ ? wrf::kSouthNorth : wrf::kBottomTop;
  return std::string(base) + (staggered ? "_stag" : "");
}

int FieldCall::position(int axis) const noexcept {
  switch (order) {
    case MemoryOrder::XZY: return axis == kAxisI ? 0 : axis == kAxisK ? 1 : 2;
    case MemoryOrder::XYZ: return axis;
    case MemoryOrder::XY: return axis == kAxisK ? -1 : axis;
    case MemoryOrder::Z: return axis == kAxisK ? 0 : -1;
    case MemoryOrder::Scalar: return -1;
  }
  return -1;
}

bool FieldCall::staggered(int axis) const noexcept { return staggered_along(stagger, axis); }

Box FieldCall::patch_box() const noexcept {
  Box b{{0, 0, 0}, {1, 1, 1}};
  for (int axis = 0; axis < 3; ++axis) {
    const int p = position(axis);
    if (p < 0) continue;
    b.lo[axis] = patch_start[p] - 1;
    b.hi[axis] = patch_end[p];
  }
  return b;
}

Box FieldCall::memory_box() const noexcept {
  if (quilt_patch) return patch_box();
  Box b{{0, 0, 0}, {1, 1, 1}};
  for (int axis = 0; axis < 3; ++axis) {
    const int p = position(axis);
    if (p < 0) continue;
    b.lo[axis] = memory_start[p] - 1;
    b.hi[axis] = memory_end[p];
  }
  return b;
}

std::vector<std::int64_t> FieldCall::memory_extents() const {
  std::vector<std::int64_t> extents;
  for (int p = 0; p < ndim; ++p) {
    extents.push_back(quilt_patch ? std::int64_t{patch_end[p]} - patch_start[p] + 1
                                  : std::int64_t{memory_end[p]} - memory_start[p] + 1);
  }
  return extents;
}

std::int64_t FieldCall::memory_elements() const noexcept {
  std::int64_t n = 1;
  for (std::int64_t e : memory_extents()) n *= e > 0 ? e : 0;
  return n;
}

FieldCall parse_field_call(const RawFieldArgs& args) {
  FieldCall c;
  c.name = std::string(args.var);
  if (c.name.empty()) throw WrfError(wrf_status::kVarNotFound, ErrorKind::InvalidArgument, "blank variable name");
  c.date = std::string(args.date);
  if (!wrf::is_valid_date(c.date)) {
    try {
      (void)wrf::date_to_seconds(c.date);
    } catch (const Error& e) {
      fail(wrf_status::kDateStringError, ErrorKind::InvalidArgument, c.name, e.what());
    }
    fail(wrf_status::kDateStringError, ErrorKind::InvalidArgument, c.name,
         "DateStr '" + c.date + "' is not a WRF date YYYY-MM-DD_HH:MM:SS");
  }
  c.wrf_field_type = args.field_type;
  c.type = parse_type(c.name, args.field_type);
  c.order = parse_order(c.name, args.memory_order);
  c.c_order = detail::lower(args.memory_order) == "c";
  c.stagger = parse_stagger(c.name, args.stagger);
  c.domain_desc = args.domain_desc;
  c.ndim = dimensions_of(c.order);
  for (int p = 0; p < c.ndim; ++p) {
    c.dim_names[p] = args.dim_names[p];
    c.domain_start[p] = args.domain_start[p];
    c.domain_end[p] = args.domain_end[p];
    c.memory_start[p] = args.memory_start[p];
    c.memory_end[p] = args.memory_end[p];
    c.patch_start[p] = args.patch_start[p];
    c.patch_end[p] = args.patch_end[p];
  }
  // (WRF passes the marker for scalars too: MemoryStart is always an array of 3.)
  c.quilt_patch = args.memory_start[0] == kQuiltPatchMarker && args.memory_end[0] == kQuiltPatchMarker;

  if (c.stagger == Stagger::Z && c.position(kAxisK) < 0) c.stagger = Stagger::None;  // WRF's SWVISDIR, ...
  if (c.stagger != Stagger::None && c.stagger != Stagger::Z && !c.decomposed()) {
    fail(wrf_status::kNotSupported, ErrorKind::Unsupported, c.name, "stagger X/Y on a field that is not decomposed");
  }
  // Decomposed axes carry the names their staggering implies (nwpio derives them); a k axis
  // with another name is a named dimension of its own (soil layers, seeds, ...).
  for (int axis = 0; axis < 3 && !args.reading; ++axis) {
    const int p = c.position(axis);
    if (p < 0) continue;
    const std::string expected = grid_dimension_name(axis, c.staggered(axis));
    const std::string& given = c.dim_names[p];
    if (axis == kAxisK) {
      if (given == grid_dimension_name(kAxisK, false) || given == grid_dimension_name(kAxisK, true)) {
        if (given != expected) {
          fail(wrf_status::kNotSupported, ErrorKind::Unsupported, c.name,
               "dimension '" + given + "' does not fit stagger '" + std::string(args.stagger) + "'");
        }
      } else if (given.empty()) {
        c.unnamed_k = true;  // named by WriteStream (WRF's rule needs the file's other dimensions)
      } else {
        c.vertical_dim = given;
      }
    } else if (!given.empty() && given != expected) {
      fail(wrf_status::kNotSupported, ErrorKind::Unsupported, c.name,
           "dimension '" + given + "' along " + (axis == kAxisI ? "x" : "y") + " (nwpio names it '" + expected +
               "' for stagger '" + std::string(args.stagger) + "')");
    }
  }
  // The patch lies inside the domain, and the memory holds the patch.
  for (int p = 0; p < c.ndim; ++p) {
    if (c.domain_end[p] < c.domain_start[p] || c.patch_start[p] < c.domain_start[p] ||
        c.patch_end[p] > c.domain_end[p] || c.patch_end[p] < c.patch_start[p]) {
      fail(wrf_status::kDimensionError, ErrorKind::InvalidArgument, c.name,
           "patch " + bounds_text(c.patch_start, c.patch_end, c.ndim) + " is not inside its domain " +
               bounds_text(c.domain_start, c.domain_end, c.ndim));
    }
    // (An I/O server's training call carries no memory bounds: its data come as patches later.)
    const bool has_memory = !c.quilt_patch && c.domain_desc != kQuiltTrainingDomainDesc;
    if (has_memory && (c.patch_start[p] < c.memory_start[p] || c.patch_end[p] > c.memory_end[p])) {
      fail(wrf_status::kDimensionError, ErrorKind::InvalidArgument, c.name,
           "memory " + bounds_text(c.memory_start, c.memory_end, c.ndim) + " does not hold the patch " +
               bounds_text(c.patch_start, c.patch_end, c.ndim));
    }
  }
  return c;
}

}  // namespace nwpio::wrfio
