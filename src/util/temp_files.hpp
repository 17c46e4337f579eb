// Where a file lives until it is complete, so that nobody else with write access to the output
// directory can make a job write through a name they planted (a symbolic link to another file, a
// FIFO, a directory, a hard link), and a partial file never carries its final name:
//
//   <output_dir>/.nwpio-tmp-<uid>/<final name>.nwpio-tmp
//
// The folder belongs to the job's user and only that user may enter or write it (mode 0700);
// nwpio creates it when a stream opens its first file and refuses one that is not a real
// folder of the same user, or that others may write. Inside it every temporary file is created
// exclusively (O_CREAT | O_EXCL | O_NOFOLLOW, mode 0666 less the umask, so modes follow the
// umask as for any file the job creates); a leftover of a crashed run of the same stream is
// removed first, but only when it is a regular file of the same user. The libraries (PnetCDF,
// netCDF-C, HDF5, MPI-IO) then open that path, which nobody else can replace, and the commit
// renames it to its final name: rename(2) replaces whatever is there (a planted symbolic link
// included) without following it, or, with noclobber, refuses.
#pragma once

#include <string>
#include <string_view>

namespace nwpio::detail {

// The suffix of a file that is not complete; nwpio-check reports such files as TEMP.
inline constexpr std::string_view kTemporarySuffix = ".nwpio-tmp";
// The suffix of a file's completion ledger (completion_ledger.hpp), beside its temporary file.
inline constexpr std::string_view kLedgerSuffix = ".nwpio-done";
// The private folder's name: this prefix and the user id.
inline constexpr std::string_view kPrivateDirPrefix = ".nwpio-tmp-";

// The private folder of this process's user in `dir` (a path; nothing is created).
std::string private_dir_of(const std::string& dir);
// Where the file with final path `final_path` is written until it is complete.
std::string temporary_path_of(const std::string& final_path);
// Its completion ledger.
std::string ledger_path_of(const std::string& final_path);

// One process (rank 0): makes sure the private folder of `dir` exists and is safe, and returns
// its path. Throws Error(Io) naming the folder and what is wrong with it.
std::string ensure_private_dir(const std::string& dir);

// Creates `path` (inside a private folder) exclusively, empty, and closes it; a leftover regular
// file of this user is removed first. Throws Error(Io) naming what is there when it is anything
// else (a symbolic link, a FIFO, a folder, another user's file).
void create_exclusive(const std::string& path);

// Writes `text` to `path` atomically (a temporary file in the private folder of path's folder,
// renamed): a reader sees the old content or the new, and a planted name is replaced, never
// written through. Throws Error(Io).
void write_file_atomically(const std::string& path, std::string_view text);

// Removes the private folder of `dir` when it is empty (other streams may still use it);
// never throws.
void remove_private_dir_if_empty(const std::string& dir) noexcept;

}  // namespace nwpio::detail
