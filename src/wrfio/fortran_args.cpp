#include "wrfio/fortran_args.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdint>
#include <utility>
#include <vector>

#include "wrfio/wrf_status.hpp"

namespace nwpio::wrfio {

namespace {

constexpr std::size_t kMaxName = 256;  // NC_MAX_NAME, as nwpio's Schema allows
constexpr std::size_t kShown = 40;

std::string shown(std::string_view text) {
  std::string s(text.substr(0, kShown));
  if (text.size() > kShown) s += "...";
  return s;
}

std::string text_of(FortranText t, bool adjust_left = false) { return fortran_string(t.text, t.length, adjust_left); }

std::array<int, 3> three(const int* values) {
  std::array<int, 3> a{0, 0, 0};
  if (values != nullptr) std::copy(values, values + 3, a.begin());
  return a;
}

// netCDF's rule for attribute names (nwpio's Schema applies the same when the file is defined;
// checked here so that the call itself gets WRF's status): WRF's "WEST-EAST_GRID_DIMENSION" is
// allowed, '/' and control characters are not.
void check_attribute_name(const std::string& where, const std::string& name) {
  const std::string quoted = where + " '" + shown(name) + "'";
  if (name.size() > kMaxName) {
    throw WrfError(wrf_status::kCharStringTooLong, ErrorKind::InvalidArgument,
                   quoted + " is " + std::to_string(name.size()) + " characters long; netCDF allows " +
                       std::to_string(kMaxName) + " (NC_MAX_NAME)");
  }
  const auto bad = [&](const std::string& why) {
    throw WrfError(wrf_status::kNotSupported, ErrorKind::InvalidArgument, quoted + ": " + why);
  };
  if (name.empty()) bad("the name is empty");
  const auto first = static_cast<unsigned char>(name[0]);
  if (!std::isalnum(first) && first != '_') bad("a name starts with a letter, digit or '_'");
  for (char c : name) {
    if (c == '/' || !std::isprint(static_cast<unsigned char>(c))) bad("the name contains '/' or a control character");
  }
  if (name.back() == ' ') bad("the name ends with a blank");
}

template <class T>
std::vector<T> values(const void* data, int count) {
  const auto* v = static_cast<const T*>(data);
  return std::vector<T>(v, v + count);
}

}  // namespace

std::string fortran_string(const char* text, int length, bool adjust_left) {
  if (text == nullptr || length <= 0) return {};
  std::string s(text, static_cast<std::size_t>(length));
  const auto end = s.find_last_not_of(std::string(" \0", 2));
  s.erase(end == std::string::npos ? 0 : end + 1);
  if (adjust_left) s.erase(0, std::min(s.size(), s.find_first_not_of(' ')));
  return s;
}

RawFieldArgs field_args(FortranText date, FortranText var, int field_type, int domain_desc, FortranText memory_order,
                        FortranText stagger, const char* dim_names, int dim_name_length, const FortranBounds& bounds) {
  RawFieldArgs a;
  a.var = text_of(var);
  a.date = text_of(date);
  a.memory_order = text_of(memory_order, /*adjust_left=*/true);
  a.stagger = text_of(stagger, true);
  const int n = std::max(dim_name_length, 0);
  for (int d = 0; d < 3; ++d) a.dim_names[d] = dim_names ? fortran_string(dim_names + d * n, n) : std::string();
  a.field_type = field_type;
  a.domain_desc = domain_desc;
  a.domain_start = three(bounds.domain_start);
  a.domain_end = three(bounds.domain_end);
  a.memory_start = three(bounds.memory_start);
  a.memory_end = three(bounds.memory_end);
  a.patch_start = three(bounds.patch_start);
  a.patch_end = three(bounds.patch_end);
  return a;
}

Attribute attribute_args(const std::string& owner, const std::string& name, int kind, const void* data, int count) {
  const std::string where =
      owner.empty() ? std::string("global attribute") : "attribute of variable '" + shown(owner) + "'";
  if (kind < static_cast<int>(PutKind::Text) || kind > static_cast<int>(PutKind::Double)) {
    throw WrfError(wrf_status::kBadDataType, ErrorKind::InvalidArgument,
                   where + " '" + shown(name) + "': kind " + std::to_string(kind) +
                       " is not text (0), integer or logical (1), real (2) or double (3)");
  }
  check_attribute_name(where, name);
  const auto k = static_cast<PutKind>(kind);
  if (count < (k == PutKind::Text ? 0 : 1) || (count > 0 && data == nullptr)) {
    throw WrfError(wrf_status::kLengthLessThan1, ErrorKind::InvalidArgument,
                   where + " '" + name + "': Count " + std::to_string(count) +
                       (k == PutKind::Text ? " characters" : " values (at least one)"));
  }
  switch (k) {
    case PutKind::Text: {
      std::string text = fortran_string(static_cast<const char*>(data), count);
      // WRF's package stores an empty text of a variable as one NUL (ncdump shows "").
      if (text.empty() && !owner.empty()) text.assign(1, '\0');
      return {name, std::move(text)};
    }
    case PutKind::Int: return {name, values<std::int32_t>(data, count)};
    case PutKind::Real: return {name, values<float>(data, count)};
    case PutKind::Double: return {name, values<double>(data, count)};
  }
  return {name, std::string()};
}

}  // namespace nwpio::wrfio
