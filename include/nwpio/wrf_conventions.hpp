// The WRF convention layer: dimension names, per-variable attributes and the global
// attributes that make a file read as a wrfout file in ncdump, NCO, CDO, xarray and NCL.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "nwpio/box.hpp"
#include "nwpio/schema.hpp"

namespace nwpio::wrf {

inline constexpr std::string_view kTime = "Time";                 // unlimited
inline constexpr std::string_view kDateStrLen = "DateStrLen";     // 19
inline constexpr int kDateStrLenValue = 19;
inline constexpr std::string_view kWestEast = "west_east";
inline constexpr std::string_view kWestEastStag = "west_east_stag";
inline constexpr std::string_view kSouthNorth = "south_north";
inline constexpr std::string_view kSouthNorthStag = "south_north_stag";
inline constexpr std::string_view kBottomTop = "bottom_top";
inline constexpr std::string_view kBottomTopStag = "bottom_top_stag";
inline constexpr std::string_view kSoilLayersStag = "soil_layers_stag";

inline constexpr int kFieldTypeReal = 104;
inline constexpr int kFieldTypeDouble = 105;
inline constexpr int kFieldTypeInt = 106;

// A text attribute value as WRF writes it: an empty text becomes ONE NUL character (length 1),
// as WRF's io_netcdf / io_pnetcdf layers do; ncdump shows both as "". Other text is unchanged.
std::string text_attribute(std::string text);

// FieldType attribute value for an element type (104 real, 105 double, 106 int).
int field_type(DataType type);
// MemoryOrder attribute as written in the file: 3 characters, blank padded
// ("XYZ" for both 3-D memory orders, "XY ", "Z  ", "0  ").
std::string memory_order_attribute(MemoryOrder order);
// coordinates attribute: "XLONG XLAT XTIME", "XLONG_U XLAT_U XTIME", "XLONG_V XLAT_V XTIME";
// empty for Z and scalar fields (which carry none).
std::string coordinates(MemoryOrder order, Stagger stagger);

// A variable with WRF's attributes in WRF's order: FieldType, MemoryOrder, description, units,
// stagger, coordinates (the last only for decomposed fields). time_dependent is true.
// Matches every variable of a real V4.4.1 wrfout header, including its special cases:
//   - XLAT, XLONG get "XLONG XLAT"; XLAT_U, XLONG_U "XLONG_U XLAT_U"; XLAT_V, XLONG_V
//     "XLONG_V XLAT_V" (grid coordinates carry no XTIME);
//   - Z-staggered 3-D fields (W, PH, PHB) and soil fields (TSLB: XYZ, stagger "Z",
//     vertical_dim soil_layers_stag) use the mass-point "XLONG XLAT XTIME";
//   - Z fields over soil_layers_stag or seed_dim_stag (ZS, DZS, ISEEDARR_*) have stagger "Z":
//     pass Stagger::Z with vertical_dim;
//   - char variables (Times) carry no attributes at all;
//   - empty description, units and stagger are stored as text_attribute("") (one NUL), as in a
//     real wrfout (units = "" in ncdump is a 1-character attribute);
//   - WRF writes the Z-staggered ZNW with stagger "Z" and ZNU with "".
// Adjust anything else afterwards with set_attribute(spec.attributes, {...}).
// (field_type() alone throws Error(InvalidArgument) for char.)
VarSpec variable(std::string name, DataType type, MemoryOrder order, Stagger stagger,
                 std::string description, std::string units, std::string vertical_dim = {});

// The file dimensions of a variable, outermost first, Time included when time dependent,
// e.g. U -> {Time, bottom_top, south_north, west_east_stag}.
std::vector<std::string> file_dimensions(const VarSpec& spec);

// Grid-describing global attributes derived from the domain (staggered counts):
// WEST-EAST_GRID_DIMENSION, SOUTH-NORTH_GRID_DIMENSION, BOTTOM-TOP_GRID_DIMENSION and the
// *_PATCH_START/END_(UN)STAG attributes WRF writes for a whole-domain file, all NC_INT,
// 1-based: START = domain.lo + 1, END_UNSTAG = domain.hi - 1, END_STAG = domain.hi.
// Uses Schema::set_global_attribute, so attributes already present keep their place (put
// placeholders in WRF's order first to get WRF's order in the file).
void set_grid_attributes(Schema& schema, const Box& domain);

}  // namespace nwpio::wrf
