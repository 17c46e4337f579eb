// iofields: WRF's run-time I/O field list (iofields_filename). Owned by the namelist work
// (issue 3); the Writer calls apply_iofields() once in its constructor.
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

// Applies iofields `text` (named `file` in messages) to `schema`. No MPI. On an error the
// schema is unchanged. Throws Error(Config) "file:line:column: expected ..., found ...".
IofieldsResult apply_iofields_text(Schema& schema, std::string_view text, std::string_view file,
                                   bool ignore_iofields_warning);

// Reads options.iofields_file (if any) on rank 0, broadcasts, and adds/removes variables of
// the history stream (stream 0) in `schema`. Returns the names removed (put() on them is free).
// Collective. Unknown names: a warning, or Error(Config) when !options.ignore_iofields_warning.
// Rank 0 prints the messages to stderr, one line each.
std::set<std::string> apply_iofields(Schema& schema, const OutputOptions& options, MPI_Comm comm);

}  // namespace nwpio::detail
