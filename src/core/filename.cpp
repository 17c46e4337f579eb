#include "core/filename.hpp"

#include <algorithm>
#include <cstdio>

namespace nwpio::detail {

namespace {

void replace_all(std::string& s, std::string_view what, std::string_view with) {
  for (std::size_t pos = s.find(what); pos != std::string::npos; pos = s.find(what, pos + with.size())) {
    s.replace(pos, what.size(), with);
  }
}

}  // namespace

std::string expand_file_name(std::string_view outname, int domain_id, std::string_view date, bool replace_colons) {
  char domain[16];
  std::snprintf(domain, sizeof domain, "%02d", domain_id);
  std::string d(date);
  if (replace_colons) std::replace(d.begin(), d.end(), ':', '_');
  std::string name(outname);
  replace_all(name, "<domain>", domain);
  replace_all(name, "<date>", d);
  return name;
}

}  // namespace nwpio::detail
