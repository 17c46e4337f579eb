// Which mount holds a path and which family its type belongs to (src/hints/file_system.hpp),
// from mountinfo lines as the kernel writes them: no NFS, GlusterFS or CephFS needed.
#include <gtest/gtest.h>

#include <sys/statfs.h>

#include <string>
#include <vector>

#include "hints/file_system.hpp"

using namespace nwpio::detail::hints;

namespace {

std::vector<MountEntry> table(const std::vector<std::string>& lines) {
  std::vector<MountEntry> out;
  for (const auto& l : lines) {
    auto m = parse_mountinfo_line(l);
    EXPECT_TRUE(m.has_value()) << l;
    if (m) out.push_back(*m);
  }
  return out;
}

std::string type_at(const std::vector<MountEntry>& mounts, const std::string& path) {
  const auto m = mount_holding(mounts, path);
  return m ? m->type + "@" + m->mount_point : "none";
}

// Each path of `want` is held by the mount named "type@mount_point".
void expect_holders(const std::vector<MountEntry>& mounts, const std::vector<std::pair<std::string, std::string>>& want) {
  for (const auto& [path, holder] : want) EXPECT_EQ(type_at(mounts, path), holder) << path;
}

const std::string kRoot = "27 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw,discard";

}  // namespace

TEST(MountInfo, ParsesOptionalFieldsFuseSubtypesAndEscapes) {
  const auto m = parse_mountinfo_line(
      "412 27 0:61 / /scratch/my\\040run rw,nosuid,relatime shared:210 master:3 - fuse.glusterfs 127.0.0.1:/vol0 "
      "rw,user_id=0,group_id=0,default_permissions,allow_other,max_read=131072");
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->id, 412);
  EXPECT_EQ(m->parent, 27);
  EXPECT_EQ(m->mount_point, "/scratch/my run");
  EXPECT_EQ(m->type, "fuse.glusterfs");
  EXPECT_EQ(m->source, "127.0.0.1:/vol0");
  const auto tab = parse_mountinfo_line("30 27 0:27 / /a\\011b\\134c rw - nfs4 srv:/export rw,vers=4.2");
  ASSERT_TRUE(tab.has_value());
  EXPECT_EQ(tab->mount_point, "/a\tb\\c");
  EXPECT_EQ(tab->type, "nfs4");
}

TEST(MountInfo, RejectsWhatIsNotAMountinfoLine) {
  EXPECT_FALSE(parse_mountinfo_line("").has_value());
  EXPECT_FALSE(parse_mountinfo_line("tmpfs /dev/shm tmpfs rw 0 0").has_value());  // /proc/mounts format
  EXPECT_FALSE(parse_mountinfo_line("x 27 0:27 / /a rw - tmpfs tmpfs rw").has_value());
  EXPECT_FALSE(parse_mountinfo_line("31 27 0:27 / /a rw shared:1 no-separator tmpfs").has_value());
}

TEST(MountInfo, TheTopOfStackedMountsHoldsThePath) {
  // /dev/shm as this machine's kernel lists it: a tmpfs mounted over a tmpfs (findmnt --target
  // prints two lines for it), then a ramfs over a tmpfs on one point in the other order.
  const auto mounts = table({kRoot, "24 27 0:6 / /dev rw - devtmpfs devtmpfs rw",
                             "25 24 0:23 / /dev/shm rw,relatime - tmpfs tmpfs rw",
                             "30 25 0:27 / /dev/shm rw,relatime - ramfs none rw",
                             // listed before the mount it covers: the parent link decides, not the order
                             "66 67 0:41 / /work/scratch rw - tmpfs top rw",
                             "67 27 0:40 / /work/scratch rw - ramfs bottom rw"});
  expect_holders(mounts, {{"/dev/shm/x", "ramfs@/dev/shm"},
                          {"/dev/shm", "ramfs@/dev/shm"},
                          {"/work/scratch/run/wrfout", "tmpfs@/work/scratch"},
                          {"/dev/pts", "devtmpfs@/dev"}});
}

