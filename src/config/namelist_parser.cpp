// Grammar of one group (docs/NAMELIST.md); where each group begins is find_group_start's rule:
//   group      := ('&' | '$') name { ',' } { assignment } ('/' | '&end' | '$end')
//   assignment := name [ '(' integer ')' ] '=' { value | ',' }
//   value      := integer | real | logical | string | T | F | r '*' [value]
// A value list ends where the next `name =` or `name(` begins, or at the group end, so values
// may continue over lines and commas between values are optional (as in Fortran).
#include "config/namelist_parser.hpp"

#include <algorithm>
#include <cctype>

#include "config/namelist_search.hpp"
#include "nwpio/error.hpp"
#include "util/text.hpp"

namespace nwpio::detail {

namespace {

bool iequals(std::string_view a, std::string_view b) { return lower(a) == lower(b); }

// T, F, TRUE, FALSE written without periods are logical values where a value is expected.
bool bare_logical(std::string_view name, bool& value) {
  const std::string l = lower(name);
  if (l == "t" || l == "true") return value = true, true;
  if (l == "f" || l == "false") return value = false, true;
  return false;
}

// Bounds on what one file can ask the parser to allocate: a repeat count or an index like
// "x = 999999999*1" or "x(999999999) = 1" would otherwise allocate gigabytes (found by fuzzing).
// WRF's longest namelist arrays have max_eta (1001) or max_domains (21) entries.
constexpr std::size_t kMaxColumns = 10000;      // values (columns) of one key
constexpr std::size_t kMaxTotalValues = 1000000;  // values of all keys of the file together

class Parser {
 public:
  // `tokens` of one group, from its start (tokenize_group); `total_values` counts the values of
  // all groups of the file against kMaxTotalValues.
  Parser(std::vector<Token> tokens, const std::string& file, std::size_t& total_values)
      : t_(std::move(tokens)), file_(file), total_values_(total_values) {}

  NamelistGroup run() { return group(); }

 private:
  const Token& peek(std::size_t ahead = 0) const { return t_[std::min(k_ + ahead, t_.size() - 1)]; }
  const Token& take() { return t_[std::min(k_++, t_.size() - 1)]; }

  [[noreturn]] void fail(const Token& found, const std::string& expected) const {
    throw Error(ErrorKind::Config, where(file_, found.pos) + "expected " + expected + ", found " + describe(found));
  }

  NamelistGroup group() {
    const Token& start = take();
    NamelistGroup g;
    g.name = start.text;
    g.pos = start.pos;
    while (peek().kind == TokenKind::Comma) take();  // gfortran accepts "&name," before the first key
    while (true) {
      const Token& t = peek();
      if (t.kind == TokenKind::GroupEnd) {
        take();
        return g;
      }
      if (t.kind == TokenKind::Name) {
        assignment(g);
        continue;
      }
      fail(t, "a key name or '/' to end &" + g.name);
    }
  }

