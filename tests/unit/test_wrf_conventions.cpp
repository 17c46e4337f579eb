// The WRF convention layer against the reference header of a real WRF V4.4.1 wrfout file
// (../shared/data/wrfout_d01_v441_header.cdl); the expected texts below are copied from it.
#include <gtest/gtest.h>

#include "nwpio/error.hpp"
#include "nwpio/wrf_conventions.hpp"

namespace nwpio {
namespace {

using Strings = std::vector<std::string>;
using Ints = std::vector<std::int32_t>;

// The attributes as the CDL shows them, in order: FieldType, MemoryOrder, description, units,
// stagger[, coordinates].
// ncdump shows WRF's one-NUL empty text as "", so "" below stands for std::string(1, '\0').
std::string nul_if_empty(std::string s) { return s.empty() ? std::string(1, '\0') : s; }

std::vector<Attribute> cdl(int field_type, std::string order, std::string description, std::string units,
                           std::string stagger, std::string coordinates = {}) {
  std::vector<Attribute> a = {{"FieldType", Ints{field_type}},
                              {"MemoryOrder", std::move(order)},
                              {"description", nul_if_empty(std::move(description))},
                              {"units", nul_if_empty(std::move(units))},
                              {"stagger", nul_if_empty(std::move(stagger))}};
  if (!coordinates.empty()) a.push_back({"coordinates", std::move(coordinates)});
  return a;
}

std::string coords(const VarSpec& spec) {
  const Attribute* a = find_attribute(spec.attributes, "coordinates");
  return a ? std::get<std::string>(a->value) : std::string();
}

TEST(WrfConventions, ThreeDimensionalFields) {
  const VarSpec u = wrf::variable("U", DataType::Float, MemoryOrder::XZY, Stagger::X, "x-wind component", "m s-1");
  EXPECT_EQ(u.attributes, cdl(104, "XYZ", "x-wind component", "m s-1", "X", "XLONG_U XLAT_U XTIME"));
  EXPECT_EQ(wrf::file_dimensions(u), (Strings{"Time", "bottom_top", "south_north", "west_east_stag"}));
  EXPECT_TRUE(u.time_dependent);
  EXPECT_EQ(u.memory_order, MemoryOrder::XZY);

  const VarSpec v = wrf::variable("V", DataType::Float, MemoryOrder::XZY, Stagger::Y, "y-wind component", "m s-1");
  EXPECT_EQ(v.attributes, cdl(104, "XYZ", "y-wind component", "m s-1", "Y", "XLONG_V XLAT_V XTIME"));
  EXPECT_EQ(wrf::file_dimensions(v), (Strings{"Time", "bottom_top", "south_north_stag", "west_east"}));

  const VarSpec w = wrf::variable("W", DataType::Float, MemoryOrder::XZY, Stagger::Z, "z-wind component", "m s-1");
  EXPECT_EQ(w.attributes, cdl(104, "XYZ", "z-wind component", "m s-1", "Z", "XLONG XLAT XTIME"));
  EXPECT_EQ(wrf::file_dimensions(w), (Strings{"Time", "bottom_top_stag", "south_north", "west_east"}));

  const VarSpec t = wrf::variable("T", DataType::Float, MemoryOrder::XYZ, Stagger::None,
                                  "perturbation potential temperature theta-t0", "K");
  EXPECT_EQ(t.attributes, cdl(104, "XYZ", "perturbation potential temperature theta-t0", "K", "", "XLONG XLAT XTIME"));
  EXPECT_EQ(wrf::file_dimensions(t), (Strings{"Time", "bottom_top", "south_north", "west_east"}));
}

TEST(WrfConventions, SoilFields) {
  const VarSpec tslb = wrf::variable("TSLB", DataType::Float, MemoryOrder::XZY, Stagger::Z, "SOIL TEMPERATURE", "K",
                                     std::string(wrf::kSoilLayersStag));
  EXPECT_EQ(tslb.attributes, cdl(104, "XYZ", "SOIL TEMPERATURE", "K", "Z", "XLONG XLAT XTIME"));
  EXPECT_EQ(wrf::file_dimensions(tslb), (Strings{"Time", "soil_layers_stag", "south_north", "west_east"}));

  const VarSpec zs = wrf::variable("ZS", DataType::Float, MemoryOrder::Z, Stagger::Z, "DEPTHS OF CENTERS OF SOIL LAYERS",
                                   "m", "soil_layers_stag");
  EXPECT_EQ(zs.attributes, cdl(104, "Z  ", "DEPTHS OF CENTERS OF SOIL LAYERS", "m", "Z"));
  EXPECT_EQ(wrf::file_dimensions(zs), (Strings{"Time", "soil_layers_stag"}));
}

TEST(WrfConventions, TwoDimensionalFields) {
  const VarSpec xlat = wrf::variable("XLAT", DataType::Float, MemoryOrder::XY, Stagger::None,
                                     "LATITUDE, SOUTH IS NEGATIVE", "degree_north");
  EXPECT_EQ(xlat.attributes, cdl(104, "XY ", "LATITUDE, SOUTH IS NEGATIVE", "degree_north", "", "XLONG XLAT"));
  EXPECT_EQ(wrf::file_dimensions(xlat), (Strings{"Time", "south_north", "west_east"}));

  const VarSpec xlong_u = wrf::variable("XLONG_U", DataType::Float, MemoryOrder::XY, Stagger::X,
                                        "LONGITUDE, WEST IS NEGATIVE", "degree_east");
  EXPECT_EQ(xlong_u.attributes, cdl(104, "XY ", "LONGITUDE, WEST IS NEGATIVE", "degree_east", "X", "XLONG_U XLAT_U"));
  EXPECT_EQ(wrf::file_dimensions(xlong_u), (Strings{"Time", "south_north", "west_east_stag"}));
  const VarSpec xlat_v = wrf::variable("XLAT_V", DataType::Float, MemoryOrder::XY, Stagger::Y,
                                       "LATITUDE, SOUTH IS NEGATIVE", "degree_north");
  EXPECT_EQ(coords(xlat_v), "XLONG_V XLAT_V");
  EXPECT_EQ(wrf::file_dimensions(xlat_v), (Strings{"Time", "south_north_stag", "west_east"}));

  const VarSpec mapfac_u = wrf::variable("MAPFAC_U", DataType::Float, MemoryOrder::XY, Stagger::X,
                                         "Map scale factor on u-grid", "");
  EXPECT_EQ(mapfac_u.attributes, cdl(104, "XY ", "Map scale factor on u-grid", "", "X", "XLONG_U XLAT_U XTIME"));

  const VarSpec ivgtyp = wrf::variable("IVGTYP", DataType::Int, MemoryOrder::XY, Stagger::None,
                                       "DOMINANT VEGETATION CATEGORY", "");
  EXPECT_EQ(ivgtyp.attributes, cdl(106, "XY ", "DOMINANT VEGETATION CATEGORY", "", "", "XLONG XLAT XTIME"));
}

TEST(WrfConventions, VerticalAndScalarFields) {
  const VarSpec znu = wrf::variable("ZNU", DataType::Float, MemoryOrder::Z, Stagger::None, "eta values on half (mass) levels", "");
  EXPECT_EQ(znu.attributes, cdl(104, "Z  ", "eta values on half (mass) levels", "", ""));
  EXPECT_EQ(wrf::file_dimensions(znu), (Strings{"Time", "bottom_top"}));
  const VarSpec znw = wrf::variable("ZNW", DataType::Float, MemoryOrder::Z, Stagger::Z, "eta values on full (w) levels", "");
  EXPECT_EQ(znw.attributes, cdl(104, "Z  ", "eta values on full (w) levels", "", "Z"));
  EXPECT_EQ(wrf::file_dimensions(znw), (Strings{"Time", "bottom_top_stag"}));

  const VarSpec flag = wrf::variable("BATHYMETRY_FLAG", DataType::Int, MemoryOrder::Scalar, Stagger::None,
                                     "Flag for bathymetry in the global attributes for metgrid data", "-");
  EXPECT_EQ(flag.attributes, cdl(106, "0  ", "Flag for bathymetry in the global attributes for metgrid data", "-", ""));
  EXPECT_EQ(wrf::file_dimensions(flag), (Strings{"Time"}));
  const VarSpec xtime = wrf::variable("XTIME", DataType::Float, MemoryOrder::Scalar, Stagger::None,
                                      "minutes since 2022-06-22 00:00:00", "minutes since 2022-06-22 00:00:00");
  EXPECT_EQ(xtime.attributes[1], (Attribute{"MemoryOrder", std::string("0  ")}));
  EXPECT_EQ(coords(xtime), "");
}

TEST(WrfConventions, TimesAndDoubles) {
  const VarSpec times = wrf::variable("Times", DataType::Char, MemoryOrder::Z, Stagger::None, "", "",
                                      std::string(wrf::kDateStrLen));
  EXPECT_TRUE(times.attributes.empty());  // char Times(Time, DateStrLen) carries no attributes
  EXPECT_EQ(wrf::file_dimensions(times), (Strings{"Time", "DateStrLen"}));
  EXPECT_THROW(wrf::field_type(DataType::Char), Error);

  const VarSpec d = wrf::variable("D", DataType::Double, MemoryOrder::XY, Stagger::None, "d", "1");
  EXPECT_EQ(d.attributes[0], (Attribute{"FieldType", Ints{105}}));
}

TEST(WrfConventions, StaticFieldsDropTime) {
  VarSpec hgt = wrf::variable("HGT", DataType::Float, MemoryOrder::XY, Stagger::None, "Terrain Height", "m");
  hgt.time_dependent = false;
  EXPECT_EQ(wrf::file_dimensions(hgt), (Strings{"south_north", "west_east"}));
  VarSpec c = wrf::variable("C", DataType::Float, MemoryOrder::Scalar, Stagger::None, "c", "");
  c.time_dependent = false;
  EXPECT_TRUE(wrf::file_dimensions(c).empty());
}

TEST(WrfConventions, EmptyTextIsOneNul) {
  EXPECT_EQ(wrf::text_attribute(""), std::string(1, '\0'));
  EXPECT_EQ(wrf::text_attribute("K"), "K");
  const VarSpec t = wrf::variable("T", DataType::Float, MemoryOrder::XZY, Stagger::None, "", "");
  for (const char* name : {"description", "units", "stagger"}) {
    EXPECT_EQ(std::get<std::string>(find_attribute(t.attributes, name)->value).size(), 1u) << name;
  }
}

TEST(WrfConventions, BuildingBlocks) {
  EXPECT_EQ(wrf::memory_order_attribute(MemoryOrder::XZY), "XYZ");
  EXPECT_EQ(wrf::memory_order_attribute(MemoryOrder::XYZ), "XYZ");
  EXPECT_EQ(wrf::memory_order_attribute(MemoryOrder::XY), "XY ");
  EXPECT_EQ(wrf::memory_order_attribute(MemoryOrder::Z), "Z  ");
  EXPECT_EQ(wrf::memory_order_attribute(MemoryOrder::Scalar), "0  ");
  EXPECT_EQ(wrf::coordinates(MemoryOrder::XY, Stagger::None), "XLONG XLAT XTIME");
  EXPECT_EQ(wrf::coordinates(MemoryOrder::XZY, Stagger::Z), "XLONG XLAT XTIME");
  EXPECT_EQ(wrf::coordinates(MemoryOrder::XYZ, Stagger::X), "XLONG_U XLAT_U XTIME");
  EXPECT_EQ(wrf::coordinates(MemoryOrder::XY, Stagger::Y), "XLONG_V XLAT_V XTIME");
  EXPECT_EQ(wrf::coordinates(MemoryOrder::Z, Stagger::Z), "");
  EXPECT_EQ(wrf::coordinates(MemoryOrder::Scalar, Stagger::None), "");
  EXPECT_EQ(wrf::field_type(DataType::Float), 104);
  EXPECT_EQ(wrf::field_type(DataType::Double), 105);
  EXPECT_EQ(wrf::field_type(DataType::Int), 106);
}

TEST(WrfConventions, VariablesPassSchemaValidation) {
  Schema s;
  s.add_dimension(std::string(wrf::kDateStrLen), wrf::kDateStrLenValue);
  s.add_dimension(std::string(wrf::kSoilLayersStag), 4);
  s.add_variable(wrf::variable("Times", DataType::Char, MemoryOrder::Z, Stagger::None, "", "", "DateStrLen"));
  s.add_variable(wrf::variable("U", DataType::Float, MemoryOrder::XZY, Stagger::X, "x-wind component", "m s-1"));
  s.add_variable(wrf::variable("TSLB", DataType::Float, MemoryOrder::XZY, Stagger::Z, "SOIL TEMPERATURE", "K",
                               "soil_layers_stag"));
  s.add_variable(wrf::variable("ZNW", DataType::Float, MemoryOrder::Z, Stagger::Z, "eta values on full (w) levels", ""));
  s.add_variable(wrf::variable("XTIME", DataType::Float, MemoryOrder::Scalar, Stagger::None, "minutes", "minutes"));
  EXPECT_EQ(s.variables().size(), 5u);
}

TEST(WrfConventions, GridAttributes) {
  // The reference file's grid: e_we = 1901, e_sn = 1301, e_vert = 35.
  Schema s;
  s.set_global_attribute({"TITLE", std::string(" OUTPUT FROM WRF V4.4.1 MODEL")});
  Box domain;
  domain.hi = {1901, 1301, 35};
  wrf::set_grid_attributes(s, domain);
  const std::vector<Attribute> expected = {
      {"TITLE", std::string(" OUTPUT FROM WRF V4.4.1 MODEL")},
      {"WEST-EAST_GRID_DIMENSION", Ints{1901}},
      {"SOUTH-NORTH_GRID_DIMENSION", Ints{1301}},
      {"BOTTOM-TOP_GRID_DIMENSION", Ints{35}},
      {"WEST-EAST_PATCH_START_UNSTAG", Ints{1}},
      {"WEST-EAST_PATCH_END_UNSTAG", Ints{1900}},
      {"WEST-EAST_PATCH_START_STAG", Ints{1}},
      {"WEST-EAST_PATCH_END_STAG", Ints{1901}},
      {"SOUTH-NORTH_PATCH_START_UNSTAG", Ints{1}},
      {"SOUTH-NORTH_PATCH_END_UNSTAG", Ints{1300}},
      {"SOUTH-NORTH_PATCH_START_STAG", Ints{1}},
      {"SOUTH-NORTH_PATCH_END_STAG", Ints{1301}},
      {"BOTTOM-TOP_PATCH_START_UNSTAG", Ints{1}},
      {"BOTTOM-TOP_PATCH_END_UNSTAG", Ints{34}},
      {"BOTTOM-TOP_PATCH_START_STAG", Ints{1}},
      {"BOTTOM-TOP_PATCH_END_STAG", Ints{35}},
  };
  EXPECT_EQ(s.global_attributes(), expected);
  // Placeholders set earlier keep their place; calling again changes values, not order.
  domain.hi = {11, 9, 5};
  wrf::set_grid_attributes(s, domain);
  ASSERT_EQ(s.global_attributes().size(), expected.size());
  EXPECT_EQ(s.global_attributes()[1], (Attribute{"WEST-EAST_GRID_DIMENSION", Ints{11}}));
  EXPECT_EQ(s.global_attributes()[13], (Attribute{"BOTTOM-TOP_PATCH_END_UNSTAG", Ints{4}}));
}

}  // namespace
}  // namespace nwpio
