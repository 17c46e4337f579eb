// The WRF history table (wrf::history_schema) against the header of a real WRF V4.4.1 wrfout
// file: every variable (name, order, type, dimensions, attributes) and every global attribute
// must be identical when the schema is built with the real run's settings.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <type_traits>
#include <variant>

#include "nc_reader.hpp"
#include "nwpio/error.hpp"
#include "nwpio/wrf_conventions.hpp"
#include "nwpio_model/wrf_history.hpp"

namespace {

using nwpio::test::NcAttribute;
using nwpio::test::NcHeader;

const NcHeader& reference() {
  static const NcHeader header = nwpio::test::read_header(NWPIO_REFERENCE_NC);
  return header;
}

const NcAttribute& global(const NcHeader& h, const std::string& name) {
  for (const auto& a : h.global_attributes) {
    if (a.name == name) return a;
  }
  throw std::runtime_error("reference has no global attribute " + name);
}

NcAttribute to_nc(const nwpio::Attribute& attribute) {
  NcAttribute out;
  out.name = attribute.name;
  std::visit(
      [&](const auto& v) {
        using V = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<V, std::string>) {
          out.type = NC_CHAR;
          out.length = v.size();
          out.bytes.assign(v.begin(), v.end());
        } else {
          using T = typename V::value_type;
          out.type = std::is_same_v<T, float> ? NC_FLOAT : std::is_same_v<T, double> ? NC_DOUBLE : NC_INT;
          out.length = v.size();
          out.bytes.resize(v.size() * sizeof(T));
          if (!v.empty()) std::memcpy(out.bytes.data(), v.data(), out.bytes.size());
        }
      },
      attribute.value);
  return out;
}

nc_type nc_type_of(nwpio::DataType type) {
  switch (type) {
    case nwpio::DataType::Float: return NC_FLOAT;
    case nwpio::DataType::Double: return NC_DOUBLE;
    case nwpio::DataType::Int: return NC_INT;
    case nwpio::DataType::Char: return NC_CHAR;
  }
  return NC_NAT;
}

// The settings of the real run, read from its own header.
nwpio::wrf::HistorySchemaOptions reference_options() {
  const NcHeader& h = reference();
  nwpio::wrf::HistorySchemaOptions o;
  o.e_we = global(h, "WEST-EAST_GRID_DIMENSION").as_int();
  o.e_sn = global(h, "SOUTH-NORTH_GRID_DIMENSION").as_int();
  o.e_vert = global(h, "BOTTOM-TOP_GRID_DIMENSION").as_int();
  o.start_date = global(h, "START_DATE").text();
  o.simulation_start_date = global(h, "SIMULATION_START_DATE").text();
  o.dx = global(h, "DX").as_float();
  o.dy = global(h, "DY").as_float();
  o.time_step = global(h, "DT").as_float();
  o.nproc_x = global(h, "NTASKS_X").as_int();
  o.nproc_y = global(h, "NTASKS_Y").as_int();
  for (const auto& d : h.dims) {
    if (d.name == "soil_layers_stag") o.num_soil_layers = static_cast<int>(d.length);
    if (d.name == "seed_dim_stag") o.seed_dim = static_cast<int>(d.length);
  }
  return o;
}

void expect_variables_match(const nwpio::Schema& schema) {
  const NcHeader& h = reference();
  ASSERT_EQ(h.vars.size(), schema.variables().size() + 1);
  ASSERT_EQ(static_cast<int>(schema.variables().size()), nwpio::wrf::kHistoryVariableCount);
  EXPECT_EQ(h.vars[0].name, "Times");
  for (std::size_t s = 0; s < schema.variables().size(); ++s) {
    const nwpio::VarSpec& spec = schema.variables()[s];
    const auto& ref = h.vars[s + 1];
    SCOPED_TRACE("variable " + ref.name);
    EXPECT_EQ(spec.name, ref.name);
    EXPECT_EQ(nc_type_of(spec.type), ref.type);
    EXPECT_EQ(nwpio::wrf::file_dimensions(spec), ref.dims);
    ASSERT_EQ(spec.attributes.size(), ref.attributes.size());
    for (std::size_t a = 0; a < spec.attributes.size(); ++a) {
      EXPECT_EQ(to_nc(spec.attributes[a]), ref.attributes[a]) << "attribute " << ref.attributes[a].name;
    }
  }
}

TEST(WrfHistory, VariablesAreThoseOfTheRealHeader) {
  expect_variables_match(nwpio::wrf::history_schema(reference_options()));
}

TEST(WrfHistory, MemoryOrderXyzWritesTheSameFile) {
  auto o = reference_options();
  o.order_3d = nwpio::MemoryOrder::XYZ;
  expect_variables_match(nwpio::wrf::history_schema(o));
}

