#include "nwpio/schema.hpp"

#include <algorithm>
#include <array>
#include <cctype>

#include "nwpio/error.hpp"

namespace nwpio {
namespace {

constexpr std::size_t kMaxName = 256;  // NC_MAX_NAME

[[noreturn]] void fail(const std::string& text) { throw Error(ErrorKind::Schema, text); }

bool is_letter(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Variable and dimension names: the portable subset of netCDF names that every tool (NCL, CDO,
// Fortran readers) accepts: letters, digits and '_', not starting with a digit.
void check_name(std::string_view what, std::string_view name) {
  const std::string quoted = std::string(what) + " name '" + std::string(name) + "'";
  if (name.empty()) fail(std::string(what) + " name is empty");
  if (name.size() > kMaxName) {
    fail(std::string(what) + " name '" + std::string(name.substr(0, 40)) + "...' is longer than " + std::to_string(kMaxName) +
         " characters (NC_MAX_NAME)");
  }
  if (is_digit(name[0])) fail(quoted + " starts with a digit");
  for (char c : name) {
    if (!is_letter(c) && !is_digit(c) && c != '_') {
      fail(quoted + " contains '" + std::string(1, c) + "'; use letters, digits and '_'");
    }
  }
}

// Attribute names follow netCDF's own rule, which allows WRF's "WEST-EAST_GRID_DIMENSION":
// first a letter, digit or '_'; then any printable character except '/'; no trailing blank.
void check_attribute_name(std::string_view owner, std::string_view name) {
  const std::string where = owner.empty() ? std::string("global attribute") : "attribute of variable '" + std::string(owner) + "'";
  if (name.empty()) fail(where + ": name is empty");
  const std::string quoted = where + " '" + std::string(name) + "'";
  if (name.size() > kMaxName) fail(where + ": name is longer than " + std::to_string(kMaxName) + " characters (NC_MAX_NAME)");
  if (!is_letter(name[0]) && !is_digit(name[0]) && name[0] != '_') fail(quoted + ": name must start with a letter, digit or '_'");
  for (char c : name) {
    if (c == '/' || !std::isprint(static_cast<unsigned char>(c))) fail(quoted + ": name contains a '/' or a control character");
  }
  if (name.back() == ' ') fail(quoted + ": name ends with a blank");
}

// The dimensions the writer derives from the Decomposition (and Time); adding them as extra
// dimensions would define them twice in the file.
constexpr std::array<std::string_view, 7> kDerivedDims = {"Time",        "west_east",  "west_east_stag",
                                                          "south_north", "south_north_stag", "bottom_top",
                                                          "bottom_top_stag"};

bool has_k_axis(MemoryOrder o) { return is_3d(o) || o == MemoryOrder::Z; }

bool iequal(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

}  // namespace

void Schema::add_dimension(std::string name, std::int64_t length) {
  check_name("dimension", name);
  if (std::find(kDerivedDims.begin(), kDerivedDims.end(), name) != kDerivedDims.end()) {
    fail("dimension '" + name + "' is derived from the decomposition and cannot be added");
  }
  if (find_dimension(name)) fail("dimension '" + name + "' is already defined");
  if (length < 1) fail("dimension '" + name + "' has length " + std::to_string(length) + "; it must be at least 1");
  dims_.push_back({std::move(name), length});
}

void Schema::add_variable(VarSpec spec) {
  check_name("variable", spec.name);
  const std::string var = "variable '" + spec.name + "'";
  if (find(spec.name)) fail(var + " is already defined");
  const MemoryOrder o = spec.memory_order;
  const std::string order = "memory order " + std::string(to_string(o));

  if (!spec.vertical_dim.empty()) {
    if (!has_k_axis(o)) fail(var + ": " + order + " has no vertical axis, so vertical_dim '" + spec.vertical_dim + "' makes no sense");
    if (!find_dimension(spec.vertical_dim)) {
      fail(var + ": vertical_dim '" + spec.vertical_dim + "' is not a dimension of the schema (add it with add_dimension first)");
    }
  }
  switch (spec.stagger) {
    case Stagger::None: break;
    case Stagger::X:
    case Stagger::Y:
    case Stagger::XY:
      if (!is_decomposed(o)) {
        fail(var + ": stagger " + std::string(to_string(spec.stagger)) + " needs a decomposed memory order (XZY, XYZ, XY), not " +
             std::string(to_string(o)));
      }
      break;
    case Stagger::Z:
      if (!has_k_axis(o)) fail(var + ": stagger Z needs a memory order with a vertical axis (XZY, XYZ, Z), not " + std::string(to_string(o)));
      break;
  }
  if (spec.type == DataType::Char) {
    const bool named_z = o == MemoryOrder::Z && !spec.vertical_dim.empty();
    if (!named_z && o != MemoryOrder::Scalar) {
      fail(var + ": char variables need memory order Z over a named dimension (such as DateStrLen) or 0, not " +
           std::string(to_string(o)) + (o == MemoryOrder::Z ? " over the vertical grid" : ""));
    }
    if (spec.stagger != Stagger::None) fail(var + ": char variables cannot be staggered");
  }
  for (std::size_t a = 0; a < spec.attributes.size(); ++a) {
    check_attribute_name(spec.name, spec.attributes[a].name);
    for (std::size_t b = 0; b < a; ++b) {
      if (spec.attributes[b].name == spec.attributes[a].name) {
        fail(var + ": attribute '" + spec.attributes[a].name + "' is given twice");
      }
    }
  }
  vars_.push_back(std::move(spec));
}

bool Schema::remove_variable(std::string_view name) {
  auto it = std::find_if(vars_.begin(), vars_.end(), [&](const VarSpec& v) { return v.name == name; });
  if (it == vars_.end()) return false;
  vars_.erase(it);
  return true;
}

void Schema::set_global_attribute(Attribute attribute) {
  check_attribute_name({}, attribute.name);
  auto it = std::find_if(global_atts_.begin(), global_atts_.end(), [&](const Attribute& a) { return a.name == attribute.name; });
  if (it != global_atts_.end()) {
    *it = std::move(attribute);  // keeps its place in the file's attribute order
  } else {
    global_atts_.push_back(std::move(attribute));
  }
}

const VarSpec* Schema::find(std::string_view name) const noexcept {
  for (const auto& v : vars_)
    if (v.name == name) return &v;
  return nullptr;
}

const VarSpec* Schema::find_icase(std::string_view name) const noexcept {
  if (const VarSpec* exact = find(name)) return exact;
  for (const auto& v : vars_)
    if (iequal(v.name, name)) return &v;
  return nullptr;
}

const DimSpec* Schema::find_dimension(std::string_view name) const noexcept {
  for (const auto& d : dims_)
    if (d.name == name) return &d;
  return nullptr;
}

void set_attribute(std::vector<Attribute>& attributes, Attribute attribute) {
  auto it = std::find_if(attributes.begin(), attributes.end(), [&](const Attribute& a) { return a.name == attribute.name; });
  if (it != attributes.end()) {
    *it = std::move(attribute);
  } else {
    attributes.push_back(std::move(attribute));
  }
}

const Attribute* find_attribute(const std::vector<Attribute>& attributes, std::string_view name) noexcept {
  for (const auto& a : attributes)
    if (a.name == name) return &a;
  return nullptr;
}

}  // namespace nwpio
