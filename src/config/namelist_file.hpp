// Reading configuration text on rank 0 and broadcasting it (namelist.input, iofields files):
// one rank touches the file system, every rank gets the same bytes and then parses them itself,
// so every rank reaches the same result or the same error.
#pragma once

#include <mpi.h>

#include <string>
#include <string_view>

#include "config/namelist_parser.hpp"

namespace nwpio::detail {

// Local read of a whole file. Throws Error(Io) "cannot read <what> '<path>': <strerror>".
std::string read_text_file(const std::string& path, std::string_view what);

// Rank 0 reads, then broadcasts. Collective; a failure is thrown on every rank (agree()).
std::string read_text_on_root(const std::string& path, std::string_view what, MPI_Comm comm);

// read_text_on_root + Namelist::parse on every rank, agreed, with the variables of the path keys
// from rank 0's environment (path_variables.hpp); rank 0 prints a warning to stderr for each
// likely misspelled key (misspelled_key_warnings), once per process. Collective.
Namelist load_namelist(const std::string& path, MPI_Comm comm);

}  // namespace nwpio::detail