TEST(WrfHistory, GlobalAttributesAreThoseOfTheRealHeader) {
  const auto schema = nwpio::wrf::history_schema(reference_options());
  const auto& ref = reference().global_attributes;
  ASSERT_EQ(schema.global_attributes().size(), ref.size());
  for (std::size_t a = 0; a < ref.size(); ++a) {
    EXPECT_EQ(to_nc(schema.global_attributes()[a]), ref[a]) << "global attribute " << ref[a].name;
  }
}

TEST(WrfHistory, ExtraDimensionsAreSoilAndSeed) {
  const auto o = reference_options();
  const auto schema = nwpio::wrf::history_schema(o);
  const auto* soil = schema.find_dimension("soil_layers_stag");
  const auto* seed = schema.find_dimension("seed_dim_stag");
  ASSERT_NE(soil, nullptr);
  ASSERT_NE(seed, nullptr);
  EXPECT_EQ(soil->length, o.num_soil_layers);
  EXPECT_EQ(seed->length, o.seed_dim);
}

TEST(WrfHistory, RunDependentAttributesFollowTheOptions) {
  nwpio::wrf::HistorySchemaOptions o;
  o.e_we = 61;
  o.e_sn = 47;
  o.e_vert = 11;
  o.start_date = "2020-03-01_06:30:00";  // a leap year: day 61
  o.nproc_x = 2;
  o.nproc_y = 3;
  const auto atts = nwpio::wrf::history_global_attributes(o);
  auto find = [&](const std::string& name) {
    for (const auto& a : atts) {
      if (a.name == name) return to_nc(a);
    }
    return NcAttribute{};
  };
  EXPECT_EQ(find("WEST-EAST_GRID_DIMENSION").as_int(), 61);
  EXPECT_EQ(find("SOUTH-NORTH_PATCH_END_UNSTAG").as_int(), 46);
  EXPECT_EQ(find("BOTTOM-TOP_PATCH_END_STAG").as_int(), 11);
  EXPECT_EQ(find("NTASKS_TOTAL").as_int(), 6);
  EXPECT_EQ(find("JULYR").as_int(), 2020);
  EXPECT_EQ(find("JULDAY").as_int(), 31 + 29 + 1);
  EXPECT_EQ(find("GMT").as_float(), 6.5f);
  EXPECT_EQ(find("START_DATE").text(), o.start_date);
  EXPECT_EQ(find("SIMULATION_START_DATE").text(), o.start_date);
}

// XTIME counts from the simulation start (a restart keeps the first run's), as WRF's
// output_wrf.F writes it: "minutes since" and the date with a space for the '_'.
TEST(WrfHistory, XtimeUnitsNameTheSimulationStart) {
  nwpio::wrf::HistorySchemaOptions o;
  o.start_date = "2020-01-01_06:00:00";
  o.simulation_start_date = "2019-12-31_23:30:00";
  const auto schema = nwpio::wrf::history_schema(o);
  const nwpio::VarSpec* xtime = schema.find("XTIME");
  ASSERT_NE(xtime, nullptr);
  for (const char* name : {"description", "units"}) {
    const nwpio::Attribute* a = nwpio::find_attribute(xtime->attributes, name);
    ASSERT_NE(a, nullptr) << name;
    EXPECT_EQ(std::get<std::string>(a->value), "minutes since 2019-12-31 23:30:00") << name;
  }
  const auto atts = nwpio::wrf::history_global_attributes(o);
  auto text = [&](const std::string& name) {
    for (const auto& a : atts) {
      if (a.name == name) return std::get<std::string>(a.value);
    }
    return std::string();
  };
  EXPECT_EQ(text("START_DATE"), o.start_date);
  EXPECT_EQ(text("SIMULATION_START_DATE"), o.simulation_start_date);
  auto julian = [&](const std::string& name) {
    for (const auto& a : atts) {
      if (a.name == name) return to_nc(a);
    }
    return NcAttribute{};
  };
  // JULYR, JULDAY and GMT follow the simulation start, as WRF's (from real.exe's wrfinput).
  EXPECT_EQ(julian("JULYR").as_int(), 2019);
  EXPECT_EQ(julian("JULDAY").as_int(), 365);
  EXPECT_EQ(julian("GMT").as_float(), 23.5f);
}

TEST(WrfHistory, BadSettingsAreErrors) {
  nwpio::wrf::HistorySchemaOptions o;
  o.start_date = "2019-13-01_00:00:00";
  EXPECT_THROW(nwpio::wrf::history_schema(o), nwpio::Error);
  o = {};
  o.e_vert = 1;
  EXPECT_THROW(nwpio::wrf::history_schema(o), nwpio::Error);
  o = {};
  o.order_3d = nwpio::MemoryOrder::XY;
  EXPECT_THROW(nwpio::wrf::history_schema(o), nwpio::Error);
}

}  // namespace
