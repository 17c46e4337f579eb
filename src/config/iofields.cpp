#include "config/iofields.hpp"

#include <iostream>

#include "config/namelist_file.hpp"
#include "config/namelist_lexer.hpp"
#include "nwpio/error.hpp"
#include "util/agree.hpp"
#include "util/mpi_call.hpp"

namespace nwpio::detail {

namespace {

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

std::string found_at(std::string_view line, std::size_t k) {
  if (k >= line.size()) return "end of line";
  std::size_t e = k;
  while (e < line.size() && !is_blank(line[e]) && line[e] != ':' && line[e] != ',') ++e;
  if (e == k) ++e;
  // Appended piece by piece: GCC 12 warns falsely (-Wrestrict) about "'" + std::string(...).
  std::string out(1, '\'');
  out.append(line.substr(k, e - k));
  out += '\'';
  return out;
}

struct IofieldsLine {
  char op = '+';        // '+' or '-'
  char stream = 'h';    // 'h' or 'i'
  long id = 0;
  std::vector<std::pair<std::string, int>> names;  // name, column
};

class LineParser {
 public:
  LineParser(std::string_view line, std::string_view file, int line_no) : s_(line), file_(file), line_(line_no) {}

  IofieldsLine parse() {
    IofieldsLine out;
    skip_blanks();
    if (at() != '+' && at() != '-') fail("'+' or '-' to start an iofields line");
    out.op = s_[k_++];
    colon();
    const char type = static_cast<char>(at() | 0x20);
    if (type != 'h' && type != 'i') fail("a stream type 'h' (history) or 'i' (input)");
    out.stream = type;
    ++k_;
    colon();
    if (at() < '0' || at() > '9') fail("a stream id (0, 1, ...)");
    out.id = 0;
    for (int digits = 0; at() >= '0' && at() <= '9'; ++digits) {
      // WRF's stream ids are small; a longer number would overflow (found by fuzzing).
      if (digits == 9) fail("a stream id of at most 9 digits");
      out.id = out.id * 10 + (s_[k_++] - '0');
    }
    colon();
    while (true) {
      skip_blanks();
      const std::size_t b = k_;
      while (k_ < s_.size() && !is_blank(s_[k_]) && s_[k_] != ',' && s_[k_] != ':') ++k_;
      if (k_ > b) {
        out.names.emplace_back(std::string(s_.substr(b, k_ - b)), static_cast<int>(b) + 1);
      } else if (k_ < s_.size() || out.names.empty()) {
        fail("a variable name");
      }
      skip_blanks();
      if (k_ >= s_.size()) break;
      if (s_[k_] != ',') fail("',' between variable names");
      ++k_;
      skip_blanks();
      if (k_ >= s_.size()) break;  // a trailing comma ends the list
    }
    return out;
  }

 private:
  char at() const { return k_ < s_.size() ? s_[k_] : '\0'; }
  void skip_blanks() {
    while (k_ < s_.size() && is_blank(s_[k_])) ++k_;
  }
  void colon() {
    skip_blanks();
    if (at() != ':') fail("':'");
    ++k_;
    skip_blanks();
  }
  [[noreturn]] void fail(const std::string& expected) const {
    throw Error(ErrorKind::Config, where(file_, TextPos{line_, static_cast<int>(k_) + 1}) + "expected " + expected +
                                       ", found " + found_at(s_, k_));
  }

  std::string_view s_;
  std::string_view file_;
  int line_;
  std::size_t k_ = 0;
};

}  // namespace

std::vector<IofieldsEntry> parse_iofields(std::string_view text, std::string_view file) {
  std::vector<IofieldsEntry> out;
  int line_no = 0;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    const std::size_t nl = text.find('\n', pos);
    std::string_view line = text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    pos = nl == std::string_view::npos ? text.size() + 1 : nl + 1;
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.find_first_not_of(" \t") == std::string_view::npos) break;  // WRF: an empty line ends the file
    if (line.find('#') != std::string_view::npos) continue;             // WRF: lines with '#' are skipped
    const IofieldsLine l = LineParser(line, file, line_no).parse();
    out.push_back({l.op, l.stream, l.id, line_no, l.names});
  }
  return out;
}

IofieldsResult apply_iofields(Schema& schema, const std::vector<IofieldsEntry>& entries, std::string_view file,
                              bool ignore_iofields_warning) {
  IofieldsResult result;
  for (const IofieldsEntry& l : entries) {
    const std::string tag = std::string(1, l.op) + ":" + l.stream + ":" + std::to_string(l.id);
    if (l.stream != 'h' || l.id != 0) {
      result.messages.push_back(std::string(file) + ":" + std::to_string(l.line) + ": " + tag +
                                " left alone: nwpio writes the history stream (h:0) only");
      continue;
    }
    for (const auto& [name, column] : l.names) {
      const VarSpec* spec = schema.find_icase(name);
      if (spec == nullptr) {
        const std::string at = where(file, TextPos{l.line, column});
        if (!ignore_iofields_warning) {
          throw Error(ErrorKind::Config, at + "expected a variable of the history stream, found unknown name '" + name +
                                             "' (ignore_iofields_warning = .false.)");
        }
        result.messages.push_back(at + "warning: unknown variable '" + name + "' in " + tag + " ignored");
        continue;
      }
      if (l.op == '-') {
        result.removed.insert(spec->name);
      } else {
        result.removed.erase(spec->name);  // '+' of a schema variable: present (again)
      }
    }
  }
  for (const std::string& name : result.removed) schema.remove_variable(name);
  return result;
}

IofieldsResult apply_iofields_text(Schema& schema, std::string_view text, std::string_view file,
                                   bool ignore_iofields_warning) {
  return apply_iofields(schema, parse_iofields(text, file), file, ignore_iofields_warning);
}

IofieldsFile read_iofields(const OutputOptions& options, MPI_Comm comm) {
  IofieldsFile f;
  if (options.iofields_file.empty()) return f;
  f.file = options.iofields_file;
  const std::string text = read_text_on_root(options.iofields_file, "iofields file", comm);
  run_and_agree(comm, [&] { f.entries = parse_iofields(text, f.file); });
  return f;
}

std::set<std::string> apply_iofields(Schema& schema, const IofieldsFile& iofields, bool ignore_iofields_warning,
                                     MPI_Comm comm) {
  if (iofields.file.empty()) return {};
  int rank = 0;
  mpi_check(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  Schema edited = schema;  // the caller's schema changes only when every rank succeeded
  IofieldsResult result;
  run_and_agree(comm, [&] { result = apply_iofields(edited, iofields.entries, iofields.file, ignore_iofields_warning); });
  if (rank == 0) {
    for (const std::string& m : result.messages) std::cerr << "nwpio: " << m << '\n';
    std::cerr.flush();
  }
  schema = std::move(edited);
  return result.removed;
}

}  // namespace nwpio::detail
