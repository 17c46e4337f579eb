// The package's C boundary arguments (wrfio_capi.h: Fortran CHARACTER data as pointer and
// length, bounds as arrays of three) in C++ terms, before any file is involved: the argument
// translation of write_field / read_field and of the put_*_ti calls. Pure (no MPI, no open
// file), so that it is tested and fuzzed on its own (tests/wrfio/unit, tests/fuzz).
#pragma once

#include <string>

#include "nwpio/schema.hpp"
#include "wrfio/field_call.hpp"

namespace nwpio::wrfio {

// A Fortran CHARACTER argument: trailing blanks (and NULs) dropped; `adjust_left` also drops
// leading blanks (WRF does TRIM(ADJUSTL()) on memory orders). A negative length is empty.
std::string fortran_string(const char* text, int length, bool adjust_left = false);

// One string argument as it crosses the C boundary.
struct FortranText {
  const char* text = nullptr;
  int length = 0;
};

// The bounds of a write_field / read_field call: six arrays of three, as WRF passes them.
struct FortranBounds {
  const int* domain_start = nullptr;
  const int* domain_end = nullptr;
  const int* memory_start = nullptr;
  const int* memory_end = nullptr;
  const int* patch_start = nullptr;
  const int* patch_end = nullptr;
};

// write_field's / read_field's arguments as parse_field_call() takes them. `dim_names` holds
// three names of `dim_name_length` characters each (WRF's CHARACTER(*) DimNames(3)).
RawFieldArgs field_args(FortranText date, FortranText var, int field_type, int domain_desc, FortranText memory_order,
                        FortranText stagger, const char* dim_names, int dim_name_length, const FortranBounds& bounds);

// Attribute kinds of nwpio_wrfio_put_attribute (logicals travel as integers 0/1).
enum class PutKind : int { Text = 0, Int = 1, Real = 2, Double = 3 };

// One put_dom_ti_* / put_var_ti_* call: attribute `name` with `count` values of `kind` at
// `data` (text: `count` characters, WRF's rules: trailing blanks dropped, a variable's empty
// text stored as one NUL). `owner` is the variable ("" for a global attribute). Throws WrfError naming the
// argument: kBadDataType (a kind other than 0-3), kLengthLessThan1 (fewer than one number, or a
// negative text length), kCharStringTooLong (a name longer than NC_MAX_NAME), kNotSupported (a
// name netCDF does not allow: empty, not first a letter, digit or '_', with '/' or a control
// character, ending in a blank; the rule of nwpio's Schema).
Attribute attribute_args(const std::string& owner, const std::string& name, int kind, const void* data, int count);

}  // namespace nwpio::wrfio
