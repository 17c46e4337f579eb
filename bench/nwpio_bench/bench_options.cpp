// nwpio-bench's command line, parsed with CLI11 (see bench_options.hpp).
#include "bench_options.hpp"
#include "raw_variants.hpp"
#include "version_flag.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <iostream>
#include <sstream>

namespace nwpio::bench {

const std::vector<std::string>& all_method_names() {
  static const std::vector<std::string> names = {
      "nwpio-io11", "nwpio-io11-sync", "nwpio-io11-rearrange", "nwpio-io11-messages", "nwpio-io11-direct",
      "wrf-style",  "nwpio-io2",       "null",                 "ceiling",             "netcdf-floor"};
  return names;
}

const std::vector<std::string>& extra_method_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n = {"nwpio-io11-direct-datatype", "reorder-pack", "reorder-datatype",
                                  // compressed netCDF-4 (method_wrf_netcdf.cpp, methods_nwpio.cpp)
                                  "nwpio-io13", "nwpio-io13-gbr3", "wrf-io13", "wrf-io2",
                                  // the least a deflate 2 + shuffle write costs (method_deflate_ceiling.cpp)
                                  "ceiling-io13",
                                  // WRF's ADIOS2 package, io_form 14 (method_adios2.cpp; builds with ADIOS2)
                                  "adios2", "adios2-bp4", "adios2-bp4-blosc",
                                  // the rearranger's bytes between nodes, plain MPI (method_network.cpp)
                                  "network"};
    // Single raw variants (`ceiling` / `netcdf-floor` run them all and report the fastest).
    for (const bool swap : {false, true}) {
      for (const auto& v : raw_method_names(swap)) n.push_back(v);
    }
    return n;
  }();
  return names;
}

namespace {

std::vector<std::string> split_commas(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    if (!item.empty()) out.push_back(item);
  }
  return out;
}

}  // namespace

std::optional<BenchOptions> parse_options(int argc, char** argv, MPI_Comm comm, int& exit_code) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  BenchOptions o;
  std::string methods;
  CLI::App app{
      "nwpio-bench: writes the same frame with every method (nwpio io_form 11 in each gathering mode, "
      "WRF's own PnetCDF pattern, nwpio io_form 2, the null backend, raw MPI-IO and raw MPI-IO plus one "
      "byte-swap pass) in alternating repetitions and reports median seconds, MB/s, ratios and peak RSS. "
      "'ceiling' runs every raw-* variant (collective or independent, collective buffering on or off, "
      "one request or 64 MiB requests, heap or shared-memory buffer) and is the fastest of them; "
      "'netcdf-floor' likewise over the floor-* variants (the same plus one byte-swap pass)."};
  app.get_formatter()->column_width(36);
  app.add_option("--workload", o.workload,
                 "wrf (202-variable history frame), haps (1 km HAPS grid), matrix, wrfreal (the real WRF 4.7.1 "
                 "supercell fields, tiled; workload_real.hpp)")
      ->check(CLI::IsMember({"wrf", "haps", "matrix", "wrfreal"}))
      ->required();
  auto* we = app.add_option("--e-we", o.e_we, "west-east staggered count (wrf/matrix default 426; haps 1281)")
                 ->check(CLI::Range(3, 1 << 20));
  auto* sn = app.add_option("--e-sn", o.e_sn, "south-north staggered count (default 301; haps 961)")
                 ->check(CLI::Range(3, 1 << 20));
  app.add_option("--e-vert", o.e_vert, "vertical staggered count (default 36; haps 70)")->check(CLI::Range(3, 1 << 16));
  auto* sc = app.add_option("--scale", o.scale, "scale the horizontal mass points of the workload's grid by F")
                 ->check(CLI::Range(0.001, 16.0));
  sc->excludes(we)->excludes(sn);
  app.add_option("--nproc-x", o.nproc_x, "ranks along west-east")->check(CLI::Range(1, 1 << 20));
  app.add_option("--nproc-y", o.nproc_y, "ranks along south-north")->check(CLI::Range(1, 1 << 20));
  app.add_flag("--fsync", o.fsync, "every method ends with a file sync inside its timing");
  app.add_option("--dir", o.dir, "directory for the files (a run subdirectory is created and removed)")->required();
  app.add_option("--repeat", o.repeat, "timed repetitions per method")->check(CLI::Range(1, 1000))->default_str("3");
  app.add_option("--warmup", o.warmup, "untimed frames a Writer writes before its timed frame")
      ->check(CLI::Range(0, 100))
      ->default_str("1");
  app.add_option("--frames-per-file", o.frames_per_file,
                 "nwpio methods: frames per file; the timed frame is the last of its file (the frames before it "
                 "are written untimed)")
      ->check(CLI::Range(1, 10000))
      ->default_str("1");
  app.add_option("--json", o.json, "write the results as JSON here")->required();
  app.add_option("--methods", methods, "comma-separated subset of the methods (default: all)");
  app.add_option("--matrix-mb", o.matrix_mb, "matrix: frame size per cell in MB")->check(CLI::Range(0.01, 1e6))->default_str("64");
  app.add_option("--round-mb", o.round_mb,
                 "nwpio methods: max_round_bytes in MB (staging per rank and round; default: the library's 1 GiB)")
      ->check(CLI::Range(0.001, 1e6));
  app.add_flag("--verify", o.verify, "read the files of the first repetition back with netCDF-C");
  app.add_option("--hints-file", o.hints_file, "hints profile file (TOML) for every method");
  app.add_option("--hints-profile", o.hints_profile, "profile name in --hints-file");
  app.add_option("--hint", o.hints, "key=value hint for every method (docs/HINTS.md), repeatable");
  tools::add_version_flag(app, "nwpio-bench");
  std::string footer = "methods (default: all of these):";
  for (const auto& m : all_method_names()) footer += " " + m;
  footer += "\nmore methods, only when named:";
  for (const auto& m : extra_method_names()) footer += " " + m;
  app.footer(footer);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    std::ostringstream out, err;
    exit_code = app.exit(e, out, err);
    if (rank == 0) {
      std::cout << out.str();
      std::cerr << err.str();
    }
    return std::nullopt;
  }
  o.methods = split_commas(methods);
  for (const auto& m : o.methods) {
    const auto& all = all_method_names();
    const auto& extra = extra_method_names();
    if (std::find(all.begin(), all.end(), m) == all.end() && std::find(extra.begin(), extra.end(), m) == extra.end()) {
      if (rank == 0) std::cerr << "nwpio-bench: unknown method '" << m << "'; " << footer << "\n";
      exit_code = 2;
      return std::nullopt;
    }
  }
  if (o.methods.empty()) o.methods = all_method_names();
  for (const auto& h : o.hints) {
    if (h.find('=') == std::string::npos || h.front() == '=') {
      if (rank == 0) std::cerr << "nwpio-bench: --hint needs key=value, not '" << h << "'\n";
      exit_code = 2;
      return std::nullopt;
    }
  }
  return o;
}

}  // namespace nwpio::bench
