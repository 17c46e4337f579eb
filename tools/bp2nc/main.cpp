// nwpio-bp2nc: WRF's ADIOS2 history files (io_form 14) as netCDF, and a check of the result.
//   nwpio-bp2nc convert IN.bp OUT.nc [--order-like REF.nc]
//       reads IN through ADIOS2's reader and writes OUT (CDF-2); prints the records, variables,
//       bytes and seconds. --order-like: variables in REF's order (e.g. WRF's io_form 2 file).
//   nwpio-bp2nc check REF.nc FILE.nc [--ignore NAME]...
//       FILE holds REF's data: variables matched by name, every value bit for bit, every
//       attribute; exit 0 when equal, 1 when not (one line per difference), 2 on errors.
#include <CLI/CLI.hpp>

#include <chrono>
#include <exception>
#include <iostream>
#include <set>
#include <string>
#include <vector>

#include "bp_to_netcdf.hpp"
#include "values_by_name.hpp"
#include "version_flag.hpp"

int main(int argc, char** argv) {
  CLI::App app{"nwpio-bp2nc: convert WRF's ADIOS2 (io_form 14) history files to netCDF, and check them"};
  app.require_subcommand(1);
  nwpio::tools::add_version_flag(app, "nwpio-bp2nc");
  std::string in, out, like, ref, file;
  std::vector<std::string> ignore;
  auto* convert = app.add_subcommand("convert", "BP file (directory) -> netCDF file (CDF-2)");
  convert->add_option("in", in, "the BP file WRF wrote")->required();
  convert->add_option("out", out, "the netCDF file to write")->required();
  convert->add_option("--order-like", like, "order the variables as in this netCDF file");
  auto* check = app.add_subcommand("check", "compare a netCDF file with a reference by variable name");
  check->add_option("reference", ref, "reference netCDF file (e.g. WRF's io_form 2 output)")->required();
  check->add_option("file", file, "the file to check (e.g. a converted file)")->required();
  check->add_option("--ignore", ignore, "variable, or owner:attribute, that may differ (repeatable)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  try {
    if (*convert) {
      nwpio::bp2nc::ConvertOptions options;
      if (!like.empty()) options.order = nwpio::bp2nc::netcdf_variable_order(like);
      const auto t0 = std::chrono::steady_clock::now();
      const auto r = nwpio::bp2nc::convert(in, out, options);
      const std::chrono::duration<double> dt = std::chrono::steady_clock::now() - t0;
      std::cout << "nwpio-bp2nc: " << out << ": " << r.records << " records, " << r.variables << " variables, "
                << r.bytes << " bytes in " << dt.count() << " s" << std::endl;
      return 0;
    }
    const auto r = nwpio::bp2nc::compare_by_name(ref, file, std::set<std::string>(ignore.begin(), ignore.end()));
    if (r.count == 0) {
      std::cout << "nwpio-bp2nc: " << file << " holds " << ref << "'s data: " << r.variables << " variables, "
                << r.values << " values, " << r.attributes << " attributes equal";
      if (r.padding_only) std::cout << " (" << r.padding_only << " text attributes only without blank padding)";
      std::cout << std::endl;
      return 0;
    }
    std::cout << "nwpio-bp2nc: " << file << " DIFFERS from " << ref << " (" << r.count << " differences)" << std::endl;
    for (const auto& d : r.differences) std::cout << "  " << d << std::endl;
    if (r.count > r.differences.size()) std::cout << "  ... and " << r.count - r.differences.size() << " more" << std::endl;
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "nwpio-bp2nc: error: " << e.what() << std::endl;
    return 2;
  }
}
