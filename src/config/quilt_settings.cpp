#include "config/quilt_settings.hpp"

#include <limits>

#include "config/namelist_values.hpp"
#include "config/nwpio_keys.hpp"
#include "nwpio/error.hpp"

namespace nwpio::detail {

namespace {

constexpr const char* kQuilt = "namelist_quilt";

int int_key(const NamelistReader& r, const char* key, int fallback, std::string& where_out) {
  const NamelistValue* v = r.find(kQuilt, key, Columns::One);
  if (v == nullptr) return fallback;
  where_out = where(r.namelist().file(), v->pos);
  const std::int64_t n = value_as_integer(r.namelist(), key, *v);
  if (n < std::numeric_limits<int>::min() || n > std::numeric_limits<int>::max()) {
    throw Error(ErrorKind::Config, where_out + "expected a value of " + key + " within 32 bits, found " + std::to_string(n));
  }
  return static_cast<int>(n);
}

}  // namespace

QuiltSizes quilt_sizes_from(const Namelist& nl) {
  OutputOptions unused;
  apply_nwpio_group(nl, unused);
  NamelistReader r(nl, 1);
  QuiltSizes q;
  q.tasks_per_group = int_key(r, "nio_tasks_per_group", 0, q.where_tasks);
  q.groups = int_key(r, "nio_groups", 1, q.where_groups);
  return q;
}

}  // namespace nwpio::detail
