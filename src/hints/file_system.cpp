#include "hints/file_system.hpp"

#include <sys/statfs.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace nwpio::detail::hints {

namespace {

struct FamilyName {
  FsFamily family;
  std::string_view name;
};
constexpr std::array<FamilyName, 8> kFamilies = {{{FsFamily::Lustre, "lustre"},
                                                  {FsFamily::Gpfs, "gpfs"},
                                                  {FsFamily::Nfs, "nfs"},
                                                  {FsFamily::Glusterfs, "glusterfs"},
                                                  {FsFamily::Beegfs, "beegfs"},
                                                  {FsFamily::Cephfs, "cephfs"},
                                                  {FsFamily::Local, "local"},
                                                  {FsFamily::Other, "other"}}};

// Mount types of the network families, as the kernel's mount table names them: NFS v2/3 and
// v4 ("nfs", "nfs4"), GlusterFS's FUSE client (FUSE shows "fuse.<subtype>"), the kernel and
// FUSE clients of CephFS.
struct TypeFamily {
  std::string_view type;
  FsFamily family;
};
constexpr std::array<TypeFamily, 10> kNetworkTypes = {{{"lustre", FsFamily::Lustre},
                                                       {"gpfs", FsFamily::Gpfs},
                                                       {"nfs", FsFamily::Nfs},
                                                       {"nfs4", FsFamily::Nfs},
                                                       {"fuse.glusterfs", FsFamily::Glusterfs},
                                                       {"glusterfs", FsFamily::Glusterfs},
                                                       {"beegfs", FsFamily::Beegfs},
                                                       {"ceph", FsFamily::Cephfs},
                                                       {"fuse.ceph-fuse", FsFamily::Cephfs},
                                                       {"fuse.ceph", FsFamily::Cephfs}}};

// File systems of one machine's own disks or memory: one node writes them, no distributed locks.
constexpr std::array<std::string_view, 19> kLocalTypes = {
    "ext2", "ext3",     "ext4", "xfs",  "btrfs", "tmpfs", "ramfs",   "zfs",  "f2fs", "overlay",
    "squashfs", "jfs", "reiserfs", "vfat", "exfat", "ntfs3", "bcachefs", "nilfs2", "devtmpfs"};

// statfs magic numbers (linux/magic.h and the file systems' own headers).
struct FsMagic {
  unsigned long magic;
  std::string_view name;
};
constexpr std::array<FsMagic, 17> kMagics = {{{0xEF53UL, "ext4"},
                                              {0x58465342UL, "xfs"},
                                              {0x01021994UL, "tmpfs"},
                                              {0x858458F6UL, "ramfs"},
                                              {0x9123683EUL, "btrfs"},
                                              {0x794C7630UL, "overlay"},
                                              {0x73717368UL, "squashfs"},
                                              {0x2FC12FC1UL, "zfs"},
                                              {0xF2F52010UL, "f2fs"},
                                              {0x0BD00BD0UL, "lustre"},
                                              {0x47504653UL, "gpfs"},
                                              {0x6969UL, "nfs"},
                                              {0x19830326UL, "beegfs"},
                                              {0x00C36400UL, "ceph"},
                                              {0x65735546UL, "fuse"},
                                              {0xAAD7AAEAUL, "panfs"},
                                              {0xFF534D42UL, "cifs"}}};

// "\040" (space), "\011" (tab), "\012" (newline), "\134" (backslash): how proc(5) escapes a
// mount point or a type.
std::string unescape(std::string_view field) {
  std::string out;
  for (std::size_t i = 0; i < field.size(); ++i) {
    if (field[i] == '\\' && i + 3 < field.size()) {
      const std::string_view octal = field.substr(i + 1, 3);
      if (octal.find_first_not_of("01234567") == std::string_view::npos) {
        out.push_back(static_cast<char>((octal[0] - '0') * 64 + (octal[1] - '0') * 8 + (octal[2] - '0')));
        i += 3;
        continue;
      }
    }
    out.push_back(field[i]);
  }
  return out;
}

bool contains(const std::string& mount_point, const std::string& path) {
  if (mount_point == "/") return !path.empty() && path.front() == '/';
  return path == mount_point ||
         (path.size() > mount_point.size() && path.compare(0, mount_point.size(), mount_point) == 0 &&
          path[mount_point.size()] == '/');
}

}  // namespace

std::string_view family_name(FsFamily family) {
  for (const auto& f : kFamilies) {
    if (f.family == family) return f.name;
  }
  return "other";
}

FsFamily family_of_type(std::string_view type) {
  for (const auto& t : kNetworkTypes) {
    if (t.type == type) return t.family;
  }
  if (std::find(kLocalTypes.begin(), kLocalTypes.end(), type) != kLocalTypes.end()) return FsFamily::Local;
  return FsFamily::Other;
}

