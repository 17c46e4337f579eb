// The 201 data variables of a real WRF V4.4.1 history file, in the file's order, and the
// function that turns them into nwpio's Schema. Each row was taken once from the header of a
// real wrfout file (ncdump -h); the WRF convention layer (wrf::variable) derives FieldType,
// MemoryOrder and coordinates from the row's shape and stagger, and the few places where the
// real header differs from that rule are spelled out in the row (coordinates without XTIME on
// the XLAT/XLONG fields).
#include <array>
#include <string>
#include <variant>

#include "nwpio/error.hpp"
#include "nwpio/schema.hpp"
#include "nwpio/wrf_conventions.hpp"
#include "nwpio/wrf_date.hpp"
#include "nwpio_model/wrf_history.hpp"

namespace nwpio::wrf {
namespace {

// Shape of a field as the model holds it; 3-D fields take HistorySchemaOptions::order_3d.
enum class Shape : unsigned char { k3D, kXY, kZ, kScalar };

struct Row {
  const char* name;
  DataType type;
  Shape shape;
  Stagger stagger;
  const char* vertical_dim;  // nullptr: the model's vertical grid (bottom_top / bottom_top_stag)
  const char* description;
  const char* units;
  const char* coordinates;   // nullptr: WRF's rule (wrf::coordinates); else the header's text
};

constexpr DataType kF = DataType::Float;
constexpr DataType kI = DataType::Int;
constexpr Shape k3D = Shape::k3D;
constexpr Shape kXY = Shape::kXY;
constexpr Shape kZ = Shape::kZ;
constexpr Shape kScalar = Shape::kScalar;
constexpr Stagger kNone = Stagger::None;
constexpr Stagger kX = Stagger::X;
constexpr Stagger kY = Stagger::Y;
constexpr Stagger kZs = Stagger::Z;

// clang-format off
constexpr std::array<Row, kHistoryVariableCount> kRows{{
    {"XLAT", kF, kXY, kNone, nullptr, "LATITUDE, SOUTH IS NEGATIVE", "degree_north", "XLONG XLAT"},
    {"XLONG", kF, kXY, kNone, nullptr, "LONGITUDE, WEST IS NEGATIVE", "degree_east", "XLONG XLAT"},
    {"LU_INDEX", kF, kXY, kNone, nullptr, "LAND USE CATEGORY", "", nullptr},
    {"ZNU", kF, kZ, kNone, nullptr, "eta values on half (mass) levels", "", nullptr},
    {"ZNW", kF, kZ, kZs, nullptr, "eta values on full (w) levels", "", nullptr},
    {"ZS", kF, kZ, kZs, "soil_layers_stag", "DEPTHS OF CENTERS OF SOIL LAYERS", "m", nullptr},
    {"DZS", kF, kZ, kZs, "soil_layers_stag", "THICKNESSES OF SOIL LAYERS", "m", nullptr},
    {"VAR_SSO", kF, kXY, kNone, nullptr, "variance of subgrid-scale orography", "m2", nullptr},
    {"BATHYMETRY_FLAG", kI, kScalar, kNone, nullptr,
     "Flag for bathymetry in the global attributes for metgrid data", "-", nullptr},
    {"U", kF, k3D, kX, nullptr, "x-wind component", "m s-1", nullptr},
    {"V", kF, k3D, kY, nullptr, "y-wind component", "m s-1", nullptr},
    {"W", kF, k3D, kZs, nullptr, "z-wind component", "m s-1", nullptr},
    {"PH", kF, k3D, kZs, nullptr, "perturbation geopotential", "m2 s-2", nullptr},
    {"PHB", kF, k3D, kZs, nullptr, "base-state geopotential", "m2 s-2", nullptr},
    {"T", kF, k3D, kNone, nullptr, "perturbation potential temperature theta-t0", "K", nullptr},
    {"THM", kF, k3D, kNone, nullptr,
     "either 1) pert moist pot temp=(1+Rv/Rd Qv)*(theta)-T0, or 2) pert dry pot temp=t", "K", nullptr},
    {"HFX_FORCE", kF, kScalar, kNone, nullptr,
     "SCM ideal surface sensible heat flux", "W m-2", nullptr},
    {"LH_FORCE", kF, kScalar, kNone, nullptr,
     "SCM ideal surface latent heat flux", "W m-2", nullptr},
    {"TSK_FORCE", kF, kScalar, kNone, nullptr,
     "SCM ideal surface skin temperature", "W m-2", nullptr},
    {"HFX_FORCE_TEND", kF, kScalar, kNone, nullptr,
     "SCM ideal surface sensible heat flux tendency", "W m-2 s-1", nullptr},
    {"LH_FORCE_TEND", kF, kScalar, kNone, nullptr,
     "SCM ideal surface latent heat flux tendency", "W m-2 s-1", nullptr},
    {"TSK_FORCE_TEND", kF, kScalar, kNone, nullptr,
     "SCM ideal surface skin temperature tendency", "W m-2 s-1", nullptr},
    {"MU", kF, kXY, kNone, nullptr, "perturbation dry air mass in column", "Pa", nullptr},
    {"MUB", kF, kXY, kNone, nullptr, "base state dry air mass in column", "Pa", nullptr},
    {"NEST_POS", kF, kXY, kNone, nullptr, "-", "-", nullptr},
    {"P", kF, k3D, kNone, nullptr, "perturbation pressure", "Pa", nullptr},
    {"PB", kF, k3D, kNone, nullptr, "BASE STATE PRESSURE", "Pa", nullptr},
    {"FNM", kF, kZ, kNone, nullptr, "upper weight for vertical stretching", "", nullptr},
    {"FNP", kF, kZ, kNone, nullptr, "lower weight for vertical stretching", "", nullptr},
    {"RDNW", kF, kZ, kNone, nullptr, "inverse d(eta) values between full (w) levels", "", nullptr},
    {"RDN", kF, kZ, kNone, nullptr,
     "inverse d(eta) values between half (mass) levels", "", nullptr},
    {"DNW", kF, kZ, kNone, nullptr, "d(eta) values between full (w) levels", "", nullptr},
    {"DN", kF, kZ, kNone, nullptr, "d(eta) values between half (mass) levels", "", nullptr},
    {"CFN", kF, kScalar, kNone, nullptr, "extrapolation constant", "", nullptr},
    {"CFN1", kF, kScalar, kNone, nullptr, "extrapolation constant", "", nullptr},
    {"THIS_IS_AN_IDEAL_RUN", kI, kScalar, kNone, nullptr,
     "T/F flag: this is an ARW ideal simulation", "-", nullptr},
    {"P_HYD", kF, k3D, kNone, nullptr, "hydrostatic pressure", "Pa", nullptr},
    {"Q2", kF, kXY, kNone, nullptr, "QV at 2 M", "kg kg-1", nullptr},
    {"T2", kF, kXY, kNone, nullptr, "TEMP at 2 M", "K", nullptr},
    {"TH2", kF, kXY, kNone, nullptr, "POT TEMP at 2 M", "K", nullptr},
    {"PSFC", kF, kXY, kNone, nullptr, "SFC PRESSURE", "Pa", nullptr},
    {"U10", kF, kXY, kNone, nullptr, "U at 10 M", "m s-1", nullptr},
    {"V10", kF, kXY, kNone, nullptr, "V at 10 M", "m s-1", nullptr},
    {"RDX", kF, kScalar, kNone, nullptr, "INVERSE X GRID LENGTH", "m-1", nullptr},
    {"RDY", kF, kScalar, kNone, nullptr, "INVERSE Y GRID LENGTH", "m-1", nullptr},
    {"AREA2D", kF, kXY, kNone, nullptr,
     "Horizontal grid cell area, using dx, dy, and map factors", "m2", nullptr},
    {"DX2D", kF, kXY, kNone, nullptr, "Horizontal grid distance: sqrt(area2d)", "m", nullptr},
    {"RESM", kF, kScalar, kNone, nullptr, "TIME WEIGHT CONSTANT FOR SMALL STEPS", "", nullptr},
    {"ZETATOP", kF, kScalar, kNone, nullptr, "ZETA AT MODEL TOP", "", nullptr},
    {"CF1", kF, kScalar, kNone, nullptr, "2nd order extrapolation constant", "", nullptr},
    {"CF2", kF, kScalar, kNone, nullptr, "2nd order extrapolation constant", "", nullptr},
    {"CF3", kF, kScalar, kNone, nullptr, "2nd order extrapolation constant", "", nullptr},
    {"ITIMESTEP", kI, kScalar, kNone, nullptr, "", "", nullptr},
    // XTIME's description and units name the simulation start: set in history_schema.
    {"XTIME", kF, kScalar, kNone, nullptr, "minutes since", "minutes since", nullptr},
    {"QVAPOR", kF, k3D, kNone, nullptr, "Water vapor mixing ratio", "kg kg-1", nullptr},
    {"QCLOUD", kF, k3D, kNone, nullptr, "Cloud water mixing ratio", "kg kg-1", nullptr},
    {"QRAIN", kF, k3D, kNone, nullptr, "Rain water mixing ratio", "kg kg-1", nullptr},
    {"QICE", kF, k3D, kNone, nullptr, "Ice mixing ratio", "kg kg-1", nullptr},
    {"QSNOW", kF, k3D, kNone, nullptr, "Snow mixing ratio", "kg kg-1", nullptr},
    {"QGRAUP", kF, k3D, kNone, nullptr, "Graupel mixing ratio", "kg kg-1", nullptr},
    {"QNICE", kF, k3D, kNone, nullptr, "Ice Number concentration", "  kg-1", nullptr},
    {"QNRAIN", kF, k3D, kNone, nullptr, "Rain Number concentration", "  kg(-1)", nullptr},
    {"SHDMAX", kF, kXY, kNone, nullptr, "ANNUAL MAX VEG FRACTION", "", nullptr},
    {"SHDMIN", kF, kXY, kNone, nullptr, "ANNUAL MIN VEG FRACTION", "", nullptr},
    {"SNOALB", kF, kXY, kNone, nullptr, "ANNUAL MAX SNOW ALBEDO IN FRACTION", "", nullptr},
    {"TSLB", kF, k3D, kZs, "soil_layers_stag", "SOIL TEMPERATURE", "K", nullptr},
    {"SMOIS", kF, k3D, kZs, "soil_layers_stag", "SOIL MOISTURE", "m3 m-3", nullptr},
    {"SH2O", kF, k3D, kZs, "soil_layers_stag", "SOIL LIQUID WATER", "m3 m-3", nullptr},
    {"SMCREL", kF, k3D, kZs, "soil_layers_stag", "RELATIVE SOIL MOISTURE", "", nullptr},
    {"SEAICE", kF, kXY, kNone, nullptr, "SEA ICE FLAG", "", nullptr},
    {"XICEM", kF, kXY, kNone, nullptr, "SEA ICE FLAG (PREVIOUS STEP)", "", nullptr},
    {"SFROFF", kF, kXY, kNone, nullptr, "SURFACE RUNOFF", "mm", nullptr},
    {"UDROFF", kF, kXY, kNone, nullptr, "UNDERGROUND RUNOFF", "mm", nullptr},
    {"IVGTYP", kI, kXY, kNone, nullptr, "DOMINANT VEGETATION CATEGORY", "", nullptr},
    {"ISLTYP", kI, kXY, kNone, nullptr, "DOMINANT SOIL CATEGORY", "", nullptr},
    {"VEGFRA", kF, kXY, kNone, nullptr, "VEGETATION FRACTION", "", nullptr},
    {"GRDFLX", kF, kXY, kNone, nullptr, "GROUND HEAT FLUX", "W m-2", nullptr},
    {"ACGRDFLX", kF, kXY, kNone, nullptr, "ACCUMULATED GROUND HEAT FLUX", "J m-2", nullptr},
    {"ACSNOM", kF, kXY, kNone, nullptr, "ACCUMULATED MELTED SNOW", "kg m-2", nullptr},
    {"SNOW", kF, kXY, kNone, nullptr, "SNOW WATER EQUIVALENT", "kg m-2", nullptr},
    {"SNOWH", kF, kXY, kNone, nullptr, "PHYSICAL SNOW DEPTH", "m", nullptr},
    {"CANWAT", kF, kXY, kNone, nullptr, "CANOPY WATER", "kg m-2", nullptr},
    {"SSTSK", kF, kXY, kNone, nullptr, "SKIN SEA SURFACE TEMPERATURE", "K", nullptr},
    {"WATER_DEPTH", kF, kXY, kNone, nullptr, "global water depth", "m", nullptr},
    {"COSZEN", kF, kXY, kNone, nullptr, "COS of SOLAR ZENITH ANGLE", "dimensionless", nullptr},
    {"LAI", kF, kXY, kNone, nullptr, "LEAF AREA INDEX", "m-2/m-2", nullptr},
    {"U10E", kF, kXY, kNone, nullptr, "Special U at 10 M from MYJSFC", "m s-1", nullptr},
    {"V10E", kF, kXY, kNone, nullptr, "Special V at 10 M from MYJSFC", "m s-1", nullptr},
    {"VAR", kF, kXY, kNone, nullptr, "STANDARD DEVIATION OF SUBGRID-SCALE OROGRAPHY", "m", nullptr},
    {"TKE_PBL", kF, k3D, kZs, nullptr, "TKE from PBL", "m2 s-2", nullptr},
    {"EL_PBL", kF, k3D, kZs, nullptr, "Length scale from PBL", "m", nullptr},
    {"MAPFAC_M", kF, kXY, kNone, nullptr, "Map scale factor on mass grid", "", nullptr},
    {"MAPFAC_U", kF, kXY, kX, nullptr, "Map scale factor on u-grid", "", nullptr},
    {"MAPFAC_V", kF, kXY, kY, nullptr, "Map scale factor on v-grid", "", nullptr},
    {"MAPFAC_MX", kF, kXY, kNone, nullptr,
     "Map scale factor on mass grid, x direction", "", nullptr},
    {"MAPFAC_MY", kF, kXY, kNone, nullptr,
     "Map scale factor on mass grid, y direction", "", nullptr},
    {"MAPFAC_UX", kF, kXY, kX, nullptr, "Map scale factor on u-grid, x direction", "", nullptr},
    {"MAPFAC_UY", kF, kXY, kX, nullptr, "Map scale factor on u-grid, y direction", "", nullptr},
    {"MAPFAC_VX", kF, kXY, kY, nullptr, "Map scale factor on v-grid, x direction", "", nullptr},
    {"MF_VX_INV", kF, kXY, kY, nullptr,
     "Inverse map scale factor on v-grid, x direction", "", nullptr},
    {"MAPFAC_VY", kF, kXY, kY, nullptr, "Map scale factor on v-grid, y direction", "", nullptr},
    {"F", kF, kXY, kNone, nullptr, "Coriolis sine latitude term", "s-1", nullptr},
    {"E", kF, kXY, kNone, nullptr, "Coriolis cosine latitude term", "s-1", nullptr},
    {"SINALPHA", kF, kXY, kNone, nullptr, "Local sine of map rotation", "", nullptr},
    {"COSALPHA", kF, kXY, kNone, nullptr, "Local cosine of map rotation", "", nullptr},
    {"HGT", kF, kXY, kNone, nullptr, "Terrain Height", "m", nullptr},
    {"TSK", kF, kXY, kNone, nullptr, "SURFACE SKIN TEMPERATURE", "K", nullptr},
    {"P_TOP", kF, kScalar, kNone, nullptr, "PRESSURE TOP OF THE MODEL", "Pa", nullptr},
    {"GOT_VAR_SSO", kI, kScalar, kNone, nullptr,
     "whether VAR_SSO was included in WPS output (beginning V3.4)", "", nullptr},
    {"T00", kF, kScalar, kNone, nullptr, "BASE STATE TEMPERATURE", "K", nullptr},
    {"P00", kF, kScalar, kNone, nullptr, "BASE STATE PRESSURE", "Pa", nullptr},
    {"TLP", kF, kScalar, kNone, nullptr, "BASE STATE LAPSE RATE", "", nullptr},
    {"TISO", kF, kScalar, kNone, nullptr, "TEMP AT WHICH THE BASE T TURNS CONST", "K", nullptr},
    {"TLP_STRAT", kF, kScalar, kNone, nullptr,
     "BASE STATE LAPSE RATE (DT/D(LN(P)) IN STRATOSPHERE", "K", nullptr},
    {"P_STRAT", kF, kScalar, kNone, nullptr,
     "BASE STATE PRESSURE AT BOTTOM OF STRATOSPHERE", "Pa", nullptr},
    {"MAX_MSFTX", kF, kScalar, kNone, nullptr, "Max map factor in domain", "", nullptr},
    {"MAX_MSFTY", kF, kScalar, kNone, nullptr, "Max map factor in domain", "", nullptr},
    {"RAINC", kF, kXY, kNone, nullptr, "ACCUMULATED TOTAL CUMULUS PRECIPITATION", "mm", nullptr},
    {"RAINSH", kF, kXY, kNone, nullptr, "ACCUMULATED SHALLOW CUMULUS PRECIPITATION", "mm", nullptr},
    {"RAINNC", kF, kXY, kNone, nullptr,
     "ACCUMULATED TOTAL GRID SCALE PRECIPITATION", "mm", nullptr},
    {"SNOWNC", kF, kXY, kNone, nullptr, "ACCUMULATED TOTAL GRID SCALE SNOW AND ICE", "mm", nullptr},
    {"GRAUPELNC", kF, kXY, kNone, nullptr, "ACCUMULATED TOTAL GRID SCALE GRAUPEL", "mm", nullptr},
    {"HAILNC", kF, kXY, kNone, nullptr, "ACCUMULATED TOTAL GRID SCALE HAIL", "mm", nullptr},
    {"CLDFRA", kF, k3D, kNone, nullptr, "CLOUD FRACTION", "", nullptr},
    {"SWDOWN", kF, kXY, kNone, nullptr,
     "DOWNWARD SHORT WAVE FLUX AT GROUND SURFACE", "W m-2", nullptr},
    {"GLW", kF, kXY, kNone, nullptr, "DOWNWARD LONG WAVE FLUX AT GROUND SURFACE", "W m-2", nullptr},
    {"SWNORM", kF, kXY, kNone, nullptr,
     "NORMAL SHORT WAVE FLUX AT GROUND SURFACE (SLOPE-DEPENDENT)", "W m-2", nullptr},
    {"ACSWUPT", kF, kXY, kNone, nullptr,
     "ACCUMULATED UPWELLING SHORTWAVE FLUX AT TOP", "J m-2", nullptr},
    {"ACSWUPTC", kF, kXY, kNone, nullptr,
     "ACCUMULATED UPWELLING CLEAR SKY SHORTWAVE FLUX AT TOP", "J m-2", nullptr},
    {"ACSWDNT", kF, kXY, kNone, nullptr,
     "ACCUMULATED DOWNWELLING SHORTWAVE FLUX AT TOP", "J m-2", nullptr},
    {"ACSWDNTC", kF, kXY, kNone, nullptr,
     "ACCUMULATED DOWNWELLING CLEAR SKY SHORTWAVE FLUX AT TOP", "J m-2", nullptr},
    {"ACSWUPB", kF, kXY, kNone, nullptr,
     "ACCUMULATED UPWELLING SHORTWAVE FLUX AT BOTTOM", "J m-2", nullptr},
    {"ACSWUPBC", kF, kXY, kNone, nullptr,
     "ACCUMULATED UPWELLING CLEAR SKY SHORTWAVE FLUX AT BOTTOM", "J m-2", nullptr},
    {"ACSWDNB", kF, kXY, kNone, nullptr,
     "ACCUMULATED DOWNWELLING SHORTWAVE FLUX AT BOTTOM", "J m-2", nullptr},
    {"ACSWDNBC", kF, kXY, kNone, nullptr,
     "ACCUMULATED DOWNWELLING CLEAR SKY SHORTWAVE FLUX AT BOTTOM", "J m-2", nullptr},
    {"ACLWUPT", kF, kXY, kNone, nullptr,
     "ACCUMULATED UPWELLING LONGWAVE FLUX AT TOP", "J m-2", nullptr},
    {"ACLWUPTC", kF, kXY, kNone, nullptr,
     "ACCUMULATED UPWELLING CLEAR SKY LONGWAVE FLUX AT TOP", "J m-2", nullptr},
    {"ACLWDNT", kF, kXY, kNone, nullptr,
     "ACCUMULATED DOWNWELLING LONGWAVE FLUX AT TOP", "J m-2", nullptr},
    {"ACLWDNTC", kF, kXY, kNone, nullptr,
     "ACCUMULATED DOWNWELLING CLEAR SKY LONGWAVE FLUX AT TOP", "J m-2", nullptr},
    {"ACLWUPB", kF, kXY, kNone, nullptr,
     "ACCUMULATED UPWELLING LONGWAVE FLUX AT BOTTOM", "J m-2", nullptr},
    {"ACLWUPBC", kF, kXY, kNone, nullptr,
     "ACCUMULATED UPWELLING CLEAR SKY LONGWAVE FLUX AT BOTTOM", "J m-2", nullptr},
    {"ACLWDNB", kF, kXY, kNone, nullptr,
     "ACCUMULATED DOWNWELLING LONGWAVE FLUX AT BOTTOM", "J m-2", nullptr},
    {"ACLWDNBC", kF, kXY, kNone, nullptr,
     "ACCUMULATED DOWNWELLING CLEAR SKY LONGWAVE FLUX AT BOTTOM", "J m-2", nullptr},
    {"SWUPT", kF, kXY, kNone, nullptr,
     "INSTANTANEOUS UPWELLING SHORTWAVE FLUX AT TOP", "W m-2", nullptr},
    {"SWUPTC", kF, kXY, kNone, nullptr,
     "INSTANTANEOUS UPWELLING CLEAR SKY SHORTWAVE FLUX AT TOP", "W m-2", nullptr},
    {"SWDNT", kF, kXY, kNone, nullptr,
     "INSTANTANEOUS DOWNWELLING SHORTWAVE FLUX AT TOP", "W m-2", nullptr},
    {"SWDNTC", kF, kXY, kNone, nullptr,
     "INSTANTANEOUS DOWNWELLING CLEAR SKY SHORTWAVE FLUX AT TOP", "W m-2", nullptr},
    {"SWUPB", kF, kXY, kNone, nullptr,
     "INSTANTANEOUS UPWELLING SHORTWAVE FLUX AT BOTTOM", "W m-2", nullptr},
    {"SWUPBC", kF, kXY, kNone, nullptr,
     "INSTANTANEOUS UPWELLING CLEAR SKY SHORTWAVE FLUX AT BOTTOM", "W m-2", nullptr},
    {"SWDNB", kF, kXY, kNone, nullptr,
     "INSTANTANEOUS DOWNWELLING SHORTWAVE FLUX AT BOTTOM", "W m-2", nullptr},
    {"SWDNBC", kF, kXY, kNone, nullptr,
     "INSTANTANEOUS DOWNWELLING CLEAR SKY SHORTWAVE FLUX AT BOTTOM", "W m-2", nullptr},
    {"LWUPT", kF, kXY, kNone, nullptr,
     "INSTANTANEOUS UPWELLING LONGWAVE FLUX AT TOP", "W m-2", nullptr},
    {"LWUPTC", kF, kXY, kNone, nullptr,
     "INSTANTANEOUS UPWELLING CLEAR SKY LONGWAVE FLUX AT TOP", "W m-2", nullptr},
    {"LWDNT", kF, kXY, kNone, nullptr,
     "INSTANTANEOUS DOWNWELLING LONGWAVE FLUX AT TOP", "W m-2", nullptr},
    {"LWDNTC", kF, kXY, kNone, nullptr,
     "INSTANTANEOUS DOWNWELLING CLEAR SKY LONGWAVE FLUX AT TOP", "W m-2", nullptr},
    {"LWUPB", kF, kXY, kNone, nullptr,
     "INSTANTANEOUS UPWELLING LONGWAVE FLUX AT BOTTOM", "W m-2", nullptr},
    {"LWUPBC", kF, kXY, kNone, nullptr,
     "INSTANTANEOUS UPWELLING CLEAR SKY LONGWAVE FLUX AT BOTTOM", "W m-2", nullptr},
    {"LWDNB", kF, kXY, kNone, nullptr,
     "INSTANTANEOUS DOWNWELLING LONGWAVE FLUX AT BOTTOM", "W m-2", nullptr},
    {"LWDNBC", kF, kXY, kNone, nullptr,
     "INSTANTANEOUS DOWNWELLING CLEAR SKY LONGWAVE FLUX AT BOTTOM", "W m-2", nullptr},
    {"OLR", kF, kXY, kNone, nullptr, "TOA OUTGOING LONG WAVE", "W m-2", nullptr},
    {"XLAT_U", kF, kXY, kX, nullptr,
     "LATITUDE, SOUTH IS NEGATIVE", "degree_north", "XLONG_U XLAT_U"},
    {"XLONG_U", kF, kXY, kX, nullptr,
     "LONGITUDE, WEST IS NEGATIVE", "degree_east", "XLONG_U XLAT_U"},
    {"XLAT_V", kF, kXY, kY, nullptr,
     "LATITUDE, SOUTH IS NEGATIVE", "degree_north", "XLONG_V XLAT_V"},
    {"XLONG_V", kF, kXY, kY, nullptr,
     "LONGITUDE, WEST IS NEGATIVE", "degree_east", "XLONG_V XLAT_V"},
    {"ALBEDO", kF, kXY, kNone, nullptr, "ALBEDO", "-", nullptr},
    {"CLAT", kF, kXY, kNone, nullptr,
     "COMPUTATIONAL GRID LATITUDE, SOUTH IS NEGATIVE", "degree_north", nullptr},
    {"ALBBCK", kF, kXY, kNone, nullptr, "BACKGROUND ALBEDO", "", nullptr},
    {"EMISS", kF, kXY, kNone, nullptr, "SURFACE EMISSIVITY", "", nullptr},
    {"NOAHRES", kF, kXY, kNone, nullptr,
     "RESIDUAL OF THE NOAH SURFACE ENERGY BUDGET", "W m{-2}", nullptr},
    {"TMN", kF, kXY, kNone, nullptr, "SOIL TEMPERATURE AT LOWER BOUNDARY", "K", nullptr},
    {"XLAND", kF, kXY, kNone, nullptr, "LAND MASK (1 FOR LAND, 2 FOR WATER)", "", nullptr},
    {"UST", kF, kXY, kNone, nullptr, "U* IN SIMILARITY THEORY", "m s-1", nullptr},
    {"PBLH", kF, kXY, kNone, nullptr, "PBL HEIGHT", "m", nullptr},
    {"HFX", kF, kXY, kNone, nullptr, "UPWARD HEAT FLUX AT THE SURFACE", "W m-2", nullptr},
    {"QFX", kF, kXY, kNone, nullptr, "UPWARD MOISTURE FLUX AT THE SURFACE", "kg m-2 s-1", nullptr},
    {"LH", kF, kXY, kNone, nullptr, "LATENT HEAT FLUX AT THE SURFACE", "W m-2", nullptr},
    {"ACHFX", kF, kXY, kNone, nullptr,
     "ACCUMULATED UPWARD HEAT FLUX AT THE SURFACE", "J m-2", nullptr},
    {"ACLHF", kF, kXY, kNone, nullptr,
     "ACCUMULATED UPWARD LATENT HEAT FLUX AT THE SURFACE", "J m-2", nullptr},
    {"SNOWC", kF, kXY, kNone, nullptr,
     "FLAG INDICATING SNOW COVERAGE (1 FOR SNOW COVER)", "", nullptr},
    {"SR", kF, kXY, kNone, nullptr, "fraction of frozen precipitation", "-", nullptr},
    {"SAVE_TOPO_FROM_REAL", kI, kScalar, kNone, nullptr,
     "1=original topo from real/0=topo modified by WRF", "flag", nullptr},
    {"ISEEDARR_SPPT", kI, kZ, kZs, "seed_dim_stag",
     "Array to hold seed for restart, SPPT", "", nullptr},
    {"ISEEDARR_SKEBS", kI, kZ, kZs, "seed_dim_stag",
     "Array to hold seed for restart, SKEBS", "", nullptr},
    {"ISEEDARR_RAND_PERTURB", kI, kZ, kZs, "seed_dim_stag",
     "Array to hold seed for restart, RAND_PERT", "", nullptr},
    {"ISEEDARRAY_SPP_CONV", kI, kZ, kZs, "seed_dim_stag",
     "Array to hold seed for restart, RAND_PERT2", "", nullptr},
    {"ISEEDARRAY_SPP_PBL", kI, kZ, kZs, "seed_dim_stag",
     "Array to hold seed for restart, RAND_PERT3", "", nullptr},
    {"ISEEDARRAY_SPP_LSM", kI, kZ, kZs, "seed_dim_stag",
     "Array to hold seed for restart, RAND_PERT4", "", nullptr},
    {"C1H", kF, kZ, kNone, nullptr,
     "half levels, c1h = d bf / d eta, using znw", "Dimensionless", nullptr},
    {"C2H", kF, kZ, kNone, nullptr, "half levels, c2h = (1-c1h)*(p0-pt)", "Pa", nullptr},
    {"C1F", kF, kZ, kZs, nullptr,
     "full levels, c1f = d bf / d eta, using znu", "Dimensionless", nullptr},
    {"C2F", kF, kZ, kZs, nullptr, "full levels, c2f = (1-c1f)*(p0-pt)", "Pa", nullptr},
    {"C3H", kF, kZ, kNone, nullptr, "half levels, c3h = bh", "Dimensionless", nullptr},
    {"C4H", kF, kZ, kNone, nullptr,
     "half levels, c4h = (eta-bh)*(p0-pt), using znu", "Pa", nullptr},
    {"C3F", kF, kZ, kZs, nullptr, "full levels, c3f = bf", "Dimensionless", nullptr},
    {"C4F", kF, kZ, kZs, nullptr, "full levels, c4f = (eta-bf)*(p0-pt), using znw", "Pa", nullptr},
    {"PCB", kF, kXY, kNone, nullptr, "base state dry air mass in column", "Pa", nullptr},
    {"PC", kF, kXY, kNone, nullptr, "perturbation dry air mass in column", "Pa", nullptr},
    {"LANDMASK", kF, kXY, kNone, nullptr, "LAND MASK (1 FOR LAND, 0 FOR WATER)", "", nullptr},
    {"LAKEMASK", kF, kXY, kNone, nullptr, "LAKE MASK (1 FOR LAKE, 0 FOR NON-LAKE)", "", nullptr},
    {"SST", kF, kXY, kNone, nullptr, "SEA SURFACE TEMPERATURE", "K", nullptr},
    {"SST_INPUT", kF, kXY, kNone, nullptr,
     "SEA SURFACE TEMPERATURE FROM WRFLOWINPUT FILE", "K", nullptr},
}};
// clang-format on

MemoryOrder memory_order(Shape shape, MemoryOrder order_3d) {
  switch (shape) {
    case Shape::k3D: return order_3d;
    case Shape::kXY: return MemoryOrder::XY;
    case Shape::kZ: return MemoryOrder::Z;
    case Shape::kScalar: return MemoryOrder::Scalar;
  }
  return MemoryOrder::Scalar;
}

}  // namespace

Schema history_schema(const HistorySchemaOptions& options) {
  if (options.order_3d != MemoryOrder::XZY && options.order_3d != MemoryOrder::XYZ) {
    throw Error(ErrorKind::InvalidArgument, "history_schema: order_3d must be XZY or XYZ, not " +
                                                std::string(to_string(options.order_3d)));
  }
  Schema schema;
  // WRF defines these two when the first variable using them appears (ZS, ISEEDARR_SPPT); the
  // Writer orders the file's dimensions by first use, as WRF does.
  schema.add_dimension(std::string(kSoilLayersStag), options.num_soil_layers);
  schema.add_dimension("seed_dim_stag", options.seed_dim);
  for (const Row& row : kRows) {
    VarSpec spec = variable(row.name, row.type, memory_order(row.shape, options.order_3d), row.stagger,
                            row.description, row.units, row.vertical_dim ? row.vertical_dim : "");
    // wrf::variable() already writes empty text as WRF does (one NUL character).
    if (row.coordinates) set_attribute(spec.attributes, {"coordinates", std::string(row.coordinates)});
    if (spec.name == kTimeCoordinate) {
      // As WRF's output_wrf.F does for XTIME: "minutes since <simulation start>" in both, so
      // that CDO, xarray and NCL put every frame on its date.
      const std::string since = minutes_since(simulation_start_date(options));
      set_attribute(spec.attributes, {"description", since});
      set_attribute(spec.attributes, {"units", since});
    }
    schema.add_variable(std::move(spec));
  }
  for (auto& attribute : history_global_attributes(options)) schema.set_global_attribute(std::move(attribute));
  return schema;
}

}  // namespace nwpio::wrf
