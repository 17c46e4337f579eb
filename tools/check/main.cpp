// nwpio-check FILE|FOLDER... : one line per file saying what it found; exit 0 only if every file
// is a complete WRF history file (1 if any is bad or temporary, 2 for a usage error). A folder
// stands for its netCDF files and the files in its private folders (argument_check.hpp).
// nwpio-check --plan namelist.input --ranks N --ranks-per-node K ...: the sizing plan of a run
// (plan_run.hpp, docs/SIZING.md).
#include <CLI/CLI.hpp>
#include <mpi.h>

#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "argument_check.hpp"
#include "hints/file_system.hpp"
#include "plan_run.hpp"
#include "version_flag.hpp"

int main(int argc, char** argv) {
  CLI::App app{"nwpio-check: validate nwpio / WRF history files and spot leftovers of interrupted runs"};
  app.footer(
      "One line per file, starting with its verdict:\n"
      "  OK    a complete WRF history file: netCDF-C opens it, Time is unlimited, DateStrLen is 19,\n"
      "        Times holds a valid, increasing date in every frame, the file is as long as its header says\n"
      "  TEMP  a file that is not complete: DIR/.nwpio-tmp-<uid>/NAME.nwpio-tmp (the private folder of the\n"
      "        job's user), or its completion ledger NAME.nwpio-done there: a write still in progress, or\n"
      "        one that never finished (crash, kill, error), which never completes by itself. The line\n"
      "        names the file it would become (DIR/NAME); safe to delete when no job writes to DIR. A\n"
      "        temporary file that is complete but was never renamed (its commit failed: a folder made\n"
      "        read-only, a quota; or the job ended just before it) says so and gives the `mv` to run\n"
      "  STALE a completion ledger left beside nothing (its file was committed): safe to remove\n"
      "  BAD   anything else, with what is wrong (not netCDF, not WRF history, a frame without a date, ...)\n"
      "A FOLDER (an output directory) stands for every netCDF file in it (other files are left out) and\n"
      "everything in its private folders; a FILE's line is followed by the TEMP lines of its own name.\n"
      "Exit code: 0 every file is OK (STALE lines do not count); 1 at least one file is TEMP or BAD;\n"
      "2 usage error (no file given, unknown option). docs/RELIABILITY.md lists what leaves which.");
  std::vector<std::string> files;
  app.add_option("files", files, "netCDF files, output folders, or *.nwpio-tmp leftovers to check");
  nwpio::check::PlanArgs plan;
  auto* plan_opt = app.add_option("--plan", plan.namelist,
                                  "size the history output of a run of this namelist.input instead: per domain the frame "
                                  "and file size, the striping nwpio sets, the writer ranks and I/O servers to use and "
                                  "why, memory per rank and node, the time per frame (docs/SIZING.md)");
  auto* ranks = app.add_option("--ranks", plan.ranks, "--plan: MPI ranks of the run (I/O servers included)");
  auto* per_node = app.add_option("--ranks-per-node", plan.ranks_per_node, "--plan: ranks per node");
  app.add_option("--fs", plan.fs, "--plan: file system of the output directory (default lustre): lustre, gpfs, nfs, "
                                  "glusterfs, beegfs, cephfs, local, or the mount table's type (nfs4, fuse.glusterfs, "
                                  "ceph, ext4, ...); its family's shipped hint profile applies when the namelist names none")
      ->check(CLI::Validator(
          [](std::string& name) {
            return nwpio::detail::hints::family_from_name(name) ? std::string() : nwpio::check::fs_choices();
          },
          "FS", "file system"));
  app.add_option("--memory-per-node", plan.memory_per_node_gb, "--plan: memory of a node in GB (for the writer and "
                                                               "server counts)");
  app.add_option("--bandwidth", plan.bandwidth_gbs, "--plan: the file system's write bandwidth for this job, GB/s "
                                                    "(for the time per frame)");
  app.add_option("--caller", plan.caller, "--plan: who writes: wrf (WRF through nwpio's io_form 11 package, the "
                                          "default) or api (a model on nwpio's C++/C/Fortran API)")
      ->check(CLI::IsMember({"wrf", "api"}));
  app.add_option("--json", plan.json, "--plan: write the plan as JSON to this file too");
  app.add_option("--scratch", plan.scratch_dir, "--plan: where the header is laid out once (default $TMPDIR or /tmp)");
  nwpio::tools::add_version_flag(app, "nwpio-check");
  try {
    app.parse(argc, argv);
    if (plan_opt->count() > 0 && (ranks->count() == 0 || per_node->count() == 0)) {
      throw CLI::ValidationError("--plan", "needs --ranks N and --ranks-per-node K");
    }
    if (plan_opt->count() == 0 && files.empty()) throw CLI::RequiredError("files (or --plan namelist.input)");
    if (plan_opt->count() > 0 && !files.empty()) throw CLI::ValidationError("--plan", "takes no files to check");
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  // PnetCDF (used to check the size a classic header promises) needs MPI; one process is enough.
  MPI_Init(&argc, &argv);
  if (plan_opt->count() > 0) {
    // Paths of the command line are the caller's; the plan reads the namelist's from its directory.
    if (!plan.json.empty()) plan.json = std::filesystem::absolute(plan.json).string();
    if (!plan.scratch_dir.empty()) plan.scratch_dir = std::filesystem::absolute(plan.scratch_dir).string();
    const int rc = nwpio::check::run_plan(plan, argv[0]);
    MPI_Finalize();
    return rc;
  }
  int status = 0;
  for (const auto& f : files) {
    for (const auto& report : nwpio::check::check_argument(f)) {
      std::cout << report.line << '\n';
      const auto v = report.verdict;
      if (v != nwpio::check::Verdict::Ok && v != nwpio::check::Verdict::Stale) status = 1;
    }
  }
  MPI_Finalize();
  return status;
}
