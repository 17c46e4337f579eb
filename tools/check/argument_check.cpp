// nwpio-check's arguments (argument_check.hpp).
#include "argument_check.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <system_error>

namespace nwpio::check {
namespace {

namespace fs = std::filesystem;

bool starts_with(const std::string& s, std::string_view prefix) { return s.rfind(prefix, 0) == 0; }
bool ends_with(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// A private folder's name: the prefix and a user id.
bool is_private_dir_name(const std::string& name) {
  if (!starts_with(name, kPrivateDirPrefix) || name.size() == std::string_view(kPrivateDirPrefix).size()) return false;
  return std::all_of(name.begin() + static_cast<std::ptrdiff_t>(std::string_view(kPrivateDirPrefix).size()), name.end(),
                     [](char c) { return c >= '0' && c <= '9'; });
}

bool is_leftover_name(const std::string& name) { return ends_with(name, kTemporarySuffix) || ends_with(name, kLedgerSuffix); }

// netCDF classic (CDF-1, 2, 5) or HDF5 (netCDF-4), by the first bytes.
bool has_netcdf_signature(const fs::path& path) {
  std::array<char, 8> head{};
  std::ifstream in(path, std::ios::binary);
  if (!in.read(head.data(), head.size())) return false;
  const std::string h(head.data(), head.size());
  return (starts_with(h, "CDF") && (h[3] == 1 || h[3] == 2 || h[3] == 5)) || h == "\x89HDF\r\n\x1a\n";
}

// The entries of `dir`, sorted by name (an unreadable folder gives its error).
std::vector<fs::directory_entry> sorted_entries(const fs::path& dir, std::error_code& ec) {
  std::vector<fs::directory_entry> entries;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) entries.push_back(*it);
  std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) { return a.path() < b.path(); });
  return entries;
}

// Everything in one private folder; `only` (a final file name) keeps that name's leftovers alone.
void check_private_dir(const fs::path& dir, const std::string& only, std::vector<FileReport>& out) {
  std::error_code ec;
  const auto entries = sorted_entries(dir, ec);
  if (ec) {
    const std::string uid = dir.filename().string().substr(std::string_view(kPrivateDirPrefix).size());
    out.push_back({Verdict::Temporary,
                   fmt::format("TEMP {}/: private folder of user id {}, not readable here ({}): it may hold files "
                               "that are not complete",
                               dir.string(), uid, ec.message())});
    return;
  }
  for (const auto& e : entries) {
    const std::string name = e.path().filename().string();
    if (!is_leftover_name(name)) continue;
    if (!only.empty() && name != only + kTemporarySuffix && name != only + kLedgerSuffix) continue;
    out.push_back(check_file(e.path().string()));
  }
}

// The private folders in `dir` (any user's), sorted.
std::vector<fs::path> private_dirs_in(const fs::path& dir) {
  std::vector<fs::path> found;
  std::error_code ec;
  for (const auto& e : sorted_entries(dir, ec)) {
    std::error_code ec2;
    if (is_private_dir_name(e.path().filename().string()) && e.is_directory(ec2) && !e.is_symlink(ec2)) {
      found.push_back(e.path());
    }
  }
  return found;
}

std::vector<FileReport> check_folder(const fs::path& dir) {
  std::vector<FileReport> out;
  if (is_private_dir_name(dir.filename().string())) {
    check_private_dir(dir, "", out);
    return out;
  }
  std::error_code ec;
  const auto entries = sorted_entries(dir, ec);
  if (ec) return {{Verdict::Bad, fmt::format("BAD  {}: cannot read the folder: {}", dir.string(), ec.message())}};
  for (const auto& e : entries) {
    const std::string name = e.path().filename().string();
    std::error_code ec2;
    if (!e.is_regular_file(ec2)) continue;
    if (is_leftover_name(name) || has_netcdf_signature(e.path())) out.push_back(check_file(e.path().string()));
  }
  for (const fs::path& p : private_dirs_in(dir)) check_private_dir(p, "", out);
  return out;
}

}  // namespace

std::vector<FileReport> check_argument(const std::string& path) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) return check_folder(fs::path(path));
  const fs::path p(path);
  const std::string name = p.filename().string();
  if (is_leftover_name(name) || name.empty()) return {check_file(path)};
  std::vector<FileReport> leftovers;
  const fs::path folder = p.parent_path().empty() ? fs::path(".") : p.parent_path();
  for (const fs::path& d : private_dirs_in(folder)) check_private_dir(d, name, leftovers);
  std::vector<FileReport> out;
  if (fs::exists(fs::symlink_status(p, ec)) || leftovers.empty()) out.push_back(check_file(path));
  out.insert(out.end(), leftovers.begin(), leftovers.end());
  return out;
}

}  // namespace nwpio::check
