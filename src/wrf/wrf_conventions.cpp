#include "nwpio/wrf_conventions.hpp"

#include <array>

#include "nwpio/error.hpp"

namespace nwpio::wrf {
namespace {

// Latitude/longitude fields describe the grid itself and do not vary with XTIME: a real wrfout
// file gives them "XLONG XLAT" (and the _U/_V variants) without XTIME.
struct CoordinateException {
  std::string_view name;
  std::string_view coordinates;
};
constexpr std::array<CoordinateException, 6> kGridCoordinates = {{
    {"XLAT", "XLONG XLAT"},
    {"XLONG", "XLONG XLAT"},
    {"XLAT_U", "XLONG_U XLAT_U"},
    {"XLONG_U", "XLONG_U XLAT_U"},
    {"XLAT_V", "XLONG_V XLAT_V"},
    {"XLONG_V", "XLONG_V XLAT_V"},
}};

std::string vertical_dimension(const VarSpec& spec) {
  if (!spec.vertical_dim.empty()) return spec.vertical_dim;
  return std::string(spec.stagger == Stagger::Z ? kBottomTopStag : kBottomTop);
}

}  // namespace

std::string text_attribute(std::string text) {
  // WRF's io_netcdf and io_pnetcdf write an empty text attribute as one NUL character
  // (ext_ncd_put_var_ti.code: put_att_text(..., len_trim(null), null) with null = char(0)).
  if (text.empty()) return std::string(1, '\0');
  return text;
}

int field_type(DataType type) {
  switch (type) {
    case DataType::Float: return kFieldTypeReal;
    case DataType::Double: return kFieldTypeDouble;
    case DataType::Int: return kFieldTypeInt;
    case DataType::Char: break;
  }
  throw Error(ErrorKind::InvalidArgument, "WRF has no FieldType for char variables (Times carries no attributes)");
}

std::string memory_order_attribute(MemoryOrder order) {
  switch (order) {
    case MemoryOrder::XZY:
    case MemoryOrder::XYZ: return "XYZ";
    case MemoryOrder::XY: return "XY ";
    case MemoryOrder::Z: return "Z  ";
    case MemoryOrder::Scalar: return "0  ";
  }
  return "0  ";
}

std::string coordinates(MemoryOrder order, Stagger stagger) {
  if (!is_decomposed(order)) return {};
  switch (stagger) {
    case Stagger::X: return "XLONG_U XLAT_U XTIME";
    case Stagger::Y: return "XLONG_V XLAT_V XTIME";
    case Stagger::None:
    case Stagger::Z:
    case Stagger::XY: break;  // WRF's restart writes the mass-point form for XY (SPFORCC5)
  }
  return "XLONG XLAT XTIME";
}

VarSpec variable(std::string name, DataType type, MemoryOrder order, Stagger stagger, std::string description,
                 std::string units, std::string vertical_dim) {
  VarSpec spec;
  spec.type = type;
  spec.memory_order = order;
  spec.stagger = stagger;
  spec.vertical_dim = std::move(vertical_dim);
  if (type != DataType::Char) {  // WRF writes no attributes on char variables (Times)
    spec.attributes.push_back({"FieldType", std::vector<std::int32_t>{field_type(type)}});
    spec.attributes.push_back({"MemoryOrder", memory_order_attribute(order)});
    spec.attributes.push_back({"description", text_attribute(std::move(description))});
    spec.attributes.push_back({"units", text_attribute(std::move(units))});
    spec.attributes.push_back({"stagger", text_attribute(std::string(to_string(stagger)))});
    std::string coords = coordinates(order, stagger);
    for (const auto& e : kGridCoordinates) {
      if (e.name == name && !coords.empty()) coords = std::string(e.coordinates);
    }
    if (!coords.empty()) spec.attributes.push_back({"coordinates", std::move(coords)});
  }
  spec.name = std::move(name);
  return spec;
}

std::vector<std::string> file_dimensions(const VarSpec& spec) {
  std::vector<std::string> dims;
  if (spec.time_dependent) dims.emplace_back(kTime);
  const std::string j(staggered_along(spec.stagger, kAxisJ) ? kSouthNorthStag : kSouthNorth);
  const std::string i(staggered_along(spec.stagger, kAxisI) ? kWestEastStag : kWestEast);
  switch (spec.memory_order) {
    case MemoryOrder::XZY:
    case MemoryOrder::XYZ:
      dims.push_back(vertical_dimension(spec));
      dims.push_back(j);
      dims.push_back(i);
      break;
    case MemoryOrder::XY:
      dims.push_back(j);
      dims.push_back(i);
      break;
    case MemoryOrder::Z: dims.push_back(vertical_dimension(spec)); break;
    case MemoryOrder::Scalar: break;
  }
  return dims;
}

void set_grid_attributes(Schema& schema, const Box& domain) {
  auto put = [&](std::string name, std::int64_t value) {
    schema.set_global_attribute({std::move(name), std::vector<std::int32_t>{static_cast<std::int32_t>(value)}});
  };
  // Staggered counts, as WRF writes them (WEST-EAST_GRID_DIMENSION = e_we).
  put("WEST-EAST_GRID_DIMENSION", domain.extent(kAxisI));
  put("SOUTH-NORTH_GRID_DIMENSION", domain.extent(kAxisJ));
  put("BOTTOM-TOP_GRID_DIMENSION", domain.extent(kAxisK));
  // A whole-domain file: the "patch" is the domain, 1-based inclusive.
  const std::array<std::string_view, 3> names = {"WEST-EAST", "SOUTH-NORTH", "BOTTOM-TOP"};
  for (int a = 0; a < 3; ++a) {
    const std::string n(names[static_cast<std::size_t>(a)]);
    put(n + "_PATCH_START_UNSTAG", domain.lo[a] + 1);
    put(n + "_PATCH_END_UNSTAG", domain.hi[a] - 1);
    put(n + "_PATCH_START_STAG", domain.lo[a] + 1);
    put(n + "_PATCH_END_STAG", domain.hi[a]);
  }
}

}  // namespace nwpio::wrf
