// Tokens of a Fortran namelist file (namelist.input), with the line and column where each one
// starts, so that every parse error can say "file:line:column: expected ..., found ...".
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace nwpio::detail {

struct TextPos {
  int line = 1;    // 1-based
  int column = 1;  // 1-based, in bytes (a tab counts as one column)
};

enum class TokenKind {
  GroupStart,  // "&name" or "$name"; text = name (lower case)
  GroupEnd,    // "/", "&end" or "$end"
  Name,        // identifier; text as written
  Equals,      // =
  Comma,       // ,
  LParen,      // (
  RParen,      // )
  Integer,     // 42, -3
  Real,        // 1.0, 1e3, 1.d0, -.5
  Logical,     // .true. .false. .t. .f. (T and F alone are Names: they may be keys)
  String,      // '...' or "..." with the delimiter doubled inside; text = contents
  Repeat,      // "3*": count in `integer`; `attached` tells whether a value follows at once
  End,         // end of input
};

struct Token {
  TokenKind kind = TokenKind::End;
  std::string text;          // as written (strings: the contents, unescaped)
  std::int64_t integer = 0;  // Integer, Repeat
  double real = 0;           // Real
  bool logical = false;      // Logical
  bool attached = false;     // Repeat: the value follows the '*' without a blank ("3*1")
  TextPos pos;
};

// How a token is named in "found ..." (e.g. "integer 3", "name 'foo'", "end of file").
std::string describe(const Token& token);

// Splits one group of namelist text into tokens, from `begin` (its '&' or '$') through its end
// ('/', '&end', '$end') or the end of the text; what follows the group end is not read, as a
// Fortran READ does not read it. `!` starts a comment to the end of the line (outside strings).
// Positions count lines from the start of `text`. Throws Error(Config) "file:line:column:
// expected ..., found ..." for text that is no token (an unterminated string, a malformed
// number, a stray character).
std::vector<Token> tokenize_group(std::string_view text, std::size_t begin, std::string_view file);

// "file:line:column: " -- the prefix of every Config error about a position in a file.
std::string where(std::string_view file, TextPos pos);

}  // namespace nwpio::detail
