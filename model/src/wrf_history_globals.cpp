// The global attributes of a real WRF V4.4.1 history file, in the file's order. Physics and
// map settings are those of the real header (a CONUS-like Lambert conformal run); the
// attributes that depend on the run (dates, grid size, DX, DY, DT, tasks) come from
// HistorySchemaOptions.
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "nwpio/error.hpp"
#include "nwpio/wrf_date.hpp"
#include "nwpio_model/wrf_history.hpp"

namespace nwpio::wrf {
namespace {

enum class Kind : unsigned char { kInt, kReal, kText };
constexpr Kind kInt = Kind::kInt;
constexpr Kind kReal = Kind::kReal;
constexpr Kind kText = Kind::kText;

struct GlobalRow {
  const char* name;
  Kind kind;
  double number;     // kInt, kReal (written as NC_FLOAT, as WRF does)
  const char* text;  // kText
};

// Values of the real header; the run-dependent ones are replaced in history_global_attributes.
// clang-format off
constexpr std::array<GlobalRow, 134> kGlobals{{
    {"TITLE", kText, 0, " OUTPUT FROM WRF V4.4.1 MODEL"},
    {"START_DATE", kText, 0, "2022-06-22_00:00:00"},
    {"SIMULATION_START_DATE", kText, 0, "2022-06-22_00:00:00"},
    {"WEST-EAST_GRID_DIMENSION", kInt, 1901, nullptr},
    {"SOUTH-NORTH_GRID_DIMENSION", kInt, 1301, nullptr},
    {"BOTTOM-TOP_GRID_DIMENSION", kInt, 35, nullptr},
    {"DX", kReal, 2500., nullptr},
    {"DY", kReal, 2500., nullptr},
    {"AERCU_OPT", kInt, 0, nullptr},
    {"AERCU_FCT", kReal, 1., nullptr},
    {"IDEAL_CASE", kInt, 0, nullptr},
    {"DIFF_6TH_SLOPEOPT", kInt, 0, nullptr},
    {"AUTO_LEVELS_OPT", kInt, 2, nullptr},
    {"DIFF_6TH_THRESH", kReal, 0.1, nullptr},
    {"DZBOT", kReal, 50., nullptr},
    {"DZSTRETCH_S", kReal, 1.3, nullptr},
    {"DZSTRETCH_U", kReal, 1.1, nullptr},
    {"SKEBS_ON", kInt, 0, nullptr},
    {"USE_Q_DIABATIC", kInt, 0, nullptr},
    {"GRIDTYPE", kText, 0, "C"},
    {"DIFF_OPT", kInt, 1, nullptr},
    {"KM_OPT", kInt, 4, nullptr},
    {"DAMP_OPT", kInt, 3, nullptr},
    {"DAMPCOEF", kReal, 0.2, nullptr},
    {"KHDIF", kReal, 0., nullptr},
    {"KVDIF", kReal, 0., nullptr},
    {"MP_PHYSICS", kInt, 8, nullptr},
    {"RA_LW_PHYSICS", kInt, 4, nullptr},
    {"RA_SW_PHYSICS", kInt, 4, nullptr},
    {"SF_SFCLAY_PHYSICS", kInt, 2, nullptr},
    {"SF_SURFACE_PHYSICS", kInt, 2, nullptr},
    {"BL_PBL_PHYSICS", kInt, 2, nullptr},
    {"CU_PHYSICS", kInt, 0, nullptr},
    {"SF_LAKE_PHYSICS", kInt, 0, nullptr},
    {"SURFACE_INPUT_SOURCE", kInt, 3, nullptr},
    {"SST_UPDATE", kInt, 0, nullptr},
    {"GHG_INPUT", kInt, 1, nullptr},
    {"GRID_FDDA", kInt, 0, nullptr},
    {"GFDDA_INTERVAL_M", kInt, 0, nullptr},
    {"GFDDA_END_H", kInt, 0, nullptr},
    {"GRID_SFDDA", kInt, 0, nullptr},
    {"SGFDDA_INTERVAL_M", kInt, 0, nullptr},
    {"SGFDDA_END_H", kInt, 0, nullptr},
    {"HYPSOMETRIC_OPT", kInt, 2, nullptr},
    {"USE_THETA_M", kInt, 1, nullptr},
    {"GWD_OPT", kInt, 0, nullptr},
    {"SF_URBAN_PHYSICS", kInt, 0, nullptr},
    {"SF_SURFACE_MOSAIC", kInt, 0, nullptr},
    {"SF_OCEAN_PHYSICS", kInt, 0, nullptr},
    {"SHCU_PHYSICS", kInt, 0, nullptr},
    {"MFSHCONV", kInt, 0, nullptr},
    {"FEEDBACK", kInt, 1, nullptr},
    {"SMOOTH_OPTION", kInt, 0, nullptr},
    {"SWRAD_SCAT", kReal, 1., nullptr},
    {"W_DAMPING", kInt, 1, nullptr},
    {"DT", kReal, 15., nullptr},
    {"RADT", kReal, 10., nullptr},
    {"BLDT", kReal, 0., nullptr},
    {"CUDT", kReal, 5., nullptr},
    {"AER_OPT", kInt, 0, nullptr},
    {"SWINT_OPT", kInt, 0, nullptr},
    {"AER_TYPE", kInt, 1, nullptr},
    {"AER_AOD550_OPT", kInt, 1, nullptr},
    {"AER_ANGEXP_OPT", kInt, 1, nullptr},
    {"AER_SSA_OPT", kInt, 1, nullptr},
    {"AER_ASY_OPT", kInt, 1, nullptr},
    {"AER_AOD550_VAL", kReal, 0.12, nullptr},
    {"AER_ANGEXP_VAL", kReal, 1.3, nullptr},
    {"AER_SSA_VAL", kReal, 0.85, nullptr},
    {"AER_ASY_VAL", kReal, 0.9, nullptr},
    {"MOIST_ADV_OPT", kInt, 1, nullptr},
    {"SCALAR_ADV_OPT", kInt, 1, nullptr},
    {"TKE_ADV_OPT", kInt, 1, nullptr},
    {"DIFF_6TH_OPT", kInt, 0, nullptr},
    {"DIFF_6TH_FACTOR", kReal, 0.12, nullptr},
    {"OBS_NUDGE_OPT", kInt, 0, nullptr},
    {"BUCKET_MM", kReal, -1., nullptr},
    {"BUCKET_J", kReal, -1., nullptr},
    {"PREC_ACC_DT", kReal, 0., nullptr},
    {"ISFTCFLX", kInt, 2, nullptr},
    {"ISHALLOW", kInt, 0, nullptr},
    {"ISFFLX", kInt, 1, nullptr},
    {"ICLOUD", kInt, 1, nullptr},
    {"ICLOUD_CU", kInt, 0, nullptr},
    {"TRACER_PBLMIX", kInt, 1, nullptr},
    {"SCALAR_PBLMIX", kInt, 0, nullptr},
    {"YSU_TOPDOWN_PBLMIX", kInt, 1, nullptr},
    {"GRAV_SETTLING", kInt, 0, nullptr},
    {"CLDOVRLP", kInt, 2, nullptr},
    {"IDCOR", kInt, 0, nullptr},
    {"DFI_OPT", kInt, 0, nullptr},
    {"NTASKS_X", kInt, 32, nullptr},
    {"NTASKS_Y", kInt, 64, nullptr},
    {"NTASKS_TOTAL", kInt, 2048, nullptr},
    {"SIMULATION_INITIALIZATION_TYPE", kText, 0, "REAL-DATA CASE"},
    {"WEST-EAST_PATCH_START_UNSTAG", kInt, 1, nullptr},
    {"WEST-EAST_PATCH_END_UNSTAG", kInt, 1900, nullptr},
    {"WEST-EAST_PATCH_START_STAG", kInt, 1, nullptr},
    {"WEST-EAST_PATCH_END_STAG", kInt, 1901, nullptr},
    {"SOUTH-NORTH_PATCH_START_UNSTAG", kInt, 1, nullptr},
    {"SOUTH-NORTH_PATCH_END_UNSTAG", kInt, 1300, nullptr},
    {"SOUTH-NORTH_PATCH_START_STAG", kInt, 1, nullptr},
    {"SOUTH-NORTH_PATCH_END_STAG", kInt, 1301, nullptr},
    {"BOTTOM-TOP_PATCH_START_UNSTAG", kInt, 1, nullptr},
    {"BOTTOM-TOP_PATCH_END_UNSTAG", kInt, 34, nullptr},
    {"BOTTOM-TOP_PATCH_START_STAG", kInt, 1, nullptr},
    {"BOTTOM-TOP_PATCH_END_STAG", kInt, 35, nullptr},
    {"GRID_ID", kInt, 1, nullptr},
    {"PARENT_ID", kInt, 0, nullptr},
    {"I_PARENT_START", kInt, 1, nullptr},
    {"J_PARENT_START", kInt, 1, nullptr},
    {"PARENT_GRID_RATIO", kInt, 1, nullptr},
    {"CEN_LAT", kReal, 40.00001, nullptr},
    {"CEN_LON", kReal, -98., nullptr},
    {"TRUELAT1", kReal, 30., nullptr},
    {"TRUELAT2", kReal, 60., nullptr},
    {"MOAD_CEN_LAT", kReal, 40.00001, nullptr},
    {"STAND_LON", kReal, -98., nullptr},
    {"POLE_LAT", kReal, 90., nullptr},
    {"POLE_LON", kReal, 0., nullptr},
    {"GMT", kReal, 0., nullptr},
    {"JULYR", kInt, 2022, nullptr},
    {"JULDAY", kInt, 173, nullptr},
    {"MAP_PROJ", kInt, 1, nullptr},
    {"MAP_PROJ_CHAR", kText, 0, "Lambert Conformal"},
    {"MMINLU", kText, 0, "MODIFIED_IGBP_MODIS_NOAH"},
    {"NUM_LAND_CAT", kInt, 21, nullptr},
    {"ISWATER", kInt, 17, nullptr},
    {"ISLAKE", kInt, 21, nullptr},
    {"ISICE", kInt, 15, nullptr},
    {"ISURBAN", kInt, 13, nullptr},
    {"ISOILWATER", kInt, 14, nullptr},
    {"HYBRID_OPT", kInt, 2, nullptr},
    {"ETAC", kReal, 0.2, nullptr},
}};
// clang-format on

Attribute make(const GlobalRow& row) {
  switch (row.kind) {
    case Kind::kInt: return {row.name, std::vector<std::int32_t>{static_cast<std::int32_t>(row.number)}};
    case Kind::kReal: return {row.name, std::vector<float>{static_cast<float>(row.number)}};
    case Kind::kText: return {row.name, std::string(row.text)};
  }
  return {row.name, std::string()};
}

void set(std::vector<Attribute>& attributes, std::string_view name, AttributeValue value) {
  for (auto& attribute : attributes) {
    if (attribute.name == name) {
      attribute.value = std::move(value);
      return;
    }
  }
  throw Error(ErrorKind::Internal, "history_global_attributes: no attribute " + std::string(name));
}

AttributeValue int_value(std::int64_t v) { return std::vector<std::int32_t>{static_cast<std::int32_t>(v)}; }
AttributeValue real_value(double v) { return std::vector<float>{static_cast<float>(v)}; }

}  // namespace

std::string simulation_start_date(const HistorySchemaOptions& options) {
  return options.simulation_start_date.empty() ? options.start_date : options.simulation_start_date;
}

std::vector<Attribute> history_global_attributes(const HistorySchemaOptions& options) {
  if (options.e_we < 2 || options.e_sn < 2 || options.e_vert < 2) {
    throw Error(ErrorKind::InvalidArgument,
                "history_schema: e_we, e_sn, e_vert must be at least 2 (staggered counts), got " +
                    std::to_string(options.e_we) + " " + std::to_string(options.e_sn) + " " +
                    std::to_string(options.e_vert));
  }
  const std::string& start = options.start_date;
  const std::string simulation_start = simulation_start_date(options);
  (void)date_to_seconds(start);  // validates; throws naming the date and what is wrong
  const JulianDate julian = julian_date(simulation_start);

  std::vector<Attribute> attributes;
  attributes.reserve(kGlobals.size());
  for (const GlobalRow& row : kGlobals) attributes.push_back(make(row));

  set(attributes, "START_DATE", start);
  set(attributes, "SIMULATION_START_DATE", simulation_start);
  set(attributes, "WEST-EAST_GRID_DIMENSION", int_value(options.e_we));
  set(attributes, "SOUTH-NORTH_GRID_DIMENSION", int_value(options.e_sn));
  set(attributes, "BOTTOM-TOP_GRID_DIMENSION", int_value(options.e_vert));
  set(attributes, "DX", real_value(options.dx));
  set(attributes, "DY", real_value(options.dy));
  set(attributes, "DT", real_value(options.time_step));
  set(attributes, "NTASKS_X", int_value(options.nproc_x));
  set(attributes, "NTASKS_Y", int_value(options.nproc_y));
  set(attributes, "NTASKS_TOTAL", int_value(std::int64_t{options.nproc_x} * options.nproc_y));
  // A history file holds the whole domain: patch = domain, 1-based inclusive as WRF writes it.
  set(attributes, "WEST-EAST_PATCH_START_UNSTAG", int_value(1));
  set(attributes, "WEST-EAST_PATCH_END_UNSTAG", int_value(options.e_we - 1));
  set(attributes, "WEST-EAST_PATCH_START_STAG", int_value(1));
  set(attributes, "WEST-EAST_PATCH_END_STAG", int_value(options.e_we));
  set(attributes, "SOUTH-NORTH_PATCH_START_UNSTAG", int_value(1));
  set(attributes, "SOUTH-NORTH_PATCH_END_UNSTAG", int_value(options.e_sn - 1));
  set(attributes, "SOUTH-NORTH_PATCH_START_STAG", int_value(1));
  set(attributes, "SOUTH-NORTH_PATCH_END_STAG", int_value(options.e_sn));
  set(attributes, "BOTTOM-TOP_PATCH_START_UNSTAG", int_value(1));
  set(attributes, "BOTTOM-TOP_PATCH_END_UNSTAG", int_value(options.e_vert - 1));
  set(attributes, "BOTTOM-TOP_PATCH_START_STAG", int_value(1));
  set(attributes, "BOTTOM-TOP_PATCH_END_STAG", int_value(options.e_vert));
  set(attributes, "GMT", std::vector<float>{julian.gmt});
  set(attributes, "JULYR", int_value(julian.julyr));
  set(attributes, "JULDAY", int_value(julian.julday));
  return attributes;
}

}  // namespace nwpio::wrf
