// Reads a namelist file with nwpio's reader and compares with what gfortran read from the same
// file (read_with_fortran's output): where gfortran read a group, nwpio must read the same
// values; where gfortran refused one, nwpio must refuse the file with "file:line:column: ...".
// Usage: read_with_nwpio NAMELIST_FILE GFORTRAN_OUTPUT
#include <algorithm>
#include <iostream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "config/namelist_file.hpp"
#include "config/namelist_values.hpp"
#include "config/nwpio_keys.hpp"
#include "nwpio/error.hpp"
#include "util/text.hpp"

namespace {

using namespace nwpio::detail;

enum class Type { Integer, Text, Logical };
struct Key {
  const char* group;
  const char* name;
  Type type;
  std::size_t columns;
};
// read_with_fortran's keys, in its order.
const Key kKeys[] = {
    {"time_control", "history_interval", Type::Integer, 4}, {"time_control", "frames_per_outfile", Type::Integer, 4},
    {"time_control", "start_year", Type::Integer, 4},       {"time_control", "io_form_history", Type::Integer, 1},
    {"time_control", "history_outname", Type::Text, 1},     {"time_control", "nocolons", Type::Logical, 1},
    {"domains", "max_dom", Type::Integer, 1},               {"domains", "e_we", Type::Integer, 4},
    {"domains", "e_sn", Type::Integer, 4},                  {"namelist_quilt", "nio_tasks_per_group", Type::Integer, 1},
    {"namelist_quilt", "nio_groups", Type::Integer, 1},     {"nwpio", "output_dir", Type::Text, 1},
    {"nwpio", "writer_ranks", Type::Integer, 1},            {"nwpio", "gather", Type::Text, 1},
    {"nwpio", "write_behind", Type::Logical, 1},
};

// One key's values as read_with_fortran prints them (unset: -999, '(unset)', .false.).
std::string values_of(const Namelist& nl, const Key& key) {
  const NamelistEntry* e = nl.find(key.group, key.name);
  for (std::size_t c = key.columns; e != nullptr && c < e->values.size(); ++c) {
    if (e->values[c].kind == NamelistValue::Kind::Null) continue;
    throw nwpio::Error(nwpio::ErrorKind::Config, where(nl.file(), e->values[c].pos) + "more values for " + key.name +
                                                     " than its " + std::to_string(key.columns) + " elements");
  }
  std::string out;
  for (std::size_t c = 0; c < key.columns; ++c) {
    const NamelistValue* v = e != nullptr && c < e->values.size() && e->values[c].kind != NamelistValue::Kind::Null
                                 ? &e->values[c] : nullptr;
    if (c > 0) out += ",";
    switch (key.type) {
      case Type::Integer: out += v ? std::to_string(value_as_integer(nl, key.name, *v)) : "-999"; break;
      case Type::Text: out += quoted(v ? value_as_string(nl, key.name, *v) : std::string("(unset)")); break;
      case Type::Logical: out += v && value_as_logical(nl, key.name, *v) ? ".true." : ".false."; break;
    }
  }
  return out;
}

std::vector<std::string> read_with_nwpio(const std::string& path) {
  const Namelist nl = Namelist::parse(read_text_file(path, "namelist file"), path);
  nwpio::OutputOptions unused;
  apply_nwpio_group(nl, unused);  // &nwpio's keys are checked as the library checks them
  std::vector<std::string> lines;
  for (std::string_view group : kGroupsNwpioReads) {
    lines.push_back(std::string(group) + (nl.group(group) ? ": read" : ": absent"));
    if (nl.group(group) == nullptr) continue;
    for (const Key& key : kKeys) {
      if (key.group == group) lines.push_back(std::string(key.group) + "%" + key.name + " = " + values_of(nl, key));
    }
  }
  return lines;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: read_with_nwpio NAMELIST_FILE GFORTRAN_OUTPUT\n";
    return 2;
  }
  const std::string path = argv[1];
  std::vector<std::string> gfortran;
  bool gfortran_refused = false;
  {
    std::istringstream in(read_text_file(argv[2], "gfortran's output"));
    for (std::string line; std::getline(in, line);) {
      if (line.find(": refused") != std::string::npos) gfortran_refused = true;
      gfortran.push_back(line);
    }
  }
  if (gfortran.empty()) {
    std::cerr << "FAIL: gfortran's output " << argv[2] << " is empty\n";
    return 1;
  }
  std::vector<std::string> nwpio_lines;
  try {
    nwpio_lines = read_with_nwpio(path);
  } catch (const nwpio::Error& e) {
    std::cout << "nwpio refused: " << e.what() << "\n";
    // The message names the place: "<file>:<line>:<column>: ".
    const std::string message = e.what();
    const bool placed = message.rfind(path + ":", 0) == 0 &&
                        std::regex_search(message.substr(path.size() + 1), std::regex("^[0-9]+:[0-9]+: "));
    if (!gfortran_refused) std::cout << "FAIL: gfortran read every group of this file\n";
    if (!placed) std::cout << "FAIL: the message does not start with " << path << ":line:column:\n";
    return gfortran_refused && placed ? 0 : 1;
  }
  if (gfortran_refused) {
    std::cout << "FAIL: gfortran refused a group that nwpio read:\n";
    for (const std::string& line : gfortran) std::cout << "  gfortran: " << line << "\n";
    return 1;
  }
  bool same = nwpio_lines == gfortran;
  for (std::size_t i = 0; i < std::max(nwpio_lines.size(), gfortran.size()); ++i) {
    const std::string a = i < gfortran.size() ? gfortran[i] : "(nothing)";
    const std::string b = i < nwpio_lines.size() ? nwpio_lines[i] : "(nothing)";
    std::cout << (a == b ? "  same      " : "  DIFFERENT ") << a << (a == b ? "" : "   nwpio: " + b) << "\n";
  }
  if (!same) std::cout << "FAIL: nwpio read other values than gfortran\n";
  return same ? 0 : 1;
}
