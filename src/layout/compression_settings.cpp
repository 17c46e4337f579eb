#include "layout/compression_settings.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>

#include "nwpio/error.hpp"
#include "util/text.hpp"

namespace nwpio::detail {

namespace {

std::string trim(std::string_view s) {
  std::size_t a = 0, b = s.size();
  while (a < b && std::isspace(static_cast<unsigned char>(s[a]))) ++a;
  while (b > a && std::isspace(static_cast<unsigned char>(s[b - 1]))) --b;
  return std::string(s.substr(a, b - a));
}

// Splits on any of `seps`, dropping empty pieces.
std::vector<std::string> split(std::string_view s, std::string_view seps) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    if (seps.find(c) != std::string_view::npos) {
      if (!trim(cur).empty()) out.push_back(trim(cur));
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!trim(cur).empty()) out.push_back(trim(cur));
  return out;
}

[[noreturn]] void bad(const std::string& where, const std::string& what) { throw Error(ErrorKind::Config, where + ": " + what); }

std::int64_t positive_number(const std::string& text, const std::string& where, const std::string& what) {
  std::int64_t v = 0;
  const auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || p != text.data() + text.size() || v < 1) {
    bad(where, what + " must be a positive integer, found '" + text + "'");
  }
  return v;
}

int deflate_level_of(const std::string& text, const std::string& where) {
  std::int64_t v = -1;
  const auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || p != text.data() + text.size() || v < 0 || v > 9) {
    bad(where, "deflate level '" + text + "' is outside 0..9");
  }
  return static_cast<int>(v);
}

constexpr std::string_view kQuantizers[] = {"none", "bitgroom", "granularbr", "bitround"};

bool is_quantizer(const std::string& key) {
  return std::find(std::begin(kQuantizers), std::end(kQuantizers), key) != std::end(kQuantizers);
}

// "bitround=9", "granularbr=3", "bitgroom=3", "none" (or "quantize=none" inside an entry).
void parse_quantize(const std::string& key, const std::string& value, const std::string& where, int& mode, int& digits) {
  const auto it = std::find(std::begin(kQuantizers), std::end(kQuantizers), key);
  mode = static_cast<int>(it - std::begin(kQuantizers));
  if (mode == 0) {
    if (!value.empty() && lower(value) != "none") bad(where, "quantize 'none' takes no digits, found '" + value + "'");
    digits = 0;
    return;
  }
  if (value.empty()) bad(where, key + " needs its number of " + (key == "bitround" ? "mantissa bits" : "significant digits") + " (" + key + "=N)");
  digits = static_cast<int>(std::min<std::int64_t>(positive_number(value, where, key), 1000));
}

std::vector<std::int64_t> parse_chunk(const std::string& value, const std::string& where) {
  std::vector<std::int64_t> shape;
  for (const std::string& n : split(value, "xX*")) shape.push_back(positive_number(n, where, "chunk length"));
  if (shape.empty()) bad(where, "chunk needs a shape such as chunk=1x150x425 (file order, Time left out)");
  return shape;
}

bool parse_bool(const std::string& value, const std::string& where, const std::string& key) {
  const std::string v = lower(value);
  if (v == "yes" || v == "true" || v == "on" || v == "1" || v == ".true.") return true;
  if (v == "no" || v == "false" || v == "off" || v == "0" || v == ".false.") return false;
  bad(where, key + " must be yes or no, found '" + value + "'");
}

int filter_of(const std::string& value, const std::string& where) {
  const std::string v = lower(trim(value));
  if (v == "deflate" || v == "zlib") return 1;
  if (v == "none") return 0;
  bad(where, "unknown compression filter '" + value +
                 "'; nwpio's parallel netCDF-4 writes 'deflate' (zlib, with or without shuffle) or 'none' (see "
                 "docs/COMPRESSION.md for the filters that were tried)");
}

std::string type_name(DataType t) {
  switch (t) {
    case DataType::Float: return "float";
    case DataType::Double: return "double";
    case DataType::Int: return "int";
    case DataType::Char: return "char";
  }
  return "?";
}

// Largest digits netCDF-C accepts (NC_QUANTIZE_MAX_FLOAT_NSD 7, _NSB 23; double 15, 52).
int max_digits(Quantize q, DataType t) {
  const bool bits = q == Quantize::BitRound;
  return t == DataType::Float ? (bits ? 23 : 7) : (bits ? 52 : 15);
}

}  // namespace

std::string setting_where(const SettingText& text, const char* key) {
  return text.origin.empty() ? std::string("OutputOptions::") + key : text.origin + ": " + key;
}

void CompressionSettings::apply(const Setting& s, FieldStorage& f) {
  if (s.filter == 0) {
    f.deflate = false;
    f.shuffle = false;
  } else if (s.filter == 1) {
    f.deflate = f.deflate_level > 0;
  }
  if (s.deflate_level >= 0) {
    f.deflate_level = s.deflate_level;
    f.deflate = s.deflate_level > 0;
  }
  if (s.shuffle >= 0) f.shuffle = s.shuffle == 1;
  if (s.quantize >= 0) {
    f.quantize = static_cast<Quantize>(s.quantize);
    f.quantize_digits = s.digits;
  }
  if (!s.chunk.empty()) f.chunk = s.chunk;
}

