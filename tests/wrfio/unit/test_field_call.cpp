// The WRF package's argument translation without MPI: write_field's arguments as they cross the
// C boundary (fortran_args), checked and translated by parse_field_call, and the put_*_ti
// attributes. Every bad argument must give WRF's status and a message naming the argument.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "nwpio/error.hpp"
#include "nwpio/schema.hpp"
#include "wrfio/field_call.hpp"
#include "wrfio/fortran_args.hpp"
#include "wrfio/wrf_status.hpp"

namespace nwpio::wrfio {
namespace {

namespace st = wrf_status;

// T of a 13 x 10 x 5 grid (XZY: i, k, j), this rank's patch i 1:7, j 3:5, memory with a halo
// of 3 (starting below 1, as WRF's memory does on the first patch).
RawFieldArgs t_field() {
  RawFieldArgs a;
  a.var = "T";
  a.date = "2001-01-01_00:05:00";
  a.memory_order = "XZY";
  a.stagger = "";
  a.dim_names = {"west_east", "bottom_top", "south_north"};
  a.field_type = field_type::kReal;
  a.domain_start = {1, 1, 1};
  a.domain_end = {13, 10, 5};
  a.memory_start = {-2, 1, 0};
  a.memory_end = {10, 10, 8};
  a.patch_start = {1, 1, 3};
  a.patch_end = {7, 10, 5};
  return a;
}

// The WRF status parse_field_call answers (0 when it accepts), and its message in `what`.
int status_of(const RawFieldArgs& a, std::string* what = nullptr) {
  try {
    (void)parse_field_call(a);
    return st::kNoErr;
  } catch (const WrfError& e) {
    if (what) *what = e.what();
    return e.wrf_status();
  }
}

bool mentions(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(FieldCall, TranslatesAGoodCall) {
  const FieldCall c = parse_field_call(t_field());
  EXPECT_EQ(c.name, "T");
  EXPECT_EQ(c.order, MemoryOrder::XZY);
  EXPECT_EQ(c.ndim, 3);
  EXPECT_EQ(c.type, DataType::Float);
  EXPECT_EQ(c.position(kAxisI), 0);
  EXPECT_EQ(c.position(kAxisK), 1);
  EXPECT_EQ(c.position(kAxisJ), 2);
  EXPECT_EQ(c.patch_box(), (Box{{0, 2, 0}, {7, 5, 10}}));
  EXPECT_EQ(c.memory_box(), (Box{{-3, -1, 0}, {10, 8, 10}}));
  EXPECT_EQ(c.memory_extents(), (std::vector<std::int64_t>{13, 10, 9}));
  EXPECT_EQ(c.memory_elements(), 13 * 10 * 9);
  EXPECT_TRUE(c.on_model_grid_k());
  EXPECT_FALSE(c.quilt_patch);
}

TEST(FieldCall, OrdersStaggersAndNamedDimensions) {
  RawFieldArgs u = t_field();
  u.stagger = " x";  // case and blanks do not matter (enum_text)
  u.dim_names[0] = "west_east_stag";
  u.domain_end[0] = 14;
  EXPECT_EQ(parse_field_call(u).stagger, Stagger::X);

  RawFieldArgs fcx = t_field();  // 'C': a 1-D field over a dimension of its own, attribute "C  "
  fcx.memory_order = "C";
  fcx.dim_names = {"spec_bdy_width", "", ""};
  fcx.domain_end = {5, 1, 1};
  fcx.memory_start = fcx.patch_start = {1, 1, 1};
  fcx.memory_end = fcx.patch_end = {5, 1, 1};
  const FieldCall c = parse_field_call(fcx);
  EXPECT_EQ(c.order, MemoryOrder::Z);
  EXPECT_TRUE(c.c_order);
  EXPECT_EQ(c.vertical_dim, "spec_bdy_width");

  RawFieldArgs swvis = t_field();  // stagger Z on a field without k places nothing differently
  swvis.memory_order = "xy";
  swvis.stagger = "Z";
  swvis.dim_names = {"west_east", "south_north", ""};
  swvis.domain_end = {13, 5, 1};
  swvis.memory_start = {-2, 0, 1};
  swvis.memory_end = {10, 8, 1};
  swvis.patch_start = {1, 3, 1};
  swvis.patch_end = {7, 5, 1};
  EXPECT_EQ(parse_field_call(swvis).stagger, Stagger::None);

  RawFieldArgs scalar = t_field();
  scalar.memory_order = "0";
  EXPECT_EQ(parse_field_call(scalar).ndim, 0);
}

TEST(FieldCall, EveryBadArgumentHasItsWrfStatusAndIsNamed) {
  struct Case {
    const char* what;
    void (*spoil)(RawFieldArgs&);
    int status;
    const char* named;
  };
  const Case cases[] = {
      {"blank Var", [](RawFieldArgs& a) { a.var = ""; }, st::kVarNotFound, "Var"},
      {"Var with '/'", [](RawFieldArgs& a) { a.var = "T/2"; }, st::kNotSupported, "Var 'T/2' contains '/'"},
      {"Var too long", [](RawFieldArgs& a) { a.var = std::string(257, 'T'); }, st::kCharStringTooLong, "NC_MAX_NAME"},
      {"Var starting with a digit", [](RawFieldArgs& a) { a.var = "2T"; }, st::kNotSupported, "starts with a digit"},
      {"DateStr too short", [](RawFieldArgs& a) { a.date = "2001-01-01"; }, st::kDateStrBadLength, "DateStr"},
      {"DateStr month 13", [](RawFieldArgs& a) { a.date = "2001-13-01_00:00:00"; }, st::kDateStringError, "month 13"},
      {"DateStr not a date", [](RawFieldArgs& a) { a.date = "yesterday at noon!!"; }, st::kDateStringError, "DateStr"},
      {"FieldType 103", [](RawFieldArgs& a) { a.field_type = 103; }, st::kBadDataType, "FieldType 103"},
      {"MemoryOrder YXZ", [](RawFieldArgs& a) { a.memory_order = "YXZ"; }, st::kBadMemoryOrder, "MemoryOrder 'YXZ'"},
      {"Stagger W", [](RawFieldArgs& a) { a.stagger = "W"; }, st::kNotSupported, "Stagger 'W'"},
      {"DimNames(1) of a staggered axis", [](RawFieldArgs& a) { a.dim_names[0] = "west_east_stag"; },
       st::kNotSupported, "DimNames(1)"},
      {"DimNames(2) with '/'", [](RawFieldArgs& a) { a.dim_names[1] = "soil/layers"; }, st::kNotSupported,
       "DimNames(2) 'soil/layers'"},
      {"DimNames(2) a horizontal one", [](RawFieldArgs& a) { a.dim_names[1] = "south_north"; }, st::kNotSupported,
       "DimNames(2) 'south_north'"},
      {"negative DomainStart", [](RawFieldArgs& a) { a.domain_start[2] = -4; }, st::kDimensionError, "DomainStart(3)"},
      {"DomainEnd before DomainStart", [](RawFieldArgs& a) { a.domain_end[1] = 0; }, st::kDimensionError,
       "DomainEnd(2) = 0"},
      {"patch past the domain", [](RawFieldArgs& a) { a.patch_end[0] = 14; }, st::kDimensionError, "PatchStart:PatchEnd"},
      {"negative patch", [](RawFieldArgs& a) { a.patch_start[2] = -1; }, st::kDimensionError, "PatchStart:PatchEnd"},
      {"patch ends before it starts", [](RawFieldArgs& a) { a.patch_end[2] = 2; }, st::kDimensionError,
       "PatchStart:PatchEnd"},
      {"memory not holding the patch", [](RawFieldArgs& a) { a.memory_end[0] = 6; }, st::kDimensionError,
       "MemoryStart:MemoryEnd"},
      {"memory of 2^60 elements", [](RawFieldArgs& a) {
         a.memory_start = {-2000000000, -2000000000, -2000000000};
         a.memory_end = {2000000000, 2000000000, 2000000000};
       },
       st::kDimensionError, "more than"},
  };
  for (const Case& c : cases) {
    RawFieldArgs a = t_field();
    c.spoil(a);
    std::string what;
    EXPECT_EQ(status_of(a, &what), c.status) << c.what;
    EXPECT_TRUE(mentions(what, c.named)) << c.what << ": " << what;
  }
}

TEST(FieldCall, ServersPatchesAndTrainingCallsTakeTheirMemoryFromThePatch) {
  RawFieldArgs piece = t_field();
  piece.memory_start = {kQuiltPatchMarker, 77, 77};
  piece.memory_end = {kQuiltPatchMarker, -77, -77};
  const FieldCall c = parse_field_call(piece);
  EXPECT_TRUE(c.quilt_patch);
  EXPECT_EQ(c.memory_box(), c.patch_box());
  EXPECT_EQ(c.memory_elements(), 7 * 10 * 3);

  RawFieldArgs training = t_field();
  training.domain_desc = kQuiltTrainingDomainDesc;
  training.memory_start = {0, 0, 0};
  training.memory_end = {-5, -5, -5};  // meaningless in a server's training call
  EXPECT_EQ(parse_field_call(training).memory_box(), parse_field_call(training).patch_box());
}

// The package checks names at the call (to answer with WRF's status); the Schema checks them
// again when the file is defined. Both must say the same about every name.
TEST(FieldCall, TheNameRuleIsTheSchemas) {
  const std::vector<std::string> names = {"T", "U10", "_x", "ISEEDARR_MULT3D", "2T", "T/2", "T 2", "T-2", "",
                                          std::string(256, 'a'), std::string(257, 'a'), "T\t", "Ä"};
  for (const std::string& name : names) {
    bool package = true, schema = true;
    try {
      check_wrf_name("Var", name);
    } catch (const WrfError&) {
      package = false;
    }
    try {
      Schema s;
      VarSpec v;
      v.name = name;
      s.add_variable(v);
    } catch (const Error&) {
      schema = false;
    }
    EXPECT_EQ(package, schema) << "'" << name << "'";
  }
}

TEST(FortranArgs, BlankPaddedStringsAndDimNames) {
  EXPECT_EQ(fortran_string("T2   ", 5), "T2");
  EXPECT_EQ(fortran_string("  XZY  ", 7, /*adjust_left=*/true), "XZY");
  EXPECT_EQ(fortran_string("  XZY  ", 7), "  XZY");
  EXPECT_EQ(fortran_string(std::string("ab\0\0", 4).c_str(), 4), "ab");
  EXPECT_EQ(fortran_string("abc", -3), "");
  EXPECT_EQ(fortran_string(nullptr, 4), "");
  EXPECT_EQ(fortran_string("    ", 4, true), "");

  const std::string dims = "west_east   bottom_top  south_north ";
  const int ds[3] = {1, 1, 1}, de[3] = {13, 10, 5}, ms[3] = {-2, 1, 0}, me[3] = {10, 10, 8}, ps[3] = {1, 1, 3},
            pe[3] = {7, 10, 5};
  const RawFieldArgs a = field_args({"2001-01-01_00:05:00", 19}, {"T    ", 5}, 104, 0, {" XZY", 4}, {"  ", 2},
                                    dims.c_str(), 12, {ds, de, ms, me, ps, pe});
  EXPECT_EQ(a.var, "T");
  EXPECT_EQ(a.memory_order, "XZY");
  EXPECT_EQ(a.stagger, "");
  EXPECT_EQ(a.dim_names[0], "west_east");
  EXPECT_EQ(a.dim_names[1], "bottom_top");
  EXPECT_EQ(a.dim_names[2], "south_north");
  EXPECT_EQ(a.memory_start[0], -2);
  EXPECT_EQ(a.patch_end[2], 5);
  EXPECT_EQ(parse_field_call(a).patch_box(), parse_field_call(t_field()).patch_box());
}

TEST(FortranArgs, Attributes) {
  const int ints[2] = {7, 8};
  const double dbl[1] = {2.5};
  EXPECT_EQ(attribute_args("", "WEST-EAST_GRID_DIMENSION", 1, ints, 2),
            (Attribute{"WEST-EAST_GRID_DIMENSION", std::vector<std::int32_t>{7, 8}}));
  EXPECT_EQ(attribute_args("", "DT", 3, dbl, 1), (Attribute{"DT", std::vector<double>{2.5}}));
  EXPECT_EQ(attribute_args("", "TITLE", 0, "A TITLE   ", 10), (Attribute{"TITLE", std::string("A TITLE")}));
  EXPECT_EQ(attribute_args("", "EMPTY", 0, "", 0), (Attribute{"EMPTY", std::string()}));
  EXPECT_EQ(attribute_args("T", "stagger", 0, " ", 1), (Attribute{"stagger", std::string(1, '\0')}));

  const auto status = [](const std::string& owner, const std::string& name, int kind, const void* data, int count,
                         const std::string& named) {
    try {
      (void)attribute_args(owner, name, kind, data, count);
    } catch (const WrfError& e) {
      EXPECT_TRUE(mentions(e.what(), named)) << e.what();
      return e.wrf_status();
    }
    return st::kNoErr;
  };
  EXPECT_EQ(status("", "DX", 4, dbl, 1, "kind 4"), st::kBadDataType);
  EXPECT_EQ(status("", "DX", -1, dbl, 1, "kind -1"), st::kBadDataType);
  EXPECT_EQ(status("", "DX", 2, dbl, 0, "Count 0"), st::kLengthLessThan1);
  EXPECT_EQ(status("", "TITLE", 0, "x", -5, "Count -5"), st::kLengthLessThan1);
  EXPECT_EQ(status("", "DX", 2, nullptr, 3, "Count 3"), st::kLengthLessThan1);
  EXPECT_EQ(status("", "A/B", 1, ints, 1, "'A/B'"), st::kNotSupported);
  EXPECT_EQ(status("U", "", 1, ints, 1, "attribute of variable 'U'"), st::kNotSupported);
  EXPECT_EQ(status("", "-X", 1, ints, 1, "'-X'"), st::kNotSupported);
  EXPECT_EQ(status("", "X ", 1, ints, 1, "blank"), st::kNotSupported);
  EXPECT_EQ(status("", std::string(300, 'A'), 1, ints, 1, "NC_MAX_NAME"), st::kCharStringTooLong);
}

// Attribute names: the package and the Schema agree, as for variables.
TEST(FortranArgs, TheAttributeNameRuleIsTheSchemas) {
  const int one = 1;
  const std::vector<std::string> names = {"DX", "WEST-EAST_GRID_DIMENSION", "_a", "1x", "A/B", "", "X ", " X",
                                          "-X", std::string(256, 'a'), std::string(257, 'a'), "a\nb", "a b"};
  for (const std::string& name : names) {
    bool package = true, schema = true;
    try {
      (void)attribute_args("", name, 1, &one, 1);
    } catch (const WrfError&) {
      package = false;
    }
    try {
      Schema s;
      s.set_global_attribute({name, std::vector<std::int32_t>{1}});
    } catch (const Error&) {
      schema = false;
    }
    EXPECT_EQ(package, schema) << "'" << name << "'";
  }
}

}  // namespace
}  // namespace nwpio::wrfio
