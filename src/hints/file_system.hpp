// Which file system holds a path, and which family of file systems nwpio has a hint profile
// for: the one place nwpio tells Lustre from NFS from a local disk (the hint report, the plan's
// --fs, and the job scripts' slurm/output_dir.sh, which follows the same rules in shell).
//
// The type comes from the mount that really holds the path: the longest mount point of
// /proc/self/mountinfo that contains it and, where several mounts are stacked on that point,
// the top one (mounted last: no other mount on the same point has it as its parent). That is
// the name findmnt prints ("ext4", "nfs4", "fuse.glusterfs"), finer than statfs's magic number
// (one for ext2/3/4, one for every FUSE file system); the magic is the fallback, and wins where
// the two disagree about the family (a mount table that lies about the path, e.g. in a
// container that shows another namespace's table).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace nwpio::detail::hints {

// The families nwpio has a shipped profile for (configs/hints/<family>.toml); Other: a type
// nwpio knows nothing about (its scripts then use local.toml and say so).
enum class FsFamily { Lustre, Gpfs, Nfs, Glusterfs, Beegfs, Cephfs, Local, Other };

// "lustre", "gpfs", "nfs", "glusterfs", "beegfs", "cephfs", "local", "other": also the name of the
// profile file.
std::string_view family_name(FsFamily family);
// The family of a mount type as the mount table names it ("nfs4" -> Nfs, "fuse.glusterfs" ->
// Glusterfs, "fuse.ceph-fuse" and "ceph" -> Cephfs, "ext4" / "xfs" / "tmpfs" / ... -> Local).
FsFamily family_of_type(std::string_view mount_type);
// A name a user gives (nwpio-check --plan --fs): a family name or any mount type of a known
// family ("nfs4", "fuse.glusterfs", "ceph"); empty for a name nwpio does not know.
std::optional<FsFamily> family_from_name(std::string_view name);
// Every family name, in the order above without Other (for messages).
std::vector<std::string> family_names();

// One line of /proc/self/mountinfo (proc(5)): mount id, parent id, mount point and type
// (with the kernel's octal escapes such as "\040" undone). Empty for a line that is not one.
struct MountEntry {
  int id = 0, parent = 0;
  std::string mount_point, type, source;
};
std::optional<MountEntry> parse_mountinfo_line(std::string_view line);

// The mount that holds `path` (absolute, symbolic links resolved): the longest mount point that
// contains it and, of the mounts stacked there, the top one; empty when none contains it.
std::optional<MountEntry> mount_holding(const std::vector<MountEntry>& mounts, const std::string& path);

// statfs's f_type as a name ("ext4" for ext2/3/4, "fuse" for every FUSE file system,
// "0x..." when unknown).
std::string magic_type(unsigned long magic);

struct FileSystemOf {
  std::string type = "unknown";  // as the mount table names it (else statfs's)
  FsFamily family = FsFamily::Other;
  std::string how;               // where the type came from, for the report
  std::string mount_point;       // empty when the mount table did not say
  std::int64_t block_size = 0;   // statfs f_bsize
  bool known = false;            // statfs succeeded
  std::string error;             // why not
};

// Reads /proc/self/mountinfo and statfs of `path` (a file or a directory that exists).
FileSystemOf file_system_of(const std::string& path);

}  // namespace nwpio::detail::hints