TEST(MountInfo, TheLongestContainingMountPointWinsAtPathSeparators) {
  const auto mounts = table({kRoot, "40 27 0:50 / /scratch rw - lustre 127.0.0.2@tcp:/fs rw",
                             "41 27 0:51 / /scratch2 rw - nfs srv:/s2 rw",
                             "42 40 0:52 / /scratch/gluster rw - fuse.glusterfs h:/v rw",
                             "43 27 0:53 / /my\\040dir rw - beegfs beegfs_nodev rw"});
  expect_holders(mounts, {{"/scratch/run", "lustre@/scratch"},
                          {"/scratch2/run", "nfs@/scratch2"},
                          {"/scratch2", "nfs@/scratch2"},
                          {"/scratch/gluster/out", "fuse.glusterfs@/scratch/gluster"},
                          {"/scratch/glusterx", "lustre@/scratch"},
                          {"/my dir/f", "beegfs@/my dir"},
                          {"/home/user", "ext4@/"}});
  EXPECT_EQ(type_at(table({"40 27 0:50 / /scratch rw - xfs /dev/sdb rw"}), "/home"), "none");
}

TEST(FsFamilies, MountTypesOfEveryFamily) {
  EXPECT_EQ(family_of_type("nfs"), FsFamily::Nfs);
  EXPECT_EQ(family_of_type("nfs4"), FsFamily::Nfs);
  EXPECT_EQ(family_of_type("fuse.glusterfs"), FsFamily::Glusterfs);
  EXPECT_EQ(family_of_type("beegfs"), FsFamily::Beegfs);
  EXPECT_EQ(family_of_type("ceph"), FsFamily::Cephfs);
  EXPECT_EQ(family_of_type("fuse.ceph-fuse"), FsFamily::Cephfs);
  EXPECT_EQ(family_of_type("lustre"), FsFamily::Lustre);
  EXPECT_EQ(family_of_type("gpfs"), FsFamily::Gpfs);
  for (const char* local : {"ext4", "xfs", "btrfs", "tmpfs", "ramfs", "zfs", "overlay"}) {
    EXPECT_EQ(family_of_type(local), FsFamily::Local) << local;
  }
  EXPECT_EQ(family_of_type("fuse.sshfs"), FsFamily::Other);
  EXPECT_EQ(family_of_type("cifs"), FsFamily::Other);
  EXPECT_EQ(family_of_type("fuse"), FsFamily::Other);  // statfs's name for every FUSE file system
}

TEST(FsFamilies, NamesUsersGiveAreFamiliesOrMountTypes) {
  for (const auto& name : family_names()) {
    const auto f = family_from_name(name);
    ASSERT_TRUE(f.has_value()) << name;
    EXPECT_EQ(family_name(*f), name);
  }
  EXPECT_EQ(family_from_name("fuse.glusterfs"), FsFamily::Glusterfs);
  EXPECT_EQ(family_from_name("nfs4"), FsFamily::Nfs);
  EXPECT_EQ(family_from_name("ceph"), FsFamily::Cephfs);
  EXPECT_EQ(family_from_name("ext4"), FsFamily::Local);
  EXPECT_FALSE(family_from_name("other").has_value());
  EXPECT_FALSE(family_from_name("fuse.sshfs").has_value());
  EXPECT_FALSE(family_from_name("Lustre").has_value());
}

TEST(FsFamilies, StatfsMagicNames) {
  EXPECT_EQ(magic_type(0xEF53), "ext4");
  EXPECT_EQ(magic_type(0x0BD00BD0), "lustre");
  EXPECT_EQ(magic_type(0x19830326), "beegfs");
  EXPECT_EQ(magic_type(0x6969), "nfs");
  EXPECT_EQ(magic_type(0x65735546), "fuse");
  EXPECT_EQ(magic_type(0x12345), "0x12345");
}

TEST(FsFamilies, TheRunningKernelsProcIsNamedByTheMountTable) {
  // /proc is always a proc mount: the mount table names it, statfs agrees (its magic is not a
  // family's), and its block size is statfs's own.
  const FileSystemOf fs = file_system_of("/proc/self");
  ASSERT_TRUE(fs.known) << fs.error;
  EXPECT_EQ(fs.type, "proc");
  EXPECT_EQ(fs.family, FsFamily::Other);
  EXPECT_EQ(fs.mount_point, "/proc");
  struct statfs st {};
  ASSERT_EQ(statfs("/proc", &st), 0);
  EXPECT_EQ(fs.block_size, static_cast<std::int64_t>(st.f_bsize));
  EXPECT_FALSE(file_system_of("/no/such/path/at/all").known);
}
