// nwpio-demo's command line. Options given explicitly on the command line override the
// namelist; options not given take the namelist's value, else the built-in default (demo_config.hpp).
#include "demo_config.hpp"

#include <CLI/CLI.hpp>

#include <iostream>
#include <map>
#include <sstream>

#include "nwpio/error.hpp"
#include "nwpio_model/model_settings.hpp"
#include "version_flag.hpp"

namespace nwpio::demo {

wrf::HistorySchemaOptions DemoConfig::schema_options() const {
  wrf::HistorySchemaOptions o;
  o.e_we = e_we;
  o.e_sn = e_sn;
  o.e_vert = e_vert;
  o.start_date = start_date;
  o.dx = dx;
  o.dy = dy;
  o.time_step = time_step;
  o.nproc_x = nproc_x;
  o.nproc_y = nproc_y;
  return o;
}

namespace {

// Values of a command line option and whether it was given.
struct Args {
  int e_we = 426, e_sn = 301, e_vert = 36, frames = 3, frames_per_file = 1, interval_minutes = 60;
  int nproc_x = -1, nproc_y = -1, halo = 3, io_form = 11;
  std::string output_dir = "output", start_date = "2019-06-01_00:00:00", format = "cdf2", gather = "auto";
  std::string stats_json, namelist;
  bool verify = false;
  bool memory_report = false;
  bool error_every_rank = false;
};

std::string explicit_names(const CLI::App& app) {
  std::string s;
  for (const CLI::Option* o : app.get_options()) {
    if (o->count() > 0 && o->get_name() != "--namelist") s += " " + o->get_name();
  }
  return s;
}

}  // namespace

ParseOutcome parse_command_line(int argc, char** argv, MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  Args a;
  CLI::App app{"nwpio-demo: a synthetic WRF-like model that writes WRF's 202-variable history "
               "through nwpio. Times and XTIME hold the frames' dates (XTIME in minutes since the start, "
               "as WRF writes it); every other value follows the fill rule "
               "(7*i + 13*j + 17*k + 19*t + 23*varid) mod 1021, so any reader can check the files."};
  app.get_formatter()->column_width(34);
  auto* o_we = app.add_option("--e-we", a.e_we, "west-east staggered grid count (WRF's e_we)")
                   ->check(CLI::Range(2, 1 << 20))->default_str("426");
  auto* o_sn = app.add_option("--e-sn", a.e_sn, "south-north staggered grid count (e_sn)")
                   ->check(CLI::Range(2, 1 << 20))->default_str("301");
  auto* o_vert = app.add_option("--e-vert", a.e_vert, "vertical staggered level count (e_vert)")
                     ->check(CLI::Range(2, 1 << 16))->default_str("36");
  auto* o_frames = app.add_option("--frames", a.frames, "frames (output times) to write")
                       ->check(CLI::Range(1, 1 << 20))->default_str("3");
  auto* o_fpf = app.add_option("--frames-per-file", a.frames_per_file, "frames per file (frames_per_outfile)")
                    ->check(CLI::Range(1, 1 << 20))->default_str("1");
  auto* o_dir = app.add_option("--output-dir", a.output_dir, "output directory (created if missing); wins over "
                                                             "the namelist's &nwpio output_dir")
                    ->default_str("output");
  auto* o_start = app.add_option("--start-date", a.start_date, "first output time, YYYY-MM-DD_HH:MM:SS")
                      ->default_str("2019-06-01_00:00:00");
  auto* o_interval = app.add_option("--interval-minutes", a.interval_minutes, "minutes between frames (history_interval)")
                         ->check(CLI::Range(1, 1 << 24))->default_str("60");
  auto* o_format = app.add_option("--format", a.format, "file format: cdf2 (64-bit offset, WRF's) or cdf5")
                       ->check(CLI::IsMember({"cdf2", "cdf5"}))->default_str("cdf2");
  auto* o_px = app.add_option("--nproc-x", a.nproc_x, "ranks along west-east (default: as WRF chooses)")
                   ->check(CLI::Range(1, 1 << 20));
  auto* o_py = app.add_option("--nproc-y", a.nproc_y, "ranks along south-north (default: as WRF chooses)")
                   ->check(CLI::Range(1, 1 << 20));
  auto* o_stats = app.add_option("--stats-json", a.stats_json, "write per-frame statistics as JSON to FILE");
  app.add_option("--namelist", a.namelist, "take settings from WRF's namelist.input (domain 1); "
                                           "options given here override it")
      ->check(CLI::ExistingFile);
  auto* o_io = app.add_option("--io-form", a.io_form,
                              "11 PnetCDF, 2 serial netCDF, 13 parallel netCDF-4 (compressed), 0 null (no file)")
                   ->check(CLI::IsMember({0, 2, 11, 13}))->default_str("11");
  auto* o_gather = app.add_option("--gather", a.gather, "io_form 11 gathering: auto, rearrange or direct")
                       ->check(CLI::IsMember({"auto", "rearrange", "direct"}))->default_str("auto");
  app.add_flag("--verify", a.verify, "read every file back (netCDF-C) and check the fill rule");
  app.add_flag("--memory-report", a.memory_report,
               "print every rank's peak resident memory (VmHWM) before the stream and after the last frame, and the "
               "model's arrays: the rest is what writing the history held");
  app.add_flag("--error-every-rank", a.error_every_rank,
               "every rank prints the error it ends with ('nwpio-demo: error on rank R: ...'), not rank 0 alone: "
               "for checks that every rank got the same error");
  app.add_option("--halo", a.halo, "halo width of the model's arrays")->check(CLI::Range(0, 64))->default_str("3");
  tools::add_version_flag(app, "nwpio-demo");

  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {  // --help, --version
    std::ostringstream null_stream;
    return {std::nullopt, rank == 0 ? app.exit(e) : app.exit(e, null_stream, null_stream)};
  } catch (const CLI::ParseError& e) {
    if (rank == 0) std::cerr << "nwpio-demo: error: " << e.what() << " (see --help)" << std::endl;
    return {std::nullopt, 1};
  }

  DemoConfig c;
  OutputOptions& out = c.output;
  const bool from_namelist = !a.namelist.empty();
  c.namelist = a.namelist;
  if (from_namelist) {
    // Collective: rank 0 reads, every rank gets the same settings or the same error.
    const ModelSettings model = read_model_settings(a.namelist, 1, comm);
    out = OutputOptions::from_namelist(a.namelist, 1, comm);
    c.e_we = model.e_we;
    c.e_sn = model.e_sn;
    c.e_vert = model.e_vert;
    if (model.dx > 0) c.dx = model.dx;
    if (model.dy > 0) c.dy = model.dy;
    if (model.time_step > 0) c.time_step = model.time_step;
    c.nproc_x = model.nproc_x;
    c.nproc_y = model.nproc_y;
    if (!model.start_date.empty()) c.start_date = model.start_date;
    c.end_date = model.end_date;
    c.frames = 0;  // every output time up to end_date, unless --frames says otherwise
  } else {
    out.frames_per_file = a.frames_per_file;
    out.history_interval_seconds = std::int64_t{a.interval_minutes} * 60;
  }
  // Explicit command-line options win over the namelist; without a namelist every option
  // (given or default) applies.
  auto given = [&](const CLI::Option* o) { return !from_namelist || o->count() > 0; };
  if (given(o_we)) c.e_we = a.e_we;
  if (given(o_sn)) c.e_sn = a.e_sn;
  if (given(o_vert)) c.e_vert = a.e_vert;
  if (given(o_frames)) c.frames = a.frames;
  if (given(o_fpf)) out.frames_per_file = a.frames_per_file;
  if (given(o_start)) c.start_date = a.start_date;
  if (given(o_interval)) out.history_interval_seconds = std::int64_t{a.interval_minutes} * 60;
  if (o_px->count() > 0) c.nproc_x = a.nproc_x;
  if (o_py->count() > 0) c.nproc_y = a.nproc_y;
  if (given(o_io)) out.io_form = static_cast<IoForm>(a.io_form);
  if (given(o_format)) out.format = a.format == "cdf5" ? FileFormat::Cdf5 : FileFormat::Cdf2;
  // io_form 2 writes netCDF-4 unless classic is asked for; an explicit --format asks for it.
  if (o_format->count() > 0 && out.io_form == IoForm::NetcdfSerial) out.use_netcdf_classic = true;
  if (given(o_gather)) {
    static const std::map<std::string, GatherMode> modes = {
        {"auto", GatherMode::Auto}, {"rearrange", GatherMode::Rearrange}, {"direct", GatherMode::Direct}};
    out.gather = modes.at(a.gather);
  }
  if (o_stats->count() > 0) out.stats_json = a.stats_json;
  // The output directory: --output-dir when given; else, with a namelist, its &nwpio output_dir
  // (whose default is '.', the run directory, as for WRF); else the demo's default "output".
  if (o_dir->count() > 0) {
    out.output_dir = a.output_dir;
    c.output_dir_source = "--output-dir";
  } else if (from_namelist) {
    c.output_dir_source = "&nwpio output_dir of " + a.namelist + (out.output_dir == "." ? " (default '.')" : "");
  } else {
    out.output_dir = a.output_dir;
    c.output_dir_source = "default";
  }
  out.start_date = c.start_date;
  out.domain_id = 1;
  out.e_we = c.e_we;
  out.e_sn = c.e_sn;
  out.e_vert = c.e_vert;
  c.halo = a.halo;
  c.verify = a.verify;
  c.memory_report = a.memory_report;
  c.error_every_rank = a.error_every_rank;
  if (from_namelist && rank == 0) {
    std::cout << "nwpio-demo: settings from " << a.namelist
              << (explicit_names(app).empty() ? "" : "; overridden on the command line:" + explicit_names(app))
              << std::endl;
  }
  return {std::move(c), 0};
}

}  // namespace nwpio::demo
