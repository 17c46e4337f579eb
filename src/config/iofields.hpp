// iofields: WRF's run-time I/O field list (iofields_filename). The file is read and parsed when
// a stream is opened (read_iofields), and applied to the schema when the Writer is built
// (apply_iofields).
//
// Lines:  +:h:0:RAINC,RAINNC   add variables to the history stream (stream h, id 0)
//         -:h:0:W,PB           remove them
// Other streams (i:N, h:N with N != 0) are recognised and left alone with a message. Names match
// the schema case-insensitively. A line containing '#' is skipped and the first empty line ends
// the file, as in WRF. The schema is the registry: '+' of a name it has is a no-op (or undoes an
// earlier '-'); a name it does not have is a warning, or Error(Config) when
// ignore_iofields_warning = .false.
#pragma once

#include <mpi.h>

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "nwpio/options.hpp"
#include "nwpio/schema.hpp"

namespace nwpio::detail {

struct IofieldsResult {
  std::set<std::string> removed;      // schema names removed from the stream
  std::vector<std::string> messages;  // one line each: streams left alone, unknown-name warnings
};

// One line of an iofields file, parsed.
struct IofieldsEntry {
  char op = '+';      // '+' or '-'
  char stream = 'h';  // 'h' or 'i'
  long id = 0;
  int line = 0;
  std::vector<std::pair<std::string, int>> names;  // name, column
};

// The iofields file of a stream, read and parsed once when the stream is opened.
struct IofieldsFile {
  std::string file;                     // empty: none
  std::vector<IofieldsEntry> entries;
};

// No MPI. Throws Error(Config) "file:line:column: expected ..., found ...".
std::vector<IofieldsEntry> parse_iofields(std::string_view text, std::string_view file);
// Applies parsed entries to `schema`. No MPI. On an error the schema is unchanged... as far as
// the caller keeps a copy: unknown names are a warning, or Error(Config) when
// !ignore_iofields_warning.
IofieldsResult apply_iofields(Schema& schema, const std::vector<IofieldsEntry>& entries, std::string_view file,
                              bool ignore_iofields_warning);
// Both, for text (tests, fuzzing).
IofieldsResult apply_iofields_text(Schema& schema, std::string_view text, std::string_view file,
                                   bool ignore_iofields_warning);

// Collective: reads options.iofields_file (if any) on rank 0, broadcasts and parses it on every
// rank; every rank throws the same Error(Config / Io).
IofieldsFile read_iofields(const OutputOptions& options, MPI_Comm comm);

// Collective and agreed: adds/removes variables of the history stream (stream 0) in `schema`.
// Returns the names removed (put() on them is free). Rank 0 prints the messages to stderr.
std::set<std::string> apply_iofields(Schema& schema, const IofieldsFile& iofields, bool ignore_iofields_warning,
                                     MPI_Comm comm);

}  // namespace nwpio::detail
