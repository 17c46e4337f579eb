#include "config/namelist_search.hpp"

#include "util/text.hpp"

namespace nwpio::detail {

namespace {

bool is_name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

}  // namespace

std::optional<std::size_t> find_group_start(std::string_view text, std::string_view name) {
  const std::string wanted = lower(name);
  std::size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (c == '!') {  // gfortran skips the rest of the line while it looks for the group
      while (i < text.size() && text[i] != '\n') ++i;
      continue;
    }
    if (c == '&' || c == '$') {
      std::size_t end = i + 1;
      while (end < text.size() && is_name_char(text[end])) ++end;
      if (lower(text.substr(i + 1, end - i - 1)) == wanted) return i;
      i = end;
      continue;
    }
    ++i;
  }
  return std::nullopt;
}

}  // namespace nwpio::detail
