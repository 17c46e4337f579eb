// One write_field / read_field call of WRF's I/O API, checked and translated into nwpio's terms
// once: memory order, staggering, element type, dimension names and the 1-based inclusive
// Domain/Memory/Patch bounds WRF passes (in the field's memory order).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "nwpio/box.hpp"
#include "nwpio/types.hpp"

namespace nwpio::wrfio {

// A Fortran CHARACTER argument: trailing blanks (and NULs) dropped; `adjust_left` also drops
// leading blanks (WRF does TRIM(ADJUSTL()) on memory orders).
std::string fortran_string(const char* text, int length, bool adjust_left = false);

// The arguments exactly as WRF passes them (bounds in memory order, 1-based inclusive).
struct RawFieldArgs {
  std::string_view var, date, memory_order, stagger;
  std::array<std::string, 3> dim_names;  // trimmed
  int field_type = 0;
  int domain_desc = 0;
  const int* domain_start = nullptr;
  const int* domain_end = nullptr;
  const int* memory_start = nullptr;
  const int* memory_end = nullptr;
  const int* patch_start = nullptr;
  const int* patch_end = nullptr;
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

// Checks and translates. Throws WrfError: kBadMemoryOrder (orders other than XZY, XYZ, XY, Z,
// C, 0), kBadDataType (FieldType other than 104-107), kNotSupported (a stagger other than "",
// X, Y, Z, XY, or a decomposed axis whose dimension name is not the one its staggering implies),
// kDimensionError (patch outside the domain, memory not holding the patch), kDateStringError.
// Every message names the variable.
FieldCall parse_field_call(const RawFieldArgs& args);

// WRF's own names for the decomposed and vertical grid dimensions of this staggering. A stagger
// "Z" on a field without a vertical axis (WRF's restart has XY fields such as SWVISDIR with
// stagger "Z") places nothing differently: it counts as unstaggered; the stagger attribute
// WRF puts stays what WRF says.
std::string grid_dimension_name(int axis, bool staggered);

}  // namespace nwpio::wrfio
