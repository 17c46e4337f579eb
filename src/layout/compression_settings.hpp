// How the fields of a netCDF-4 file are stored (docs/COMPRESSION.md): the stream's defaults for
// every field with i and j (filter, deflate level, shuffle, quantization) and the per-variable
// overrides, parsed from OutputOptions. Pure (no MPI, no netCDF): parsed when the stream opens
// (so that a bad value is an error before any file exists) and applied to the layout.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "nwpio/options.hpp"
#include "nwpio/types.hpp"

namespace nwpio::detail {

// netCDF-C's quantize codes (NC_QUANTIZE_*), the same numbers.
enum class Quantize : int { None = 0, BitGroom = 1, GranularBR = 2, BitRound = 3 };

// The storage of one variable.
struct FieldStorage {
  bool deflate = true;     // false: filter "none", or deflate level 0
  int deflate_level = 2;   // 1-9 when deflate
  bool shuffle = true;
  Quantize quantize = Quantize::None;
  int quantize_digits = 0;  // BitRound: mantissa bits kept; GranularBR, BitGroom: decimal digits
  std::vector<std::int64_t> chunk;  // an explicit chunk shape (file order, Time left out); empty: the rule
  std::string chunk_origin;         // where the explicit chunk shape was written (errors)
  bool filtered() const noexcept { return deflate || shuffle; }
};

class CompressionSettings {
 public:
  // Parses options.compression_filter, deflate_level, shuffle, quantize and compression_vars.
  // Throws Error(Config) at the first problem, naming the key, the value and where it was
  // written (the namelist's file:line:column): an unknown filter or setting, a level outside
  // 0..9, a number of digits that is not a positive integer, a malformed chunk shape.
  static CompressionSettings parse(const OutputOptions& options);

  // The storage of variable `name` of type `type`: the defaults, then every entry naming it, in
  // the order written. Quantization is dropped for a type that cannot have it when it came from
  // the stream-wide default (it applies to float and double fields only).
  FieldStorage for_variable(const std::string& name, DataType type) const;

  // Checks the per-variable entries against the stream's variables (name, type): every name is
  // one of them, quantization only on float or double, digits within the type's range (float:
  // BitRound 1-23, GranularBR/BitGroom 1-7; double: 1-52, 1-15). Throws Error(Config) naming
  // the entry and where it was written.
  void check_variables(const std::vector<std::pair<std::string, DataType>>& variables) const;

 private:
  // What one entry of compression_vars (or the defaults) sets; unset fields keep their value.
  struct Setting {
    int deflate_level = -1;  // -1: unset
    int filter = -1;         // -1 unset, 0 none, 1 deflate
    int shuffle = -1;        // -1 unset, 0/1
    int quantize = -1;       // -1 unset, else Quantize
    int digits = 0;
    std::vector<std::int64_t> chunk;
  };
  struct Entry {
    std::vector<std::string> names;
    Setting setting;
    std::string where;  // "origin: compression_vars entry '...'" for errors
  };
  static void apply(const Setting& s, FieldStorage& f);

  FieldStorage defaults_;
  std::vector<Entry> entries_;
  std::string quantize_where_;
};

// Where a setting came from, for messages: its origin, or "OutputOptions::<key>" when set in code.
std::string setting_where(const SettingText& text, const char* key);

}  // namespace nwpio::detail
