// nwpio-compare A B: one line saying whether two netCDF files hold the same dataset (header,
// attributes and -- unless --header-only -- every value, bit for bit), then one line per
// difference. Exit 0 when equal, 1 when they differ, 2 for a usage or read error.
#include <CLI/CLI.hpp>

#include <iostream>
#include <string>
#include <vector>

#include "file_compare.hpp"
#include "version_flag.hpp"

int main(int argc, char** argv) {
  CLI::App app{"nwpio-compare: compare two netCDF files value by value and attribute by attribute"};
  std::string a, b;
  nwpio::compare::Options options;
  std::vector<std::string> ignore_global, ignore_variables;
  app.add_option("a", a, "first file")->required();
  app.add_option("b", b, "second file")->required();
  app.add_flag("--header-only", options.header_only, "dimensions, variables and attributes only");
  app.add_flag("--last-record", options.last_record, "compare the last record of each file only");
  app.add_option("--ignore-global", ignore_global, "global attribute whose value may differ (repeatable)");
  app.add_option("--ignore-values", ignore_variables, "variable whose values may differ (repeatable)");
  app.add_option("--max-differences", options.max_differences, "difference lines shown (default 20)");
  nwpio::tools::add_version_flag(app, "nwpio-compare");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  options.ignore_global.insert(ignore_global.begin(), ignore_global.end());
  options.ignore_variables.insert(ignore_variables.begin(), ignore_variables.end());
  try {
    const auto r = nwpio::compare::compare_files(a, b, options);
    const std::string what = options.header_only ? "header" : "header and data";
    std::cout << (r.count == 0 ? "EQUAL " : "DIFFER ") << a << " (" << r.format_a << ") vs " << b << " ("
              << r.format_b << "): " << r.variables << " variables, " << r.attributes << " attributes";
    if (!options.header_only) std::cout << ", " << r.values << " values";
    std::cout << " compared (" << what << ")";
    if (r.count) std::cout << "; " << r.count << " differences";
    std::cout << '\n';
    for (const auto& line : r.differences) std::cout << "  " << line << '\n';
    if (r.count > r.differences.size()) std::cout << "  ... and " << r.count - r.differences.size() << " more\n";
    return r.count == 0 ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "nwpio-compare: " << e.what() << '\n';
    return 2;
  }
}
