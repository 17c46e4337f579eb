// Every field of OutputOptions, defined once: its name, type, allowed values, default, one line
// of doc, and how it is read and carried. From this one table come
//   - the &nwpio reader (nwpio_keys.cpp: the rows marked `namelist`),
//   - the check of the values a program set in code, when a stream opens (check_option_values),
//   - the JSON the I/O servers receive (nlohmann-json's to_json / from_json of OutputOptions),
//   - the option table of docs/NAMELIST.md (nwpio_namelist_table; a test compares the two).
// To add an option: a field in include/nwpio/options.hpp and one row in option_table.cpp.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "config/nwpio_keys.hpp"
#include "nwpio/options.hpp"

namespace nwpio::detail {

struct OptionRow {
  std::string_view name;   // the &nwpio key for a namelist row, else its name in the servers' JSON
  std::string_view type;   // "logical", "integer", "string", "path" (a string with $NAME expanded)
  bool namelist = false;   // a key of &nwpio
  std::span<const std::string_view> choices;  // a string row's allowed values (empty: any)
  std::int64_t min = 0, max = 0;              // an integer row's range (min > max: any)
  std::string_view doc;    // one line: what it sets
  nlohmann::json (*get)(const OutputOptions&);
  void (*set)(OutputOptions&, const nlohmann::json&);
  // &nwpio rows: sets the option from the namelist value (its type and range checked there, with
  // the value's file:line:column).
  void (*apply)(OutputOptions&, const NwpioValue&) = nullptr;
};

std::span<const OptionRow> option_rows();

// Throws Error(InvalidArgument) for an integer option outside its range, naming it ("options.
// max_round_bytes must be at least 1, not 0"): the values a program set in code, when the stream
// opens (namelist values are checked as they are read).
void check_option_values(const OutputOptions& options);

// A row's value in `options` as a namelist literal (".true.", "2", "'auto'"), for the docs.
std::string namelist_literal(const OptionRow& row, const OutputOptions& options);

// The &nwpio table of docs/NAMELIST.md (markdown, one line per key: key, type, default, doc).
std::string nwpio_namelist_table();

}  // namespace nwpio::detail

namespace nwpio {

// nlohmann-json's binding (found by argument-dependent lookup): every row of the option table.
void to_json(nlohmann::json& j, const OutputOptions& options);
void from_json(const nlohmann::json& j, OutputOptions& options);

}  // namespace nwpio
