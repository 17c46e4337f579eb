// A main for the fuzz targets in builds without libFuzzer (GCC, the sanitizer build): runs
// LLVMFuzzerTestOneInput once on every file named on the command line (directories: every file
// in them), so that the seed corpus and every input that once found a bug are replayed by the
// ordinary test suite. Exit 0 when all inputs ran; a bug aborts or is a sanitizer report.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

int run_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) {
    std::cerr << "cannot read " << p << '\n';
    return 1;
  }
  const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  int failures = 0;
  std::size_t inputs = 0;
  for (int a = 1; a < argc; ++a) {
    const std::filesystem::path arg = argv[a];
    if (std::filesystem::is_directory(arg)) {
      std::vector<std::filesystem::path> files;
      for (const auto& e : std::filesystem::directory_iterator(arg)) {
        if (e.is_regular_file()) files.push_back(e.path());
      }
      std::sort(files.begin(), files.end());
      for (const auto& f : files) failures += run_file(f), ++inputs;
    } else {
      failures += run_file(arg), ++inputs;
    }
  }
  std::cout << "replayed " << inputs << " inputs\n";
  if (inputs == 0) {
    std::cerr << "no inputs\n";
    return 1;
  }
  return failures == 0 ? 0 : 1;
}
