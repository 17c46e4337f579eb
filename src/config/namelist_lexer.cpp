// Fortran namelist tokens. The rules follow what gfortran and ifort accept in namelist input
// (list-directed values), restricted to what WRF namelists use; see docs/NAMELIST.md.
#include "config/namelist_lexer.hpp"

#include <cctype>
#include <charconv>
#include <cstdio>
#include <optional>

#include "nwpio/error.hpp"
#include "util/text.hpp"

namespace nwpio::detail {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_name_char(char c) { return is_alpha(c) || is_digit(c) || c == '_'; }
bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

std::string describe_char(char c) {
  if (static_cast<unsigned char>(c) >= 0x20 && static_cast<unsigned char>(c) < 0x7f) {
    return std::string("'") + c + "'";
  }
  char buf[16];
  std::snprintf(buf, sizeof buf, "byte 0x%02x", static_cast<unsigned>(static_cast<unsigned char>(c)));
  return buf;
}

class Lexer {
 public:
  Lexer(std::string_view text, std::size_t begin, std::string_view file) : s_(text), file_(file), i_(begin) {
    for (std::size_t k = 0; k < begin && k < s_.size(); ++k) {
      if (s_[k] == '\n') ++line_, line_start_ = k + 1;
    }
  }

  std::vector<Token> run_group() {
    std::vector<Token> out;
    while (true) {
      const std::optional<TextPos> comment = skip_blanks_and_comments();
      // gfortran reads a comment right after '=' or ',' on the same line as one more ',': an
      // empty value ("a = 1, ! c" + "2" is 1, empty, 2); tests/namelist_gfortran shows it.
      if (comment && !out.empty() && out.back().pos.line == comment->line &&
          (out.back().kind == TokenKind::Comma || out.back().kind == TokenKind::Equals)) {
        Token comma;
        comma.kind = TokenKind::Comma;
        comma.text = "!";
        comma.pos = *comment;
        out.push_back(comma);
      }
      if (i_ >= s_.size()) break;
      out.push_back(next());
      if (out.back().kind == TokenKind::GroupEnd) return out;
    }
    Token end;
    end.kind = TokenKind::End;
    end.pos = pos();
    out.push_back(end);
    return out;
  }

 private:
  TextPos pos() const { return TextPos{line_, static_cast<int>(i_ - line_start_) + 1}; }
  TextPos pos_at(std::size_t k) const { return TextPos{line_, static_cast<int>(k - line_start_) + 1}; }
  char at(std::size_t k) const { return k < s_.size() ? s_[k] : '\0'; }

  [[noreturn]] void fail(TextPos p, const std::string& expected, const std::string& found) const {
    throw Error(ErrorKind::Config, where(file_, p) + "expected " + expected + ", found " + found);
  }

  // Returns where the first comment skipped began, if any.
  std::optional<TextPos> skip_blanks_and_comments() {
    std::optional<TextPos> comment;
    while (i_ < s_.size()) {
      char c = s_[i_];
      if (c == '\n') {
        ++i_;
        ++line_;
        line_start_ = i_;
      } else if (is_blank(c)) {
        ++i_;
      } else if (c == '!') {
        if (!comment) comment = pos();
        while (i_ < s_.size() && s_[i_] != '\n') ++i_;
      } else {
        break;
      }
    }
    return comment;
  }

  Token make(TokenKind kind, std::size_t begin, std::size_t end) {
    Token t;
    t.kind = kind;
    t.text = std::string(s_.substr(begin, end - begin));
    t.pos = pos_at(begin);
    i_ = end;
    return t;
  }

  Token next() {
    const char c = s_[i_];
    const std::size_t b = i_;
    switch (c) {
      case '=': return make(TokenKind::Equals, b, b + 1);
      case ',': return make(TokenKind::Comma, b, b + 1);
      case '(': return make(TokenKind::LParen, b, b + 1);
      case ')': return make(TokenKind::RParen, b, b + 1);
      case '/': return make(TokenKind::GroupEnd, b, b + 1);
      case '\'':
      case '"': return string_token();
      case '&':
      case '$': return group_token();
      default: break;
    }
    if (is_alpha(c)) {
      std::size_t e = b;
      while (is_name_char(at(e))) ++e;
      return make(TokenKind::Name, b, e);
    }
    if (c == '.' && is_alpha(at(b + 1))) return logical_token();
    if (is_digit(c) || ((c == '+' || c == '-' || c == '.') && (is_digit(at(b + 1)) || (at(b + 1) == '.' && is_digit(at(b + 2)))))) {
      return number_token();
    }
    fail(pos(), "a name, a value, '=', ',' or '/'", describe_char(c));
  }

  Token group_token() {
    const std::size_t b = i_;
    std::size_t e = b + 1;
    if (!is_alpha(at(e))) {
      fail(pos_at(e), std::string("a group name after '") + s_[b] + "'",
           e < s_.size() && at(e) != '\n' ? describe_char(at(e)) : "end of line");
    }
    while (is_name_char(at(e))) ++e;
    Token t = make(TokenKind::GroupStart, b, e);
    t.text = lower(t.text.substr(1));
    if (t.text == "end") t.kind = TokenKind::GroupEnd;
    return t;
  }

