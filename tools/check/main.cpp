// nwpio-check FILE|FOLDER... : one line per file saying what it found; exit 0 only if every file
// is a complete WRF history file (1 if any is bad or temporary, 2 for a usage error). A folder
// stands for its netCDF files and the files in its private folders (argument_check.hpp).
#include <CLI/CLI.hpp>
#include <mpi.h>

#include <iostream>
#include <string>
#include <vector>

#include "argument_check.hpp"

int main(int argc, char** argv) {
  CLI::App app{"nwpio-check: validate nwpio / WRF history files and spot leftovers of interrupted runs"};
  app.footer(
      "One line per file, starting with its verdict:\n"
      "  OK    a complete WRF history file: netCDF-C opens it, Time is unlimited, DateStrLen is 19,\n"
      "        Times holds a valid, increasing date in every frame, the file is as long as its header says\n"
      "  TEMP  a file that is not complete: DIR/.nwpio-tmp-<uid>/NAME.nwpio-tmp (the private folder of the\n"
      "        job's user), or its completion ledger NAME.nwpio-done there: a write still in progress, or\n"
      "        one that never finished (crash, kill, error), which never completes by itself. The line\n"
      "        names the file it would become (DIR/NAME); safe to delete when no job writes to DIR\n"
      "  BAD   anything else, with what is wrong (not netCDF, not WRF history, a frame without a date, ...)\n"
      "A FOLDER (an output directory) stands for every netCDF file in it (other files are left out) and\n"
      "everything in its private folders; a FILE's line is followed by the TEMP lines of its own name.\n"
      "Exit code: 0 every file is OK; 1 at least one file is TEMP or BAD; 2 usage error (no file given,\n"
      "unknown option). docs/RELIABILITY.md lists what leaves which.");
  std::vector<std::string> files;
  app.add_option("files", files, "netCDF files, output folders, or *.nwpio-tmp leftovers to check")->required();
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  // PnetCDF (used to check the size a classic header promises) needs MPI; one process is enough.
  MPI_Init(&argc, &argv);
  int status = 0;
  for (const auto& f : files) {
    for (const auto& report : nwpio::check::check_argument(f)) {
      std::cout << report.line << '\n';
      if (report.verdict != nwpio::check::Verdict::Ok) status = 1;
    }
  }
  MPI_Finalize();
  return status;
}
