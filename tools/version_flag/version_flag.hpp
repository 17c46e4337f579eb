// --version for nwpio's programs: one line, the program's name and the version it was built as
// (nwpio/version.h, from CMake's project()), e.g. "nwpio-check 0.9.0", and exit code 0: CLI11
// throws CLI::CallForVersion (a CLI::Success, as --help's CLI::CallForHelp), and CLI::App::exit
// prints it.
#pragma once

#include <CLI/CLI.hpp>

#include <string>

#include "nwpio/version.h"

namespace nwpio::tools {

inline void add_version_flag(CLI::App& app, const std::string& program) {
  app.set_version_flag("--version", program + " " + NWPIO_VERSION_STRING, "print the program's name and version, and exit");
}

}  // namespace nwpio::tools
