// A small WRF-like FileLayout for backend-level tests, with an analytic value for every element:
// Times, 2-D, 3-D (U/V/W staggered), soil, Z, scalar, int and double fields, one fixed (not
// time-dependent) horizontal field and one fixed Z field, attributes of every type.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "backend/backend.hpp"
#include "wrf/wrf_chunking.hpp"
#include "nwpio/wrf_conventions.hpp"

namespace nwpio::test {

struct FixtureGrid {
  std::int64_t nx = 13, ny = 9, nz = 5, nsoil = 4;  // unstaggered counts
};

inline detail::FileLayout make_fixture_layout(const FixtureGrid& g, FileFormat format) {
  using detail::FileLayout;
  FileLayout L;
  L.format = format;
  L.header_reserve_bytes = 16 * 1024;
  L.dims = {{"Time", 0},       {"DateStrLen", 19},       {"west_east", g.nx},          {"south_north", g.ny},
            {"bottom_top", g.nz}, {"bottom_top_stag", g.nz + 1}, {"west_east_stag", g.nx + 1}, {"south_north_stag", g.ny + 1},
            {"soil_layers_stag", g.nsoil}};
  enum { T = 0, S = 1, WE = 2, SN = 3, BT = 4, BTS = 5, WES = 6, SNS = 7, SOIL = 8 };
  auto atts = [](DataType type, const char* order, const char* stagger, const char* coords) {
    std::vector<Attribute> a;
    const int ft = type == DataType::Double ? 105 : type == DataType::Int ? 106 : 104;
    a.push_back({"FieldType", std::vector<std::int32_t>{ft}});
    a.push_back({"MemoryOrder", std::string(order)});
    a.push_back({"description", std::string("test field")});
    a.push_back({"units", std::string("K")});
    a.push_back({"stagger", std::string(stagger)});
    if (coords[0] != 0) a.push_back({"coordinates", std::string(coords)});
    return a;
  };
  const char* c0 = "XLONG XLAT XTIME";
  L.vars = {
      {"Times", DataType::Char, {T, S}, {}, true, {}},
      {"XLAT", DataType::Float, {T, SN, WE}, atts(DataType::Float, "XY ", "", "XLONG XLAT"), true, {}},
      {"T", DataType::Float, {T, BT, SN, WE}, atts(DataType::Float, "XYZ", "", c0), true, {}},
      {"U", DataType::Float, {T, BT, SN, WES}, atts(DataType::Float, "XYZ", "X", "XLONG_U XLAT_U XTIME"), true, {}},
      {"V", DataType::Float, {T, BT, SNS, WE}, atts(DataType::Float, "XYZ", "Y", "XLONG_V XLAT_V XTIME"), true, {}},
      {"W", DataType::Float, {T, BTS, SN, WE}, atts(DataType::Float, "XYZ", "Z", c0), true, {}},
      {"TSLB", DataType::Float, {T, SOIL, SN, WE}, atts(DataType::Float, "XYZ", "Z", c0), true, {}},
      {"ZNU", DataType::Float, {T, BT}, atts(DataType::Float, "Z  ", "", ""), true, {}},
      {"ITIMESTEP", DataType::Int, {T}, atts(DataType::Int, "0  ", "", ""), true, {}},
      {"XTIME_D", DataType::Double, {T}, atts(DataType::Double, "0  ", "", ""), true, {}},
      {"IVGTYP", DataType::Int, {T, SN, WE}, atts(DataType::Int, "XY ", "", c0), true, {}},
      {"PD", DataType::Double, {T, BT, SN, WE}, atts(DataType::Double, "XYZ", "", c0), true, {}},
      {"HGT_FIXED", DataType::Float, {SN, WE}, atts(DataType::Float, "XY ", "", "XLONG XLAT"), false, {}},
      {"ZNW_FIXED", DataType::Double, {BTS}, atts(DataType::Double, "Z  ", "Z", ""), false, {}},
  };
  L.global_attributes = {
      {"TITLE", std::string(" OUTPUT FROM nwpio serial backend test")},
      {"START_DATE", std::string("2026-11-30_00:00:00")},
      {"WEST-EAST_GRID_DIMENSION", std::vector<std::int32_t>{static_cast<std::int32_t>(g.nx + 1)}},
      {"DX", std::vector<float>{3000.f}},
      {"TRUELATS", std::vector<float>{30.f, 60.f}},
      {"CEN_LAT_D", std::vector<double>{39.5, -98.25, 1e-300}},
      {"EMPTY_TEXT", std::string()},
  };
  // netCDF-4: WRF's chunk shapes and deflate level 2, as the core lays them out for io_form 2.
  if (format == FileFormat::Netcdf4) {
    L.deflate_level = 2;
    for (FileLayout::Var& v : L.vars) v.chunks = detail::wrf_chunk_sizes(L, v);
  }
  return L;
}

// Elements of one record (record vars) or of the whole variable (fixed vars).
inline std::int64_t fixture_record_elements(const detail::FileLayout& L, const detail::FileLayout::Var& v) {
  std::int64_t n = 1;
  for (std::size_t d = v.record ? 1 : 0; d < v.dims.size(); ++d) n *= L.dims[static_cast<std::size_t>(v.dims[d])].length;
  return n;
}

inline std::string fixture_date(int record) {
  char text[32];
  std::snprintf(text, sizeof text, "2026-11-30_%02d:00:00", record % 24);
  return text;
}

// The analytic value of element `i` (C order within the record) of variable `v` in `record`.
inline double fixture_value(int v, int record, std::int64_t i) {
  return 1000.0 * v + 100.0 * record + 0.25 * static_cast<double>(i % 4001) - static_cast<double>(i / 4001);
}

// One record of variable `v` as native bytes.
inline std::vector<unsigned char> fixture_record(const detail::FileLayout& L, int v, int record) {
  const auto& var = L.vars[static_cast<std::size_t>(v)];
  const std::int64_t n = fixture_record_elements(L, var);
  std::vector<unsigned char> out(static_cast<std::size_t>(n) * size_of(var.type));
  for (std::int64_t i = 0; i < n; ++i) {
    const double x = fixture_value(v, record, i);
    auto* p = out.data() + static_cast<std::size_t>(i) * size_of(var.type);
    switch (var.type) {
      case DataType::Float: { float f = static_cast<float>(x); std::memcpy(p, &f, 4); break; }
      case DataType::Double: std::memcpy(p, &x, 8); break;
      case DataType::Int: { std::int32_t k = static_cast<std::int32_t>(x); std::memcpy(p, &k, 4); break; }
      case DataType::Char: { const std::string d = fixture_date(record); *p = static_cast<unsigned char>(d[static_cast<std::size_t>(i)]); break; }
    }
  }
  return out;
}

}  // namespace nwpio::test
