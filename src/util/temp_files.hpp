// Where a file lives until it is complete, so that nobody else with write access to the output
// directory can make a job write through a name they planted (a symbolic link to another file, a
// FIFO, a directory, a hard link), and a partial file never carries its final name:
//
//   <output_dir>/.nwpio-tmp-<uid>/<final name>.nwpio-tmp
//
// The folder belongs to the job's user and only that user may enter or write it (mode 0700);
// nwpio creates it when a stream opens its first file and refuses one that is not a real
// folder of the same user. Nobody else can add a name inside it: no one else can plant a link,
// a FIFO or a file of theirs where a file of the job will be created. nwpio's own files there
// (completion ledgers, the statistics file on its way) are created exclusively (O_CREAT |
// O_EXCL | O_NOFOLLOW); a data file is created by the library that writes it -- for io_form 11
// and 13 the MPI-IO layer's open, so that layout hints (Lustre's stripes, which are fixed when a
// file is created) apply -- after rank 0 made way for it (make_ready_for): a leftover of a
// crashed run under the name is removed, but only when it is a regular file of the same user;
// anything else there is refused; and a folder that cannot take a file is refused with the
// system's reason. Modes are 0666 less the umask, as for any file the job creates. The commit
// renames a complete file to its final name: rename(2) replaces whatever is there (a planted
// symbolic link included) without following it, or, with noclobber, refuses.
//
// Streams and jobs of one user share the folder of a directory, and each removes it when it
// finds it empty at its close. A folder is never empty while nwpio uses it: from rank 0's making
// way for a file until the library created it, rank 0 keeps a pin in it (FolderPin,
// <final name>.nwpio-creating); from then on the file itself is there until it is renamed away.
// rmdir(2) refuses a folder that is not empty on every file system, local or networked, without
// any lock. A folder removed between its mkdir and the pin (another stream's close, which found
// it empty) is made again.
//
// The folder's NAME stays in a directory others may write: they can rename the folder away and
// put a symbolic link or a folder of theirs under its name at any moment, and a path looked up
// through that name afterwards (a library's open or truncate, a rename) would lead there. So
// the name is looked up once per file, by each process that uses it, and checked on the
// descriptor it gave (PrivateDir); every later path goes through that descriptor,
// /proc/self/fd/<n>/<name>, which Linux resolves to the very folder the descriptor holds,
// wherever its name is now. The libraries (PnetCDF, netCDF-C, HDF5, MPI-IO) open those paths.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace nwpio::detail {

// The suffix of a file that is not complete; nwpio-check reports such files as TEMP.
inline constexpr std::string_view kTemporarySuffix = ".nwpio-tmp";
// The suffix of a file's completion ledger (completion_ledger.hpp), beside its temporary file.
inline constexpr std::string_view kLedgerSuffix = ".nwpio-done";
// The suffix of the pin that keeps the private folder while a file is created (FolderPin).
inline constexpr std::string_view kPinSuffix = ".nwpio-creating";
// The private folder's name: this prefix and the user id.
inline constexpr std::string_view kPrivateDirPrefix = ".nwpio-tmp-";

// The private folder of this process's user in `dir` (a path; nothing is created).
std::string private_dir_of(const std::string& dir);
// Where the file with final path `final_path` is written until it is complete (as users see it;
// nwpio itself reaches it through a PrivateDir).
std::string temporary_path_of(const std::string& final_path);

// The private folder of one output directory, held open by this process (see above). Every
// rank that writes a file holds its own; shared by what needs the folder until the file is
// committed (the commit, the background writer), and closed with the last holder.
class PrivateDir {
 public:
  // One process (rank 0): creates the folder when it is missing, holds it and checks it: a real
  // folder of this user (a folder others may enter is closed: mode 0700). Throws Error(Io)
  // naming the folder and what is wrong with it. Null when the folder was removed between its
  // mkdir and its open (another stream found it empty): make it again.
  static std::shared_ptr<const PrivateDir> make(const std::string& dir);
  // Every other process: holds the folder `dir` names and checks it is the one rank 0 holds
  // (`inode`: rank 0's inode()). Throws Error(Io) when the name leads elsewhere now.
  static std::shared_ptr<const PrivateDir> join(const std::string& dir, std::uint64_t inode);
  ~PrivateDir();
  PrivateDir(const PrivateDir&) = delete;
  PrivateDir& operator=(const PrivateDir&) = delete;

