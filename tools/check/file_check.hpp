// One file's verdict for nwpio-check.
#pragma once

#include <string>

namespace nwpio::check {

enum class Verdict { Ok, Temporary, Bad };

struct FileReport {
  Verdict verdict = Verdict::Bad;
  std::string line;  // one line: what was found
};

// The suffix nwpio gives a file while it is being written (renamed away on a good close).
inline constexpr const char* kTemporarySuffix = ".nwpio-tmp";

FileReport check_file(const std::string& path);

}  // namespace nwpio::check
