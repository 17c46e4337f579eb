// Schema: every validation failure, and the operations that succeed.
#include <gtest/gtest.h>

#include "nwpio/error.hpp"
#include "nwpio/schema.hpp"

namespace nwpio {
namespace {

VarSpec var(std::string name, MemoryOrder order = MemoryOrder::XZY, Stagger stagger = Stagger::None,
            DataType type = DataType::Float, std::string vertical_dim = {}) {
  VarSpec v;
  v.name = std::move(name);
  v.memory_order = order;
  v.stagger = stagger;
  v.type = type;
  v.vertical_dim = std::move(vertical_dim);
  return v;
}

// The Error(Schema) message of `f`, or a note that it did not throw one.
template <class F>
std::string schema_error(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    if (e.kind() != ErrorKind::Schema) return std::string("wrong kind: ") + e.what();
    return e.what();
  }
  return "<no error>";
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

Schema wrf_like() {
  Schema s;
  s.add_dimension("DateStrLen", 19);
  s.add_dimension("soil_layers_stag", 4);
  return s;
}

TEST(Schema, AcceptsWrfVariables) {
  Schema s = wrf_like();
  s.add_variable(var("Times", MemoryOrder::Z, Stagger::None, DataType::Char, "DateStrLen"));
  s.add_variable(var("U", MemoryOrder::XZY, Stagger::X));
  s.add_variable(var("V", MemoryOrder::XZY, Stagger::Y));
  s.add_variable(var("W", MemoryOrder::XZY, Stagger::Z));
  s.add_variable(var("TSLB", MemoryOrder::XZY, Stagger::Z, DataType::Float, "soil_layers_stag"));
  s.add_variable(var("ZS", MemoryOrder::Z, Stagger::Z, DataType::Float, "soil_layers_stag"));
  s.add_variable(var("ZNU", MemoryOrder::Z));
  s.add_variable(var("MAPFAC_U", MemoryOrder::XY, Stagger::X));
  s.add_variable(var("IVGTYP", MemoryOrder::XY, Stagger::None, DataType::Int));
  s.add_variable(var("T3", MemoryOrder::XYZ, Stagger::None, DataType::Double));
  s.add_variable(var("BATHYMETRY_FLAG", MemoryOrder::Scalar, Stagger::None, DataType::Int));
  s.add_variable(var("TITLE_CHAR", MemoryOrder::Scalar, Stagger::None, DataType::Char));
  s.add_variable(var("_x1"));
  ASSERT_EQ(s.variables().size(), 13u);
  EXPECT_EQ(s.variables()[1].name, "U");  // definition order is kept
  EXPECT_EQ(s.find("TSLB")->vertical_dim, "soil_layers_stag");
  EXPECT_EQ(s.find("tslb"), nullptr);
  EXPECT_EQ(s.find_icase("tslb"), s.find("TSLB"));
  EXPECT_EQ(s.find_dimension("DateStrLen")->length, 19);
  EXPECT_EQ(s.find_dimension("datestrlen"), nullptr);
}

TEST(Schema, FindIcasePrefersExactMatch) {
  Schema s;
  s.add_variable(var("qvapor"));
  s.add_variable(var("QVAPOR"));  // names are case-sensitive, so both may exist
  EXPECT_EQ(s.find_icase("QVAPOR")->name, "QVAPOR");
  EXPECT_EQ(s.find_icase("qvapor")->name, "qvapor");
  EXPECT_EQ(s.find_icase("QVapor")->name, "qvapor");  // otherwise the first defined
  EXPECT_EQ(s.find_icase("QCLOUD"), nullptr);
}

TEST(Schema, RemoveVariable) {
  Schema s;
  s.add_variable(var("A"));
  s.add_variable(var("B"));
  EXPECT_TRUE(s.remove_variable("A"));
  EXPECT_FALSE(s.remove_variable("A"));
  EXPECT_FALSE(s.remove_variable("b"));
  ASSERT_EQ(s.variables().size(), 1u);
  EXPECT_EQ(s.variables()[0].name, "B");
  s.add_variable(var("A"));  // may be defined again
  EXPECT_EQ(s.variables().back().name, "A");
}

TEST(Schema, BadDimensions) {
  Schema s = wrf_like();
  EXPECT_EQ(schema_error([&] { s.add_dimension("", 3); }), "dimension name is empty");
  EXPECT_EQ(schema_error([&] { s.add_dimension("soil_layers_stag", 4); }), "dimension 'soil_layers_stag' is already defined");
  EXPECT_EQ(schema_error([&] { s.add_dimension("n", 0); }), "dimension 'n' has length 0; it must be at least 1");
  EXPECT_EQ(schema_error([&] { s.add_dimension("n", -5); }), "dimension 'n' has length -5; it must be at least 1");
  EXPECT_EQ(schema_error([&] { s.add_dimension("4d", 1); }), "dimension name '4d' starts with a digit");
  EXPECT_TRUE(has(schema_error([&] { s.add_dimension("a b", 1); }), "dimension name 'a b' contains ' '"));
  EXPECT_TRUE(has(schema_error([&] { s.add_dimension(std::string(257, 'd'), 1); }), "longer than 256 characters"));
  EXPECT_EQ(schema_error([&] { s.add_dimension(std::string(256, 'd'), 1); }), "<no error>");
  for (const char* derived : {"Time", "west_east", "west_east_stag", "south_north", "south_north_stag", "bottom_top",
                              "bottom_top_stag"}) {
    EXPECT_EQ(schema_error([&] { s.add_dimension(derived, 10); }),
              "dimension '" + std::string(derived) + "' is derived from the decomposition and cannot be added");
  }
  EXPECT_EQ(s.dimensions().size(), 3u);  // failed calls leave the schema as it was
}

TEST(Schema, BadVariableNames) {
  Schema s;
  s.add_variable(var("T"));
  EXPECT_EQ(schema_error([&] { s.add_variable(var("T")); }), "variable 'T' is already defined");
  EXPECT_EQ(schema_error([&] { s.add_variable(var("")); }), "variable name is empty");
  EXPECT_EQ(schema_error([&] { s.add_variable(var("2T")); }), "variable name '2T' starts with a digit");
  EXPECT_EQ(schema_error([&] { s.add_variable(var("T-2")); }), "variable name 'T-2' contains '-'; use letters, digits and '_'");
  EXPECT_TRUE(has(schema_error([&] { s.add_variable(var("T/2")); }), "contains '/'"));
  EXPECT_TRUE(has(schema_error([&] { s.add_variable(var(std::string(300, 'Q'))); }), "longer than 256"));
  EXPECT_EQ(s.variables().size(), 1u);
}

TEST(Schema, BadVerticalDim) {
  Schema s = wrf_like();
  EXPECT_EQ(schema_error([&] { s.add_variable(var("SMOIS", MemoryOrder::XZY, Stagger::Z, DataType::Float, "soil_layers")); }),
            "variable 'SMOIS': vertical_dim 'soil_layers' is not a dimension of the schema (add it with add_dimension first)");
  EXPECT_EQ(schema_error([&] { s.add_variable(var("ZNU", MemoryOrder::Z, Stagger::None, DataType::Float, "bottom_top")); }),
            "variable 'ZNU': vertical_dim 'bottom_top' is not a dimension of the schema (add it with add_dimension first)");
  EXPECT_EQ(schema_error([&] { s.add_variable(var("T2", MemoryOrder::XY, Stagger::None, DataType::Float, "soil_layers_stag")); }),
            "variable 'T2': memory order XY has no vertical axis, so vertical_dim 'soil_layers_stag' makes no sense");
  EXPECT_TRUE(has(schema_error([&] { s.add_variable(var("S", MemoryOrder::Scalar, Stagger::None, DataType::Int, "DateStrLen")); }),
                  "variable 'S': memory order 0 has no vertical axis"));
}

TEST(Schema, BadStagger) {
  Schema s;
  for (Stagger st : {Stagger::X, Stagger::Y}) {
    for (MemoryOrder o : {MemoryOrder::Z, MemoryOrder::Scalar}) {
      const std::string e = schema_error([&] { s.add_variable(var("F", o, st)); });
      EXPECT_EQ(e, "variable 'F': stagger " + std::string(to_string(st)) +
                       " needs a decomposed memory order (XZY, XYZ, XY), not " + std::string(to_string(o)));
    }
  }
  for (MemoryOrder o : {MemoryOrder::XY, MemoryOrder::Scalar}) {
    EXPECT_EQ(schema_error([&] { s.add_variable(var("F", o, Stagger::Z)); }),
              "variable 'F': stagger Z needs a memory order with a vertical axis (XZY, XYZ, Z), not " + std::string(to_string(o)));
  }
  EXPECT_TRUE(s.variables().empty());
}

TEST(Schema, BadCharVariables) {
  Schema s = wrf_like();
  for (MemoryOrder o : {MemoryOrder::XZY, MemoryOrder::XYZ, MemoryOrder::XY}) {
    EXPECT_EQ(schema_error([&] { s.add_variable(var("C", o, Stagger::None, DataType::Char)); }),
              "variable 'C': char variables need memory order Z over a named dimension (such as DateStrLen) or 0, not " +
                  std::string(to_string(o)));
  }
  EXPECT_EQ(schema_error([&] { s.add_variable(var("C", MemoryOrder::Z, Stagger::None, DataType::Char)); }),
            "variable 'C': char variables need memory order Z over a named dimension (such as DateStrLen) or 0, not Z over "
            "the vertical grid");
  EXPECT_EQ(schema_error([&] { s.add_variable(var("C", MemoryOrder::Z, Stagger::Z, DataType::Char, "DateStrLen")); }),
            "variable 'C': char variables cannot be staggered");
}

TEST(Schema, BadVariableAttributes) {
  Schema s;
  VarSpec v = var("T");
  v.attributes = {{"units", std::string("K")}, {"units", std::string("C")}};
  EXPECT_EQ(schema_error([&] { s.add_variable(v); }), "variable 'T': attribute 'units' is given twice");
  v.attributes = {{"", std::string("K")}};
  EXPECT_EQ(schema_error([&] { s.add_variable(v); }), "attribute of variable 'T': name is empty");
  v.attributes = {{"a/b", std::string("K")}};
  EXPECT_EQ(schema_error([&] { s.add_variable(v); }),
            "attribute of variable 'T' 'a/b': name contains a '/' or a control character");
  v.attributes = {{"units ", std::string("K")}};
  EXPECT_EQ(schema_error([&] { s.add_variable(v); }), "attribute of variable 'T' 'units ': name ends with a blank");
  v.attributes = {{"-x", std::string("K")}};
  EXPECT_EQ(schema_error([&] { s.add_variable(v); }),
            "attribute of variable 'T' '-x': name must start with a letter, digit or '_'");
}

TEST(Schema, GlobalAttributes) {
  Schema s;
  s.set_global_attribute({"TITLE", std::string(" OUTPUT FROM NWPIO")});
  s.set_global_attribute({"WEST-EAST_GRID_DIMENSION", std::vector<std::int32_t>{1901}});
  s.set_global_attribute({"DX", std::vector<float>{2500.f}});
  s.set_global_attribute({"TITLE", std::string("replaced")});
  ASSERT_EQ(s.global_attributes().size(), 3u);
  EXPECT_EQ(s.global_attributes()[0], (Attribute{"TITLE", std::string("replaced")}));  // keeps its place
  EXPECT_EQ(s.global_attributes()[2].name, "DX");
  EXPECT_EQ(schema_error([&] { s.set_global_attribute({"", std::string("x")}); }), "global attribute: name is empty");
  EXPECT_EQ(schema_error([&] { s.set_global_attribute({"A/B", std::string("x")}); }),
            "global attribute 'A/B': name contains a '/' or a control character");
}

TEST(Schema, SetAndFindAttribute) {
  std::vector<Attribute> atts = {{"FieldType", std::vector<std::int32_t>{104}}, {"units", std::string("K")}};
  set_attribute(atts, {"units", std::string("m")});
  set_attribute(atts, {"coordinates", std::string("XLONG XLAT")});
  ASSERT_EQ(atts.size(), 3u);
  EXPECT_EQ(std::get<std::string>(find_attribute(atts, "units")->value), "m");
  EXPECT_EQ(atts[2].name, "coordinates");
  EXPECT_EQ(find_attribute(atts, "stagger"), nullptr);
}

}  // namespace
}  // namespace nwpio
