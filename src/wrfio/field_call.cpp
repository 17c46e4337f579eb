#include "wrfio/field_call.hpp"

#include <vector>

#include "core/enum_text.hpp"
#include "nwpio/wrf_conventions.hpp"
#include "nwpio/wrf_date.hpp"
#include "wrfio/wrf_status.hpp"

namespace nwpio::wrfio {

namespace {

constexpr std::size_t kMaxName = 256;  // NC_MAX_NAME, as nwpio's Schema allows
constexpr std::size_t kShown = 40;     // a garbage argument is named by its beginning only

std::string shown(std::string_view text) {
  std::string s(text.substr(0, kShown));
  if (text.size() > kShown) s += "...";
  return s;
}

[[noreturn]] void fail(int status, ErrorKind kind, const std::string& var, const std::string& what) {
  throw WrfError(status, kind, "variable '" + shown(var) + "': " + what);
}

// "(p+1)": Fortran's index of memory position p. (Built by appends: GCC 12 gives a false
// -Wrestrict warning on "(" + std::to_string(...) after inlining.)
std::string argument_index(int p) {
  std::string s("(");
  s.append(std::to_string(p + 1)).append(")");
  return s;
}

std::string bounds_text(const std::array<int, 3>& s, const std::array<int, 3>& e, int ndim) {
  std::string t = "(";
  for (int p = 0; p < ndim; ++p) {
    if (p) t += ", ";
    t += std::to_string(s[p]) + ":" + std::to_string(e[p]);
  }
  return t + ")";
}

// Elements between the bounds (every extent at least 1), or -1 when more than kMaxFieldElements.
std::int64_t elements(const std::array<int, 3>& s, const std::array<int, 3>& e, int ndim) {
  std::int64_t n = 1;
  for (int p = 0; p < ndim; ++p) {
    const std::int64_t extent = std::int64_t{e[p]} - s[p] + 1;
    if (n > kMaxFieldElements / extent) return -1;
    n *= extent;
  }
  return n;
}

MemoryOrder parse_order(const std::string& var, const std::string& text) {
  try {
    return detail::parse_memory_order(text, "MemoryOrder");
  } catch (const Error& e) {
    fail(wrf_status::kBadMemoryOrder, ErrorKind::Unsupported, var, e.what());
  }
}

Stagger parse_stagger(const std::string& var, const std::string& text) {
  try {
    return detail::parse_stagger(text, "Stagger");
  } catch (const Error& e) {
    fail(wrf_status::kNotSupported, ErrorKind::Unsupported, var, e.what());
  }
}

// WRF's own DateCheck looks at the length only; nwpio also at the date itself.
void check_date(const std::string& var, const std::string& date) {
  if (date.size() != static_cast<std::size_t>(wrf::kDateStrLenValue)) {
    fail(wrf_status::kDateStrBadLength, ErrorKind::InvalidArgument, var,
         "DateStr '" + shown(date) + "' has " + std::to_string(date.size()) +
             " characters, not 19 (YYYY-MM-DD_HH:MM:SS)");
  }
  if (wrf::is_valid_date(date)) return;
  try {
    (void)wrf::date_to_seconds(date);
  } catch (const Error& e) {
    fail(wrf_status::kDateStringError, ErrorKind::InvalidArgument, var, std::string("DateStr: ") + e.what());
  }
  fail(wrf_status::kDateStringError, ErrorKind::InvalidArgument, var,
       "DateStr '" + date + "' is not a WRF date YYYY-MM-DD_HH:MM:SS");
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

// MemoryOrder 'C' is read as Z (enum_text); WRF's attribute keeps the letter it was given.
bool is_c_order(std::string_view text) {
  const std::size_t b = text.find_first_not_of(' ');
  return b != std::string_view::npos && (text[b] == 'C' || text[b] == 'c') &&
         text.find_first_not_of(' ', b + 1) == std::string_view::npos;
}

bool is_letter(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

// The dimensions the file's grid owns: a named vertical dimension may not be one of them.
bool is_grid_dimension(std::string_view name) {
  for (std::string_view d : {wrf::kTime, wrf::kDateStrLen, wrf::kWestEast, wrf::kWestEastStag, wrf::kSouthNorth,
                             wrf::kSouthNorthStag}) {
    if (name == d) return true;
  }
  return false;
}

}  // namespace

void check_wrf_name(std::string_view what, std::string_view name) {
  const std::string quoted = std::string(what) + " '" + shown(name) + "'";
  if (name.size() > kMaxName) {
    throw WrfError(wrf_status::kCharStringTooLong, ErrorKind::InvalidArgument,
                   quoted + " is " + std::to_string(name.size()) + " characters long; netCDF allows " +
                       std::to_string(kMaxName) + " (NC_MAX_NAME)");
  }
  if (name.empty() || is_digit(name[0])) {
    throw WrfError(wrf_status::kNotSupported, ErrorKind::InvalidArgument,
                   quoted + (name.empty() ? " is empty" : " starts with a digit"));
  }
  for (char c : name) {
    if (!is_letter(c) && !is_digit(c) && c != '_') {
      const bool printable = c > ' ' && c < 127;
      throw WrfError(wrf_status::kNotSupported, ErrorKind::InvalidArgument,
                     quoted + " contains " + (printable ? "'" + std::string(1, c) + "'" : std::string("a control character")) +
                         "; names are letters, digits and '_'");
    }
  }
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
    b.lo[axis] = std::int64_t{patch_start[p]} - 1;  // (in 64 bits: WRF's bounds may be any int)
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
    b.lo[axis] = std::int64_t{memory_start[p]} - 1;
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
  c.name = args.var;
  if (c.name.empty()) throw WrfError(wrf_status::kVarNotFound, ErrorKind::InvalidArgument, "Var is blank");
  check_wrf_name("Var", c.name);
  c.date = args.date;
  check_date(c.name, c.date);
  c.wrf_field_type = args.field_type;
  c.type = parse_type(c.name, args.field_type);
  c.order = parse_order(c.name, args.memory_order);
  c.c_order = is_c_order(args.memory_order);
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
    fail(wrf_status::kNotSupported, ErrorKind::Unsupported, c.name,
         "Stagger '" + args.stagger + "' (along x or y) on a field that is not decomposed (MemoryOrder '" +
             args.memory_order + "')");
  }
  // Decomposed axes carry the names their staggering implies (nwpio derives them); a k axis
  // with another name is a named dimension of its own (soil layers, seeds, ...).
  for (int axis = 0; axis < 3 && !args.reading; ++axis) {
    const int p = c.position(axis);
    if (p < 0) continue;
    const std::string expected = grid_dimension_name(axis, c.staggered(axis));
    const std::string& given = c.dim_names[p];
    const std::string arg = "DimNames" + argument_index(p);
    if (axis == kAxisK) {
      if (given == grid_dimension_name(kAxisK, false) || given == grid_dimension_name(kAxisK, true)) {
        if (given != expected) {
          fail(wrf_status::kNotSupported, ErrorKind::Unsupported, c.name,
               arg + " '" + given + "' does not fit Stagger '" + args.stagger + "'");
        }
      } else if (given.empty()) {
        c.unnamed_k = true;  // named by WriteStream (WRF's rule needs the file's other dimensions)
      } else {
        try {
          check_wrf_name(arg, given);
        } catch (const WrfError& e) {
          fail(e.wrf_status(), e.kind(), c.name, e.what());
        }
        if (is_grid_dimension(given)) {
          fail(wrf_status::kNotSupported, ErrorKind::Unsupported, c.name,
               arg + " '" + given + "' names a dimension of the grid, not one along the vertical axis");
        }
        c.vertical_dim = given;
      }
    } else if (!given.empty() && given != expected) {
      fail(wrf_status::kNotSupported, ErrorKind::Unsupported, c.name,
           arg + " '" + shown(given) + "' along " + (axis == kAxisI ? "x" : "y") + " (nwpio names it '" + expected +
               "' for Stagger '" + args.stagger + "')");
    }
  }
  // Domains start at 1 (WRF's bounds are 1-based), the patch lies inside the domain, and the
  // memory holds the patch.
  // (An I/O server's training call carries no memory bounds: its data come as patches later.)
  const bool has_memory = !c.quilt_patch && c.domain_desc != kQuiltTrainingDomainDesc;
  for (int p = 0; p < c.ndim; ++p) {
    const std::string at = argument_index(p);
    if (c.domain_start[p] < 1) {
      fail(wrf_status::kDimensionError, ErrorKind::InvalidArgument, c.name,
           "DomainStart" + at + " = " + std::to_string(c.domain_start[p]) + " is below 1 (WRF's bounds are 1-based)");
    }
    if (c.domain_end[p] < c.domain_start[p]) {
      fail(wrf_status::kDimensionError, ErrorKind::InvalidArgument, c.name,
           "DomainEnd" + at + " = " + std::to_string(c.domain_end[p]) + " is before DomainStart" + at + " = " +
               std::to_string(c.domain_start[p]));
    }
    if (c.patch_start[p] < c.domain_start[p] || c.patch_end[p] > c.domain_end[p] || c.patch_end[p] < c.patch_start[p]) {
      fail(wrf_status::kDimensionError, ErrorKind::InvalidArgument, c.name,
           "PatchStart:PatchEnd " + bounds_text(c.patch_start, c.patch_end, c.ndim) +
               " is not a patch inside DomainStart:DomainEnd " + bounds_text(c.domain_start, c.domain_end, c.ndim));
    }
    if (has_memory && (c.patch_start[p] < c.memory_start[p] || c.patch_end[p] > c.memory_end[p])) {
      fail(wrf_status::kDimensionError, ErrorKind::InvalidArgument, c.name,
           "MemoryStart:MemoryEnd " + bounds_text(c.memory_start, c.memory_end, c.ndim) +
               " does not hold PatchStart:PatchEnd " + bounds_text(c.patch_start, c.patch_end, c.ndim));
    }
  }
  if (!has_memory) {  // the memory is the patch (the bounds WRF passes mean nothing here)
    c.memory_start = c.patch_start;
    c.memory_end = c.patch_end;
  }
  if (elements(c.memory_start, c.memory_end, c.ndim) < 0) {
    fail(wrf_status::kDimensionError, ErrorKind::InvalidArgument, c.name,
         "MemoryStart:MemoryEnd " + bounds_text(c.memory_start, c.memory_end, c.ndim) + " holds more than 2^56 elements");
  }
  return c;
}

}  // namespace nwpio::wrfio
