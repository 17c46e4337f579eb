// A synthetic WRF-like model and its checker, shared by nwpio-demo, the tests and the benchmarks.
//
// Fill rule: the variable with netCDF id v in its file, at 0-based global indices
// i (along west_east or west_east_stag), j (along south_north or south_north_stag), k (along any
// other non-Time dimension), 0 where a dimension is absent, in frame t (0-based over the whole
// run) holds (7*i + 13*j + 17*k + 19*t + 23*v) mod 1021, converted to the variable's type.
// Times (id 0) holds the frame's date, so schema variable s has id s + 1.
//
// Time coordinate: nwpio-demo fills WRF's XTIME as WRF does, with the minutes from
// the simulation start (named in XTIME's units, "minutes since 2019-06-01 00:00:00") to the
// frame's date, so that CDO, xarray and NCL show the right dates. A model filled with a date
// (fill(frame, date)) does that; every other value keeps the fill rule.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "nwpio/decomposition.hpp"
#include "nwpio/schema.hpp"
#include "nwpio/writer.hpp"

namespace nwpio::synthetic {

inline constexpr std::int64_t kModulus = 1021;
// What halo cells and cells outside a field's write box hold: a writer that copies one of them
// into the file shows up as -9999 in the checker.
inline constexpr int kPoison = -9999;

constexpr std::int64_t fill_value(std::int64_t i, std::int64_t j, std::int64_t k, std::int64_t t,
                                  std::int64_t v) noexcept {
  return (7 * i + 13 * j + 17 * k + 19 * t + 23 * v) % kModulus;
}

// When `spec` is a time coordinate (named wrf::kTimeCoordinate, units "minutes since
// YYYY-MM-DD HH:MM:SS"): the seconds of that date since 0001-01-01 (wrf::date_to_seconds).
std::optional<std::int64_t> time_origin_seconds(const VarSpec& spec);

// What the time coordinate holds in a file: the fill rule like every variable, or the minutes
// since its origin of each record's date (Times).
enum class TimeValues { FillRule, MinutesSinceStart };

// netCDF id of schema variable s in a file written by the Writer (Times is id 0).
constexpr int variable_id(std::size_t schema_index) noexcept { return static_cast<int>(schema_index) + 1; }

// One field as a WRF model holds it: the whole memory array with halos, in its memory order.
struct Field {
  const VarSpec* spec = nullptr;  // points into the model's own copy of the schema
  int varid = 0;                  // netCDF id in the file (schema index + 1)
  // Memory extents per axis (0 = i, 1 = j, 2 = k), lo inclusive, hi exclusive; an axis the
  // field does not have is [0, 1). k is kms:kme for the model's vertical grid and [0, length)
  // for a named dimension (soil_layers_stag, seed_dim_stag).
  Box memory;
  // The cells this rank fills (and the Writer must write): the patch cut to the field's
  // staggering for decomposed fields, the whole field for Z and scalar fields.
  Box fill;
  std::array<std::int64_t, 3> stride{1, 1, 1};  // elements per step along i, j, k
  std::int64_t elements = 0;
  std::vector<double> storage;  // element type spec->type; double keeps any type aligned

  const void* data() const noexcept { return storage.data(); }
  void* data() noexcept { return storage.data(); }
};

class SyntheticModel {
 public:
  // Allocates every variable of `schema` (pass writer.schema(), i.e. after iofields, so that ids
  // match the file) with halos as `decomposition` gives them, halo cells set to kPoison.
  SyntheticModel(const Decomposition& decomposition, Schema schema);
  // Fields point into the model's schema: movable, not copyable.
  SyntheticModel(SyntheticModel&&) noexcept = default;
  SyntheticModel& operator=(SyntheticModel&&) noexcept = default;
  SyntheticModel(const SyntheticModel&) = delete;
  SyntheticModel& operator=(const SyntheticModel&) = delete;

  // Fills every field's fill box by the fill rule for frame t (0-based over the run).
  void fill(std::int64_t frame);
  // The same, but the time coordinate (XTIME) holds the minutes from its origin to `date`.
  void fill(std::int64_t frame, std::string_view date);
  // Hands every field to the writer (Writer::put); call between begin_frame and end_frame.
  void put_all(Writer& writer) const;

  const Schema& schema() const noexcept { return schema_; }
  const std::vector<Field>& fields() const noexcept { return fields_; }
  std::int64_t memory_bytes() const noexcept;  // all arrays of this rank, halos included
  // What memory_bytes() would be for a model of `schema` on `decomposition`, nothing allocated.
  static std::int64_t bytes_for(const Decomposition& decomposition, const Schema& schema);

 private:
  Schema schema_;
  std::vector<Field> fields_;
};

// Result of reading a file back.
struct VerifyResult {
  bool ok = true;
  int records = 0;
  std::int64_t values_checked = 0;
  std::int64_t mismatches = 0;
  std::vector<std::string> problems;  // the first few, each naming variable, record and indices
  std::string summary() const;        // "OK: 2 records, 123 values" or the first problems
};

// Reads `path` with netCDF-C (never PnetCDF) and checks: Times is id 0, char(Time, DateStrLen),
// and holds `expected_times` (when given; else each record a valid WRF date, increasing); every
// variable of `schema` has id s + 1, its type and WRF's file dimensions (wrf::file_dimensions),
// and no other variable exists; every value of every record r equals the fill rule for frame
// first_frame_index + r, except, with TimeValues::MinutesSinceStart, the time coordinate, which
// must hold the minutes from its origin to the record's date in Times. Throws Error(Netcdf)
// when the file cannot be opened or read.
VerifyResult verify_file(const std::string& path, const Schema& schema, std::int64_t first_frame_index,
                         const std::vector<std::string>& expected_times = {},
                         TimeValues time_values = TimeValues::FillRule);

}  // namespace nwpio::synthetic