  Token string_token() {
    const std::size_t b = i_;
    const TextPos start = pos();
    const char delim = s_[b];
    std::string value;
    std::size_t k = b + 1;
    while (true) {
      if (k >= s_.size() || s_[k] == '\n') {
        i_ = k;
        fail(pos_at(k),
             std::string("a closing ") + delim + " for the string opened at " + std::to_string(start.line) + ":" +
                 std::to_string(start.column),
             k >= s_.size() ? "end of file" : "end of line");
      }
      if (s_[k] == delim) {
        if (at(k + 1) == delim) {  // doubled delimiter: one literal delimiter
          value += delim;
          k += 2;
          continue;
        }
        break;
      }
      value += s_[k++];
    }
    Token t = make(TokenKind::String, b, k + 1);
    t.text = std::move(value);
    return t;
  }

  Token logical_token() {
    const std::size_t b = i_;
    std::size_t e = b + 1;
    while (is_alpha(at(e))) ++e;
    const std::string word = lower(s_.substr(b + 1, e - b - 1));
    const bool closed = at(e) == '.';
    if (!closed || (word != "t" && word != "true" && word != "f" && word != "false")) {
      std::size_t w = e + (closed ? 1 : 0);
      fail(pos_at(b), "a logical (.true., .false., .t., .f.)", quoted(s_.substr(b, w - b)));
    }
    Token t = make(TokenKind::Logical, b, e + 1);
    t.logical = word[0] == 't';
    return t;
  }

  Token number_token() {
    const std::size_t b = i_;
    std::size_t k = b;
    if (s_[k] == '+' || s_[k] == '-') ++k;
    std::size_t digits = 0;
    while (is_digit(at(k))) ++k, ++digits;
    bool real = false;
    if (at(k) == '.') {
      real = true;
      ++k;
      while (is_digit(at(k))) ++k, ++digits;
    }
    bool ok = digits > 0;
    const char x = at(k);
    if (ok && (x == 'e' || x == 'E' || x == 'd' || x == 'D')) {
      std::size_t m = k + 1;
      if (at(m) == '+' || at(m) == '-') ++m;
      if (is_digit(at(m))) {
        while (is_digit(at(m))) ++m;
        real = true;
        k = m;
      } else {
        ok = false;
      }
    }
    // A number ends at a blank, a separator or a comment; "1.2.3", "12abc", "1e" are errors.
    if (!ok || is_name_char(at(k)) || at(k) == '.' || at(k) == '+' || at(k) == '-' || at(k) == '\'' || at(k) == '"') {
      std::size_t w = k;
      while (w < s_.size() && !is_blank(s_[w]) && s_[w] != '\n' && s_[w] != ',' && s_[w] != '/' && s_[w] != '!' &&
             s_[w] != '=' && s_[w] != ')' && s_[w] != '*') {
        ++w;
      }
      fail(pos_at(b), "a number", quoted(s_.substr(b, w - b)));
    }
    std::string text(s_.substr(b, k - b));
    if (!real && at(k) == '*' && is_digit(s_[b])) {  // repeat count r*
      Token t = make(TokenKind::Repeat, b, k + 1);
      t.integer = parse_integer(text, pos_at(b));
      const char after = at(k + 1);
      t.attached = !(after == '\0' || is_blank(after) || after == '\n' || after == ',' || after == '/' || after == '!');
      if (t.integer < 1) fail(pos_at(b), "a repeat count of at least 1", "'" + text + "*'");
      return t;
    }
    Token t = make(real ? TokenKind::Real : TokenKind::Integer, b, k);
    if (real) {
      std::string c = text;
      for (char& ch : c) {
        if (ch == 'd' || ch == 'D') ch = 'e';
      }
      t.real = std::strtod(c.c_str(), nullptr);
    } else {
      t.integer = parse_integer(text, t.pos);
    }
    return t;
  }

  std::int64_t parse_integer(const std::string& text, TextPos p) const {
    std::int64_t v = 0;
    const char* first = text.data() + (text[0] == '+' ? 1 : 0);
    auto [ptr, ec] = std::from_chars(first, text.data() + text.size(), v);
    if (ec != std::errc() || ptr != text.data() + text.size()) {
      fail(p, "an integer within 64 bits", "'" + text + "'");
    }
    return v;
  }

  std::string_view s_;
  std::string_view file_;
  std::size_t i_;
  std::size_t line_start_ = 0;
  int line_ = 1;
};

}  // namespace

std::string where(std::string_view file, TextPos pos) {
  return std::string(file) + ":" + std::to_string(pos.line) + ":" + std::to_string(pos.column) + ": ";
}

std::string describe(const Token& t) {
  switch (t.kind) {
    case TokenKind::GroupStart: return "group start '&" + t.text + "'";
    case TokenKind::GroupEnd: return "group end '" + t.text + "'";
    case TokenKind::Name: return "name '" + t.text + "'";
    case TokenKind::Equals: return "'='";
    case TokenKind::Comma: return "','";
    case TokenKind::LParen: return "'('";
    case TokenKind::RParen: return "')'";
    case TokenKind::Integer: return "integer " + t.text;
    case TokenKind::Real: return "real " + t.text;
    case TokenKind::Logical: return "logical " + t.text;
    case TokenKind::String: return "string '" + t.text + "'";
    case TokenKind::Repeat: return "repeat count '" + t.text + "'";
    case TokenKind::End: return "end of file";
  }
  return "?";
}

std::vector<Token> tokenize_group(std::string_view text, std::size_t begin, std::string_view file) {
  return Lexer(text, begin, file).run_group();
}

}  // namespace nwpio::detail