  std::uint64_t inode() const noexcept { return inode_; }
  int descriptor() const noexcept { return fd_; }
  // Whether the folder held was removed since (its name may lead to a new one).
  bool removed() const noexcept;
  // The folder as users know it: <dir>/.nwpio-tmp-<uid>.
  const std::string& shown() const noexcept { return shown_; }
  // The path through which `name` inside the folder is opened, renamed, removed.
  std::string path_of(std::string_view name) const;
  // For messages: `text` with every path through the descriptor written as users know it
  // (<dir>/.nwpio-tmp-<uid>/...).
  std::string readable(std::string text) const;

 private:
  PrivateDir(int fd, std::string shown, std::uint64_t inode);
  int fd_ = -1;
  std::string shown_;  // <dir>/.nwpio-tmp-<uid>
  std::string via_;    // /proc/self/fd/<fd>, or shown_ where /proc is missing
  std::uint64_t inode_ = 0;
};

// Creates `name` inside `dir` exclusively, empty, and closes it; a leftover regular file of this
// user is removed first. Throws Error(Io) naming what is there when it is anything else (a
// symbolic link, a FIFO, a folder, another user's file), or errno ENOENT when the folder was
// removed meanwhile (another stream of the job emptied and removed it: make it again).
void create_exclusive(const PrivateDir& dir, std::string_view name);

// Rank 0: the private folder of `dir`, held, with the file `name` created exclusively in it (a
// folder another stream removed before the file was there is made again, a few times). Throws
// Error(Io).
std::shared_ptr<const PrivateDir> make_with_file(const std::string& dir, std::string_view name);

// A file in the private folder, empty, that keeps the folder from being removed while the pin
// lives (see above); removed with the pin. Held by rank 0 while a library creates a file.
class FolderPin {
 public:
  // Takes the pin `name` that make_with_file created in `folder`.
  FolderPin(std::shared_ptr<const PrivateDir> folder, std::string name) noexcept;
  ~FolderPin();
  FolderPin(const FolderPin&) = delete;
  FolderPin& operator=(const FolderPin&) = delete;

  const std::shared_ptr<const PrivateDir>& folder() const noexcept { return folder_; }

 private:
  std::shared_ptr<const PrivateDir> folder_;
  std::string name_;
};

// Rank 0, before a library creates the file `name` in the private folder of `dir`: the folder,
// made when missing, held and pinned, ready for it -- a folder that cannot take a new file
// (read-only, no permission, no inode left) refused with the system's reason, a leftover regular
// file of this user under the name removed, anything else there refused (as create_exclusive).
// Creates nothing but the pin (<final name>.nwpio-creating). Throws Error(Io) naming the path and
// the cause.
std::unique_ptr<FolderPin> make_ready_for(const std::string& dir, std::string_view name);

// The system's reason why no file can be created in `dir` now ("Read-only file system",
// "Permission denied", "No space left on device (no free inode)"), or "" when none is seen:
// added to a library's own words when its create failed ("NetCDF: Write to read only").
std::string refusal_of(const PrivateDir& dir);

// Writes `text` to `path` atomically (a temporary file in the private folder of path's folder,
// renamed): a reader sees the old content or the new, and a planted name is replaced, never
// written through. Throws Error(Io).
void write_file_atomically(const std::string& path, std::string_view text);

// Checks now that write_file_atomically(path, ...) can succeed later: its temporary file can be
// created (then removed) and no folder stands at `path` (the rename cannot replace one).
// Writes nothing else. Throws Error(Io) naming `path` and the cause.
void check_file_writable(const std::string& path);

// Removes the private folder of `dir` when it is empty (other streams may still use it) and is
// a folder of this user (anything else under its name is left alone); never throws.
void remove_private_dir_if_empty(const std::string& dir) noexcept;

}  // namespace nwpio::detail