std::optional<FsFamily> family_from_name(std::string_view name) {
  for (const auto& f : kFamilies) {
    if (f.name == name && f.family != FsFamily::Other) return f.family;
  }
  const FsFamily by_type = family_of_type(name);
  if (by_type != FsFamily::Other) return by_type;
  return std::nullopt;
}

std::vector<std::string> family_names() {
  std::vector<std::string> names;
  for (const auto& f : kFamilies) {
    if (f.family != FsFamily::Other) names.emplace_back(f.name);
  }
  return names;
}

std::optional<MountEntry> parse_mountinfo_line(std::string_view line) {
  // id parent major:minor root mount_point options [optional fields...] - type source super_options
  std::vector<std::string_view> fields;
  std::size_t pos = 0;
  while (pos < line.size()) {
    const std::size_t end = std::min(line.find(' ', pos), line.size());
    if (end > pos) fields.push_back(line.substr(pos, end - pos));
    pos = end + 1;
  }
  if (fields.size() < 9) return std::nullopt;
  std::size_t dash = 6;
  while (dash < fields.size() && fields[dash] != "-") ++dash;
  if (dash + 2 >= fields.size()) return std::nullopt;
  MountEntry m;
  try {
    std::size_t used = 0;
    m.id = std::stoi(std::string(fields[0]), &used);
    if (used != fields[0].size()) return std::nullopt;
    m.parent = std::stoi(std::string(fields[1]), &used);
    if (used != fields[1].size()) return std::nullopt;
  } catch (const std::exception&) {
    return std::nullopt;
  }
  m.mount_point = unescape(fields[4]);
  m.type = unescape(fields[dash + 1]);
  m.source = unescape(fields[dash + 2]);
  return m;
}

std::optional<MountEntry> mount_holding(const std::vector<MountEntry>& mounts, const std::string& path) {
  std::size_t best = 0;
  bool found = false;
  for (const auto& m : mounts) {
    if (contains(m.mount_point, path) && (!found || m.mount_point.size() > best)) {
      best = m.mount_point.size();
      found = true;
    }
  }
  if (!found) return std::nullopt;
  // Stacked mounts on the same point: each one mounted over another has that one as its
  // parent, so the top is the one nobody on this point has as parent; the last such line
  // where the table does not say (the kernel lists mounts in the order they were made).
  std::vector<const MountEntry*> stack;
  for (const auto& m : mounts) {
    if (contains(m.mount_point, path) && m.mount_point.size() == best) stack.push_back(&m);
  }
  const MountEntry* top = stack.back();
  for (auto it = stack.rbegin(); it != stack.rend(); ++it) {
    const bool covered = std::any_of(stack.begin(), stack.end(), [&](const MountEntry* o) {
      return o != *it && o->parent == (*it)->id;
    });
    if (!covered) {
      top = *it;
      break;
    }
  }
  return *top;
}

std::string magic_type(unsigned long magic) {
  for (const auto& m : kMagics) {
    if (m.magic == magic) return std::string(m.name);
  }
  std::ostringstream hex;
  hex << "0x" << std::hex << magic;
  return hex.str();
}

FileSystemOf file_system_of(const std::string& path) {
  FileSystemOf f;
  struct statfs st {};
  if (statfs(path.c_str(), &st) != 0) {
    f.error = std::string("statfs failed: ") + std::strerror(errno);
    f.how = f.error;
    return f;
  }
  f.known = true;
  f.block_size = static_cast<std::int64_t>(st.f_bsize);
  const unsigned long magic = static_cast<unsigned long>(st.f_type) & 0xFFFFFFFFUL;
  const std::string by_magic = magic_type(magic);
  f.type = by_magic;
  f.family = family_of_type(by_magic);
  f.how = "statfs magic";

  std::error_code ec;
  const std::string target = std::filesystem::weakly_canonical(std::filesystem::absolute(path, ec), ec).string();
  std::vector<MountEntry> mounts;
  std::ifstream table("/proc/self/mountinfo");
  for (std::string line; std::getline(table, line);) {
    if (auto m = parse_mountinfo_line(line)) mounts.push_back(std::move(*m));
  }
  const auto mount = ec ? std::nullopt : mount_holding(mounts, target);
  if (!mount) {
    f.how = "statfs magic (no mount of /proc/self/mountinfo holds the path)";
    return f;
  }
  const FsFamily by_table = family_of_type(mount->type);
  if (f.family != FsFamily::Other && by_table != f.family) {
    // The magic is the kernel's word for the file that is open; a table that names another
    // family does not describe this path.
    f.how = "statfs magic " + by_magic + "; the mount table's " + mount->type + " on " + mount->mount_point +
            " is another family";
    return f;
  }
  f.type = mount->type;
  f.family = by_table;
  f.mount_point = mount->mount_point;
  f.how = "mount table: " + mount->mount_point;
  return f;
}

}  // namespace nwpio::detail::hints