CompressionSettings CompressionSettings::parse(const OutputOptions& o) {
  CompressionSettings c;
  const std::string filter_where = "compression_filter";
  const int filter = filter_of(o.compression_filter, filter_where);
  if (o.deflate_level < 0 || o.deflate_level > 9) {
    bad("deflate_level", "deflate level " + std::to_string(o.deflate_level) + " is outside 0..9");
  }
  c.defaults_.deflate_level = o.deflate_level;
  c.defaults_.deflate = filter == 1 && o.deflate_level > 0;
  c.defaults_.shuffle = filter == 1 && o.shuffle;

  c.quantize_where_ = setting_where(o.quantize, "quantize") + " '" + o.quantize.text + "'";
  const std::string q = lower(trim(o.quantize.text));
  if (!q.empty()) {
    const std::size_t eq = q.find('=');
    const std::string key = trim(q.substr(0, eq)), value = eq == std::string::npos ? "" : trim(q.substr(eq + 1));
    if (!is_quantizer(key)) {
      bad(c.quantize_where_, "unknown quantization '" + key + "'; expected none, bitround=NSB, granularbr=NSD or bitgroom=NSD");
    }
    int mode = 0, digits = 0;
    parse_quantize(key, value, c.quantize_where_, mode, digits);
    c.defaults_.quantize = static_cast<Quantize>(mode);
    c.defaults_.quantize_digits = digits;
  }

  for (const std::string& item : split(o.compression_vars.text, ";")) {
    Entry e;
    e.where = setting_where(o.compression_vars, "compression_vars") + " entry '" + item + "'";
    const std::size_t colon = item.find(':');
    if (colon == std::string::npos) bad(e.where, "expected 'NAMES: key=value ...' (a ':' after the variable names)");
    e.names = split(item.substr(0, colon), " ,\t");
    if (e.names.empty()) bad(e.where, "no variable named before ':'");
    const std::vector<std::string> settings = split(item.substr(colon + 1), " ,\t");
    if (settings.empty()) bad(e.where, "no setting after ':'");
    for (const std::string& kv : settings) {
      const std::size_t eq = kv.find('=');
      const std::string key = lower(trim(kv.substr(0, eq)));
      const std::string value = eq == std::string::npos ? "" : trim(kv.substr(eq + 1));
      if (key == "deflate") {
        e.setting.deflate_level = deflate_level_of(value, e.where);
      } else if (key == "shuffle") {
        e.setting.shuffle = parse_bool(value, e.where, key) ? 1 : 0;
      } else if (key == "filter") {
        e.setting.filter = filter_of(value, e.where);
      } else if (key == "quantize") {
        if (lower(value) != "none") bad(e.where, "quantize=" + value + ": write bitround=NSB, granularbr=NSD or bitgroom=NSD, or quantize=none");
        e.setting.quantize = 0;
      } else if (is_quantizer(key) && key != "none") {
        parse_quantize(key, value, e.where, e.setting.quantize, e.setting.digits);
      } else if (key == "chunk") {
        e.setting.chunk = parse_chunk(value, e.where);
      } else {
        bad(e.where, "unknown setting '" + key +
                         "'; expected deflate=0-9, shuffle=yes|no, filter=deflate|none, bitround=N, granularbr=N, "
                         "bitgroom=N, quantize=none or chunk=KxJxI");
      }
    }
    c.entries_.push_back(std::move(e));
  }
  return c;
}

FieldStorage CompressionSettings::for_variable(const std::string& name, DataType type) const {
  FieldStorage f = defaults_;
  if (type != DataType::Float && type != DataType::Double) f.quantize = Quantize::None;
  for (const Entry& e : entries_) {
    if (std::find(e.names.begin(), e.names.end(), name) == e.names.end()) continue;
    apply(e.setting, f);
    if (!e.setting.chunk.empty()) f.chunk_origin = e.where;
  }
  return f;
}

void CompressionSettings::check_variables(const std::vector<std::pair<std::string, DataType>>& variables) const {
  const auto type_of = [&](const std::string& name) -> const DataType* {
    for (const auto& [n, t] : variables) {
      if (n == name) return &t;
    }
    return nullptr;
  };
  // The stream-wide quantization: digits within range for every float/double field it touches.
  if (defaults_.quantize != Quantize::None) {
    for (const auto& [n, t] : variables) {
      if (t != DataType::Float && t != DataType::Double) continue;
      if (defaults_.quantize_digits > max_digits(defaults_.quantize, t)) {
        bad(quantize_where_, std::to_string(defaults_.quantize_digits) + " is more than a " + type_name(t) + " holds (" +
                                 n + "; at most " + std::to_string(max_digits(defaults_.quantize, t)) + ")");
      }
    }
  }
  for (const Entry& e : entries_) {
    for (const std::string& n : e.names) {
      const DataType* t = type_of(n);
      if (t == nullptr) bad(e.where, "no variable " + n + " in this stream");
      const int q = e.setting.quantize;
      if (q > 0 && *t != DataType::Float && *t != DataType::Double) {
        bad(e.where, "quantization needs a float or double variable; " + n + " is " + type_name(*t));
      }
      if (q > 0 && e.setting.digits > max_digits(static_cast<Quantize>(q), *t)) {
        bad(e.where, std::to_string(e.setting.digits) + " is more than a " + type_name(*t) + " holds (at most " +
                         std::to_string(max_digits(static_cast<Quantize>(q), *t)) + ")");
      }
    }
  }
}

}  // namespace nwpio::detail
