// What nwpio-check reports for one command-line argument: a file, or an output folder.
//
//   a folder   every netCDF file in it (recognised by its signature; logs, namelists, JSON are
//              left out), every old-style <name>.nwpio-tmp in it, then everything in its private
//              folders .nwpio-tmp-<uid>/ (files not complete, completion ledgers), or one line
//              for a private folder this user may not read (another user's job may be writing)
//   a file     its verdict (check_file), then the leftovers of the same final name in the private
//              folders of its folder; a final name that does not exist but has a leftover is
//              reported by the leftover's line alone (it is not complete yet, or never will be)
#pragma once

#include <string>
#include <vector>

#include "file_check.hpp"

namespace nwpio::check {

std::vector<FileReport> check_argument(const std::string& path);

}  // namespace nwpio::check
