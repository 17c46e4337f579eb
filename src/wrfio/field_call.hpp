// One write_field / read_field call of WRF's I/O API, checked and translated into nwpio's terms
// once: variable name, DateStr, memory order, staggering, element type, dimension names and the
// 1-based inclusive Domain/Memory/Patch bounds WRF passes (in the field's memory order). Pure:
// no MPI, no file, so that the C boundary's argument translation is tested and fuzzed alone.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "nwpio/box.hpp"
#include "nwpio/types.hpp"

namespace nwpio::wrfio {

// The arguments exactly as WRF passes them (strings already taken from Fortran's blank-padded
// CHARACTER data; bounds in memory order, 1-based inclusive, three each as WRF always passes).
struct RawFieldArgs {
  std::string var, date, memory_order, stagger;
  std::array<std::string, 3> dim_names;  // trimmed
  int field_type = 0;
  int domain_desc = 0;
  std::array<int, 3> domain_start{}, domain_end{}, memory_start{}, memory_end{}, patch_start{}, patch_end{};
  // Reads take their dimensions from the file: WRF's DimNames are not looked at (WRF's input
  // path passes them unset).
  bool reading = false;
};

struct FieldCall {
  std::string name;
  std::string date;
  int wrf_field_type = 0;      // 104..107 as passed
  DataType type = DataType::Float;  // logical (107) -> Int
  MemoryOrder order = MemoryOrder::XZY;
  Stagger stagger = Stagger::None;
  int domain_desc = 0;
  int ndim = 0;                // dimensions in memory order (0 for a scalar)
  std::array<std::string, 3> dim_names;
  std::array<int, 3> domain_start{}, domain_end{}, memory_start{}, memory_end{}, patch_start{}, patch_end{};
  // WRF's I/O servers pass MemoryStart(1) = MemoryEnd(1) = -998899: Field is exactly the patch.
  bool quilt_patch = false;
  // The k axis over a named dimension (soil_layers_stag, seed_dim_stag, ...) instead of the
  // model's vertical grid; empty otherwise.
  std::string vertical_dim;
  // WRF passed no name for the k axis: WriteStream names it by WRF's rule (the first dimension
  // of the same length, else DIMnnnn).
  bool unnamed_k = false;
  // MemoryOrder 'C' (1-D, e.g. WRF's FCX over spec_bdy_width): written as Z, attribute "C  ".
  bool c_order = false;

  // Position of axis (kAxisI/J/K) in the memory order, or -1 when the field has no such axis.
  int position(int axis) const noexcept;
  bool decomposed() const noexcept { return is_decomposed(order); }
  bool on_model_grid_k() const noexcept { return position(kAxisK) >= 0 && vertical_dim.empty() && !unnamed_k; }
  bool staggered(int axis) const noexcept;
  // Global length of the dimension at memory position p (DomainEnd - DomainStart + 1).
  std::int64_t global_length(int p) const noexcept {
    return std::int64_t{domain_end[p]} - domain_start[p] + 1;
  }
  // Patch and memory as 0-based half-open boxes over (i, j, k); absent axes are [0, 1).
  Box patch_box() const noexcept;
  Box memory_box() const noexcept;
  // Elements of Field in memory (memory bounds, or the patch for an I/O server's call).
  std::int64_t memory_elements() const noexcept;
  // The array's extents in memory order, as ArrayView::extents wants them.
  std::vector<std::int64_t> memory_extents() const;
};

// At most this many elements in one field's memory (so that its bytes fit an int64 with room):
// bounds that describe more are an error, not an allocation.
inline constexpr std::int64_t kMaxFieldElements = std::int64_t{1} << 56;

// Checks and translates. Throws WrfError, every message naming the argument by WRF's name
// (Var, DateStr, FieldType, MemoryOrder, Stagger, DimNames, DomainStart/End, MemoryStart/End,
// PatchStart/End) and the variable:
//   kVarNotFound        Var blank
//   kCharStringTooLong  Var (or a DimNames entry) longer than NC_MAX_NAME (256)
//   kNotSupported       Var or a named dimension not a portable netCDF name (letters, digits,
//                       '_', not first a digit; so no '/'), a stagger not in enum_text's set,
//                       stagger X/Y on a field that is not decomposed, a decomposed axis whose
//                       DimNames entry is not the one its staggering implies, a named vertical
//                       dimension that is one of the grid's horizontal ones
//   kDateStrBadLength   DateStr not 19 characters (WRF's own DateCheck)
//   kDateStringError    DateStr of 19 characters that is not a date YYYY-MM-DD_HH:MM:SS
//   kBadDataType        FieldType other than 104-107
//   kBadMemoryOrder     MemoryOrder not in enum_text's set (the caller leaves such a variable
//                       out, as WRF's own packages do)
//   kDimensionError     DomainStart below 1 or DomainEnd before it, a patch outside its domain,
//                       memory not holding the patch, more than kMaxFieldElements in memory
FieldCall parse_field_call(const RawFieldArgs& args);

// Throws WrfError (kCharStringTooLong, kNotSupported) unless `name` is a variable or dimension
// name nwpio's Schema accepts (the same rule, checked here so that the call gets WRF's status
// and the message names the argument `what`).
void check_wrf_name(std::string_view what, std::string_view name);

// WRF's own names for the decomposed and vertical grid dimensions of this staggering. A stagger
// "Z" on a field without a vertical axis (WRF's restart has XY fields such as SWVISDIR with
// stagger "Z") places nothing differently: it counts as unstaggered; the stagger attribute
// WRF puts stays what WRF says.
std::string grid_dimension_name(int axis, bool staggered);

}  // namespace nwpio::wrfio
