#include "config/namelist_values.hpp"

#include "nwpio/error.hpp"

namespace nwpio::detail {

namespace {

[[noreturn]] void mismatch(const Namelist& nl, std::string_view key, const NamelistValue& v, std::string_view what) {
  throw Error(ErrorKind::Config,
              where(nl.file(), v.pos) + "expected " + std::string(what) + " for " + std::string(key) + ", found " + describe(v));
}

}  // namespace

std::string describe(const NamelistValue& v) {
  switch (v.kind) {
    case NamelistValue::Kind::Null: return "no value";
    case NamelistValue::Kind::Integer: return "integer " + v.text;
    case NamelistValue::Kind::Real: return "real " + v.text;
    case NamelistValue::Kind::Logical: return "logical " + v.text;
    case NamelistValue::Kind::String: return "string '" + v.text + "'";
  }
  return "?";
}

std::int64_t value_as_integer(const Namelist& nl, std::string_view key, const NamelistValue& v) {
  if (v.kind != NamelistValue::Kind::Integer) mismatch(nl, key, v, "an integer");
  return v.integer;
}

double value_as_real(const Namelist& nl, std::string_view key, const NamelistValue& v) {
  if (v.kind != NamelistValue::Kind::Integer && v.kind != NamelistValue::Kind::Real) mismatch(nl, key, v, "a number");
  return v.real;
}

bool value_as_logical(const Namelist& nl, std::string_view key, const NamelistValue& v) {
  if (v.kind != NamelistValue::Kind::Logical) mismatch(nl, key, v, "a logical (.true. or .false.)");
  return v.logical;
}

std::string value_as_string(const Namelist& nl, std::string_view key, const NamelistValue& v) {
  if (v.kind != NamelistValue::Kind::String) mismatch(nl, key, v, "a quoted string");
  return v.text;
}

const NamelistValue* NamelistReader::find(std::string_view group, std::string_view key, Columns columns) const {
  const NamelistEntry* e = nl_.find(group, key);
  if (e == nullptr) return nullptr;
  if (columns == Columns::One) {
    for (std::size_t c = 1; c < e->values.size(); ++c) {
      if (e->values[c].kind != NamelistValue::Kind::Null) {
        throw Error(ErrorKind::Config, where(nl_.file(), e->values[c].pos) + "expected one value for " +
                                           std::string(key) + ", found a second value, " + describe(e->values[c]));
      }
    }
  }
  const std::size_t column = columns == Columns::One ? 0 : static_cast<std::size_t>(domain_ - 1);
  if (column >= e->values.size() || e->values[column].kind == NamelistValue::Kind::Null) return nullptr;
  return &e->values[column];
}

std::int64_t NamelistReader::integer(std::string_view group, std::string_view key, Columns c, std::int64_t fallback) const {
  const NamelistValue* v = find(group, key, c);
  return v ? value_as_integer(nl_, key, *v) : fallback;
}

double NamelistReader::real(std::string_view group, std::string_view key, Columns c, double fallback) const {
  const NamelistValue* v = find(group, key, c);
  return v ? value_as_real(nl_, key, *v) : fallback;
}

bool NamelistReader::logical(std::string_view group, std::string_view key, Columns c, bool fallback) const {
  const NamelistValue* v = find(group, key, c);
  return v ? value_as_logical(nl_, key, *v) : fallback;
}

std::string NamelistReader::string(std::string_view group, std::string_view key, Columns c, std::string fallback) const {
  const NamelistValue* v = find(group, key, c);
  return v ? value_as_string(nl_, key, *v) : fallback;
}

std::string NamelistReader::where_key(std::string_view group, std::string_view key) const {
  if (const NamelistEntry* e = nl_.find(group, key)) return where(nl_.file(), e->pos);
  if (const NamelistGroup* g = nl_.group(group)) return where(nl_.file(), g->pos);
  return nl_.file() + ": ";
}

const NamelistValue& NamelistReader::required(std::string_view group, std::string_view key, Columns c) const {
  const NamelistValue* v = find(group, key, c);
  if (v != nullptr) return *v;
  std::string what = nl_.find(group, key) == nullptr
                         ? "missing"
                         : "gives no value for domain " + std::to_string(c == Columns::One ? 1 : domain_);
  throw Error(ErrorKind::Config, where_key(group, key) + "expected " + std::string(key) + " in &" + std::string(group) +
                                     (c == Columns::PerDomain ? " (column " + std::to_string(domain_) + ")" : "") +
                                     ", found it " + what);
}

std::int64_t NamelistReader::required_integer(std::string_view group, std::string_view key, Columns c) const {
  return value_as_integer(nl_, key, required(group, key, c));
}

double NamelistReader::required_real(std::string_view group, std::string_view key, Columns c) const {
  return value_as_real(nl_, key, required(group, key, c));
}

}  // namespace nwpio::detail