  void assignment(NamelistGroup& g) {
    const Token& key = take();
    std::size_t first_column = 0;  // 0-based
    if (peek().kind == TokenKind::LParen) {
      take();
      const Token& index = take();
      if (index.kind != TokenKind::Integer || index.integer < 1) fail(index, "an index of at least 1 in " + key.text + "(...)");
      if (index.integer > static_cast<std::int64_t>(kMaxColumns)) {
        fail(index, "an index of at most " + std::to_string(kMaxColumns) + " in " + key.text + "(...)");
      }
      first_column = static_cast<std::size_t>(index.integer - 1);
      const Token& close = take();
      if (close.kind != TokenKind::RParen) fail(close, "')' after the index of " + key.text);
    }
    if (peek().kind != TokenKind::Equals) fail(peek(), "'=' after '" + key.text + "'");
    take();

    std::vector<NamelistValue> values;
    bool after_value = false;  // a ',' right after '=' or after another ',' is a null value
    while (true) {
      const Token& t = peek();
      if (t.kind == TokenKind::GroupEnd || t.kind == TokenKind::GroupStart || t.kind == TokenKind::End || starts_assignment()) {
        break;
      }
      if (t.kind == TokenKind::Comma) {
        if (!after_value) values.push_back(null_at(t.pos));
        after_value = false;
        take();
        continue;
      }
      if (t.kind == TokenKind::Repeat) {
        if (t.integer > static_cast<std::int64_t>(kMaxColumns - std::min(kMaxColumns, first_column + values.size()))) {
          fail(t, "at most " + std::to_string(kMaxColumns) + " values for " + key.text);
        }
        take();
        NamelistValue v = null_at(t.pos);
        if (t.attached) v = value(take());
        values.insert(values.end(), static_cast<std::size_t>(t.integer), v);
        after_value = true;
        continue;
      }
      if (first_column + values.size() >= kMaxColumns) fail(t, "at most " + std::to_string(kMaxColumns) + " values for " + key.text);
      values.push_back(value(take()));
      after_value = true;
    }
    if (first_column + values.size() > kMaxColumns) fail(peek(), "at most " + std::to_string(kMaxColumns) + " values for " + key.text);
    total_values_ += values.size();
    if (total_values_ > kMaxTotalValues) fail(peek(), "at most " + std::to_string(kMaxTotalValues) + " values in the file");

    NamelistEntry* entry = nullptr;
    for (NamelistEntry& e : g.entries) {
      if (e.name == lower(key.text)) entry = &e;
    }
    if (entry == nullptr) {
      g.entries.push_back(NamelistEntry{lower(key.text), key.pos, {}});
      entry = &g.entries.back();
    }
    // A later assignment overrides the columns it gives (Fortran semantics); nulls keep the old value.
    if (entry->values.size() < first_column + values.size()) entry->values.resize(first_column + values.size());
    for (std::size_t c = 0; c < values.size(); ++c) {
      if (values[c].kind != NamelistValue::Kind::Null) entry->values[first_column + c] = values[c];
    }
  }

  // Looking at `name =` or `name(`: the next assignment begins.
  bool starts_assignment() const {
    return peek().kind == TokenKind::Name &&
           (peek(1).kind == TokenKind::Equals || peek(1).kind == TokenKind::LParen);
  }

  static NamelistValue null_at(TextPos p) {
    NamelistValue v;
    v.pos = p;
    return v;
  }

  NamelistValue value(const Token& t) const {
    NamelistValue v;
    v.pos = t.pos;
    v.text = t.text;
    switch (t.kind) {
      case TokenKind::Integer:
        v.kind = NamelistValue::Kind::Integer;
        v.integer = t.integer;
        v.real = static_cast<double>(t.integer);
        return v;
      case TokenKind::Real:
        v.kind = NamelistValue::Kind::Real;
        v.real = t.real;
        return v;
      case TokenKind::Logical:
        v.kind = NamelistValue::Kind::Logical;
        v.logical = t.logical;
        return v;
      case TokenKind::String:
        v.kind = NamelistValue::Kind::String;
        return v;
      case TokenKind::Name: {
        bool b = false;
        if (bare_logical(t.text, b)) {
          v.kind = NamelistValue::Kind::Logical;
          v.logical = b;
          return v;
        }
        fail(t, "a value (strings need quotes) or 'name =' of the next key");
      }
      default:
        fail(t, "a value");
    }
  }

  std::vector<Token> t_;
  const std::string& file_;
  std::size_t k_ = 0;
  std::size_t& total_values_;
};

}  // namespace

const NamelistEntry* NamelistGroup::find(std::string_view key) const noexcept {
  for (const NamelistEntry& e : entries) {
    if (iequals(e.name, key)) return &e;
  }
  return nullptr;
}

Namelist Namelist::parse(std::string_view text, std::string file, std::span<const std::string_view> groups) {
  Namelist nl;
  nl.file_ = std::move(file);
  std::size_t total_values = 0;
  for (std::string_view name : groups) {
    const std::optional<std::size_t> start = find_group_start(text, name);
    if (!start) continue;
    nl.groups_.push_back(Parser(tokenize_group(text, *start, nl.file_), nl.file_, total_values).run());
  }
  return nl;
}

const NamelistGroup* Namelist::group(std::string_view name) const noexcept {
  for (const NamelistGroup& g : groups_) {
    if (iequals(g.name, name)) return &g;
  }
  return nullptr;
}

const NamelistEntry* Namelist::find(std::string_view group_name, std::string_view key) const noexcept {
  const NamelistGroup* g = group(group_name);
  return g ? g->find(key) : nullptr;
}

}  // namespace nwpio::detail
