// One file's verdict for nwpio-check.
#pragma once

#include <string>

namespace nwpio::check {

// Stale: a leftover of a commit that happened (a completion ledger without its temporary
// file): no data, safe to remove, and no reason to distrust the output.
enum class Verdict { Ok, Temporary, Stale, Bad };

struct FileReport {
  Verdict verdict = Verdict::Bad;
  std::string line;  // one line: what was found
};

// Where nwpio keeps a file until it is complete (docs/RELIABILITY.md): in the private folder of
// the job's user in the output directory, <dir>/.nwpio-tmp-<uid>/<final name>.nwpio-tmp, with
// the completion ledger <final name>.nwpio-done beside it while the file is written behind the
// model. The commit renames the file to <dir>/<final name>.
inline constexpr const char* kTemporarySuffix = ".nwpio-tmp";
inline constexpr const char* kLedgerSuffix = ".nwpio-done";
inline constexpr const char* kPrivateDirPrefix = ".nwpio-tmp-";

// One file's verdict. A name ending in kTemporarySuffix is TEMP: not complete, or complete but
// not renamed (the line then gives the `mv` that recovers it). A name ending in kLedgerSuffix is
// never opened as netCDF: TEMP beside its temporary file, STALE without one.
FileReport check_file(const std::string& path);

// The final name a temporary file or ledger would have become (its folder's parent when it is in
// a private folder), or "" when `path` is neither.
std::string final_name_of(const std::string& path);

}  // namespace nwpio::check
