// Disk and file-system failures: a file-size limit (EFBIG), a full file system (ENOSPC on a
// small tmpfs), no inode left (a tmpfs with few), a read-only file system (before a file, and
// between nwpio's look at the folder and the library's create), a directory the user may not
// write (EACCES), and a directory that disappears between frames. Each must give the same
// nwpio::Error on every rank, naming the file and the system's reason; files finished earlier
// stay intact and exact (nwpio-check, ncvalidator, every value through netCDF-C); and nothing
// incomplete ever carries a final name.
//
// The mounts need root (CAP_SYS_ADMIN); where the sandbox refuses, the test says so and skips.
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <memory>
#include <utility>
#include <vector>

#include "api/stream_context.hpp"
#include "core/test_hooks.hpp"
#include "reliability_support.hpp"

namespace nwpio::test::rel {
namespace {

namespace fs = std::filesystem;

std::int64_t size_on_rank0(const std::string& path) {
  std::int64_t size = 0;
  if (my_rank() == 0) size = static_cast<std::int64_t>(fs::file_size(path));
  MPI_Bcast(&size, 1, MPI_INT64_T, 0, world());
  return size;
}

// The bytes of disk blocks `path` takes (st_blocks), on rank 0, known to every rank.
std::int64_t blocks_on_rank0(const std::string& path) {
  std::int64_t bytes = 0;
  struct stat st {};
  if (my_rank() == 0 && ::stat(path.c_str(), &st) == 0) bytes = static_cast<std::int64_t>(st.st_blocks) * 512;
  MPI_Bcast(&bytes, 1, MPI_INT64_T, 0, world());
  return bytes;
}

// Rank 0 runs `mount_call` (returns 0 or -1 with errno); every rank learns the outcome. Returns
// the error text, empty on success.
std::string mount_on_rank0(const std::function<int()>& mount_call) {
  int err = 0;
  if (my_rank() == 0 && mount_call() != 0) err = errno;
  MPI_Bcast(&err, 1, MPI_INT, 0, world());
  return err == 0 ? std::string() : std::strerror(err);
}

// Unmounts at scope exit (lazily if something still holds a file open there).
struct MountGuard {
  std::string where;
  ~MountGuard() {
    MPI_Barrier(world());
    if (my_rank() == 0 && !where.empty() && ::umount(where.c_str()) != 0) ::umount2(where.c_str(), MNT_DETACH);
    MPI_Barrier(world());
  }
};

// File `path` was committed behind the model: every rank waits until it carries its final name
// (the test then changes what a later file meets, not this one's commit).
void wait_until_committed(const std::string& path) {
  int ok = my_rank() != 0 || appears_within(path, 60) ? 1 : 0;
  MPI_Bcast(&ok, 1, MPI_INT, 0, world());
  ASSERT_EQ(ok, 1) << path << " never got its final name";
}

// Writes the frames whose failure the test provokes; `close` after an error may throw too.
void close_quietly(std::unique_ptr<Writer>& w) {
  try {
    if (w) w->close();
  } catch (const Error&) {
  }
  w.reset();
}

// Frame t (begin, put, end) must fail with the same Error on every rank.
std::optional<Error> expect_frame_fails(Writer& w, Model& model, int t) {
  model.fill(t);
  return expect_same_error([&] {
    w.begin_frame(date_at(t));
    put_all(w, model);
    w.end_frame();
  });
}

// The text every failure message must carry: the file (its final name; the temporary name
// contains it) and the system's reason (any of the spellings the layers use for one errno).
void expect_names_file_and_reason(const Error& e, const std::string& final_path, std::initializer_list<const char*> reasons) {
  const std::string text = e.what();
  if (my_rank() == 0) std::cout << "  every rank got: " << text << std::endl;
  EXPECT_EQ(e.kind(), ErrorKind::Io) << to_string(e.kind()) << ": " << text;
  EXPECT_TRUE(contains(text, fs::path(final_path).filename().string())) << "does not name the file: " << text;
  bool reason = false;
  for (const char* r : reasons) reason = reason || contains(text, r);
  EXPECT_TRUE(reason) << "does not give the system's reason: " << text;
}

TEST(DiskFailure, FileSizeLimitGivesEfbigEverywhere) {
  const std::string dir = fresh_dir("efbig");
  ModelShape shape;
  Model model(world(), shape);
  OutputOptions o = options_for(dir);
  o.frames_per_file = 2;
  o.write_behind = false;  // every frame in its file when end_frame returns: the sizes below are known
  auto w = std::make_unique<Writer>(model.decomposition(), model.schema(), o);
  write_frame(*w, model, 0);
  write_frame(*w, model, 1);  // file 0 full: committed
  write_frame(*w, model, 2);  // file 1, first frame
  const std::int64_t two_frames = size_on_rank0(file_at(dir, 0));
  const std::int64_t one_frame = size_on_rank0(temp_of(file_at(dir, 2)));
  const std::int64_t record = two_frames - one_frame;
  ASSERT_GT(record, 0);

  // Every rank: writes past the limit fail with EFBIG instead of killing the process.
  rlimit old{};
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &old), 0);
  auto* old_handler = std::signal(SIGXFSZ, SIG_IGN);
  rlimit limited = old;
  limited.rlim_cur = static_cast<rlim_t>(one_frame + record / 2);
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &limited), 0);
  model.fill(3);
  const auto e = expect_same_error([&] {
    w->begin_frame(date_at(3));
    put_all(*w, model);
    w->end_frame();
    w->close();
  });
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &old), 0);
  std::signal(SIGXFSZ, old_handler);
  if (e) expect_names_file_and_reason(*e, file_at(dir, 2), {"File too large", "file too large", "EFBIG"});
  close_quietly(w);
  MPI_Barrier(world());
  expect_complete(file_at(dir, 0), {0, 1}, model, shape);
  // The refused frame wrote nothing: file 1 holds frame 2 only, complete, or is still temporary.
  if (my_rank() == 0 && fs::exists(file_at(dir, 2))) expect_complete(file_at(dir, 2), {2}, model, shape);
  expect_no_incomplete_final_file(dir);
}

// A tmpfs with room for one file and a half: file 0 fits, file 1 cannot, and the error names
// the full disk on every rank. netCDF-4 (io_form 2) buffers the file in HDF5 until its close,
// whose failed flush once left HDF5 holding a half-closed file that crashed the process when it
// ended (MPI_Finalize): the test's own exit would then be a crash.
void full_file_system_fails_everywhere(IoForm io_form, int format) {
  const std::string dir = fresh_dir("enospc_" + std::to_string(static_cast<int>(io_form)));
  ModelShape shape;
  Model model(world(), shape);
  OutputOptions o = options_for(dir);
  o.io_form = io_form;
  o.nocolons = true;  // the names file_at() gives
  // One frame's file size, measured on the normal file system.
  {
    Writer probe(model.decomposition(), model.schema(), o);
    write_frame(probe, model, 0);
    probe.close();
  }
  // Its blocks, not its length: a file's unused header space is a hole that takes no blocks.
  const std::int64_t one_file = blocks_on_rank0(file_at(dir, 0));
  const std::string mnt = dir + "/small_fs";
  if (my_rank() == 0) fs::create_directories(mnt);
  const std::string opts = "size=" + std::to_string(one_file + one_file / 2);
  const std::string refused = mount_on_rank0([&] { return ::mount("tmpfs", mnt.c_str(), "tmpfs", 0, opts.c_str()); });
  if (!refused.empty()) GTEST_SKIP() << "the sandbox refuses a tmpfs mount (" << refused << "): full file system not tested";
  MountGuard guard{mnt};

  o.output_dir = mnt;
  auto w = std::make_unique<Writer>(model.decomposition(), model.schema(), o);
  write_frame(*w, model, 0);
  model.fill(1);
  const auto e = expect_same_error([&] {
    w->begin_frame(date_at(1));
    put_all(*w, model);
    w->end_frame();
    w->close();
  });
  if (e) expect_names_file_and_reason(*e, file_at(mnt, 1), {"No space left on device", "Not enough space", "ENOSPC", "NO_SPACE"});
  close_quietly(w);
  MPI_Barrier(world());
  expect_complete(file_at(mnt, 0), {0}, model, shape, format);
  if (my_rank() == 0) {
    EXPECT_FALSE(fs::exists(file_at(mnt, 1)));
  }
  expect_no_incomplete_final_file(mnt);
}

TEST(DiskFailure, FullFileSystemGivesEnospcEverywhere) {
  full_file_system_fails_everywhere(IoForm::Pnetcdf, NC_FORMAT_64BIT_OFFSET);
}

TEST(DiskFailure, FullFileSystemGivesEnospcEverywhereNetcdf4) {
  full_file_system_fails_everywhere(IoForm::NetcdfSerial, NC_FORMAT_NETCDF4);
}

TEST(DiskFailure, NoInodeLeftFailsEverywhere) {
  // A tmpfs with few inodes: file 0 is written, then every inode left is taken (files in a folder
  // of their own); the next file cannot be created, and the error says why.
  const std::string dir = fresh_dir("enospc_inodes");
  ModelShape shape;
  Model model(world(), shape);
  const std::string mnt = dir + "/few_inodes";
  if (my_rank() == 0) fs::create_directories(mnt);
  const std::string refused = mount_on_rank0([&] { return ::mount("tmpfs", mnt.c_str(), "tmpfs", 0, "nr_inodes=32"); });
  if (!refused.empty()) GTEST_SKIP() << "the sandbox refuses a tmpfs mount (" << refused << "): no inode left not tested";
  MountGuard guard{mnt};

  auto w = std::make_unique<Writer>(model.decomposition(), model.schema(), options_for(mnt));
  write_frame(*w, model, 0);
  wait_until_committed(file_at(mnt, 0));
  if (my_rank() == 0) {
    fs::create_directories(mnt + "/taken");
    for (int i = 0;; ++i) {
      std::FILE* f = std::fopen((mnt + "/taken/" + std::to_string(i)).c_str(), "w");
      if (f == nullptr) break;
      std::fclose(f);
    }
  }
  MPI_Barrier(world());
  const auto e = expect_frame_fails(*w, model, 1);
  if (e) expect_names_file_and_reason(*e, file_at(mnt, 1), {"No space left on device", "ENOSPC"});
  close_quietly(w);
  MPI_Barrier(world());
  expect_complete(file_at(mnt, 0), {0}, model, shape);
  expect_no_incomplete_final_file(mnt);
}

TEST(DiskFailure, ReadOnlyFileSystemFailsEverywhere) {
  const std::string dir = fresh_dir("rofs");
  ModelShape shape;
  Model model(world(), shape);
  auto w = std::make_unique<Writer>(model.decomposition(), model.schema(), options_for(dir));
  write_frame(*w, model, 0);
  wait_until_committed(file_at(dir, 0));  // committed before the file system turns read-only
  // A read-only bind mount of the directory onto itself: the files stay, writing is refused.
  const std::string refused = mount_on_rank0([&] {
    if (::mount(dir.c_str(), dir.c_str(), nullptr, MS_BIND, nullptr) != 0) return -1;
    return ::mount(nullptr, dir.c_str(), nullptr, MS_REMOUNT | MS_BIND | MS_RDONLY, nullptr);
  });
  if (!refused.empty()) {
    if (my_rank() == 0) ::umount2(dir.c_str(), MNT_DETACH);
    GTEST_SKIP() << "the sandbox refuses a read-only bind mount (" << refused << "): not tested";
  }
  {
    MountGuard guard{dir};
      const auto e = expect_frame_fails(*w, model, 1);
    if (e) expect_names_file_and_reason(*e, file_at(dir, 1), {"Read-only file system", "EROFS", "read-only"});
    close_quietly(w);
    expect_complete(file_at(dir, 0), {0}, model, shape);
    expect_no_incomplete_final_file(dir);
  }
}

TEST(DiskFailure, ReadOnlyBetweenTheCheckAndTheCreateFailsEverywhere) {
  // The output directory is a bind mount of itself, turned read-only after rank 0 made the
  // private folder ready for file 1 and before the library creates it (a test hook): the
  // library's create fails with its own words ("NetCDF: Write to read only", netCDF-4's
  // "Permission denied"), and the error must still carry the system's reason.
  std::vector<std::pair<IoForm, int>> io_forms = {{IoForm::Pnetcdf, NC_FORMAT_64BIT_OFFSET},
                                                  {IoForm::NetcdfSerial, NC_FORMAT_NETCDF4}};
#ifdef NWPIO_HAVE_NETCDF_PAR
  io_forms.push_back({IoForm::NetcdfParallel, NC_FORMAT_NETCDF4});
#endif
  for (const auto& [io_form, format] : io_forms) {
    SCOPED_TRACE("io_form " + std::to_string(static_cast<int>(io_form)));
    const std::string dir = fresh_dir("rofs_create_" + std::to_string(static_cast<int>(io_form)));
    const std::string refused = mount_on_rank0([&] { return ::mount(dir.c_str(), dir.c_str(), nullptr, MS_BIND, nullptr); });
    if (!refused.empty()) GTEST_SKIP() << "the sandbox refuses a bind mount (" << refused << "): not tested";
    MountGuard guard{dir};
    ModelShape shape;
    Model model(world(), shape);
    OutputOptions o = options_for(dir);
    o.io_form = io_form;
    o.nocolons = true;
    auto hooks = std::make_shared<detail::TestHooks>();
    auto w = std::make_unique<Writer>(detail::make_writer(model.decomposition(), model.schema(), o, {hooks, nullptr, nullptr}));
    write_frame(*w, model, 0);
    wait_until_committed(file_at(dir, 0));
    // The bind mount itself turns read-only: the descriptors nwpio holds lead through it.
    hooks->before_create = [&] {
      if (::mount(nullptr, dir.c_str(), nullptr, MS_REMOUNT | MS_BIND | MS_RDONLY, nullptr) != 0) {
        ADD_FAILURE() << "remount read-only: " << std::strerror(errno);
      }
    };
      const auto e = expect_frame_fails(*w, model, 1);
    if (e) expect_names_file_and_reason(*e, file_at(dir, 1), {"Read-only file system"});
    close_quietly(w);
    MPI_Barrier(world());
    expect_complete(file_at(dir, 0), {0}, model, shape, format);
    expect_no_incomplete_final_file(dir);
  }
}

TEST(DiskFailure, DirectoryNotWritableFailsEverywhere) {
  // Root ignores permission bits, so every rank takes the identity of 'nobody' (effective uid
  // only, so it can come back) for the frame that must fail.
  const std::string dir = fresh_dir("eacces");
  ModelShape shape;
  Model model(world(), shape);
  auto w = std::make_unique<Writer>(model.decomposition(), model.schema(), options_for(dir));
  write_frame(*w, model, 0);
  wait_until_committed(file_at(dir, 0));
  if (my_rank() == 0) fs::permissions(dir, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                                                fs::perms::others_read | fs::perms::others_exec);
  MPI_Barrier(world());
  const uid_t nobody = 65534;
  const bool root = ::geteuid() == 0;
  if (root) {
    ASSERT_EQ(::seteuid(nobody), 0) << std::strerror(errno);
  }
  const auto e = expect_frame_fails(*w, model, 1);
  if (root) {
    ASSERT_EQ(::seteuid(0), 0) << std::strerror(errno);
  }
  if (e) expect_names_file_and_reason(*e, file_at(dir, 1), {"Permission denied", "EACCES", "not writable"});
  close_quietly(w);
  MPI_Barrier(world());
  expect_complete(file_at(dir, 0), {0}, model, shape);
  expect_no_incomplete_final_file(dir);
}

TEST(DiskFailure, DirectoryRemovedBetweenFramesFailsEverywhere) {
  const std::string top = fresh_dir("enoent");
  const std::string dir = top + "/out", moved = top + "/moved";
  if (my_rank() == 0) fs::create_directories(dir);
  MPI_Barrier(world());
  ModelShape shape;
  Model model(world(), shape);
  auto w = std::make_unique<Writer>(model.decomposition(), model.schema(), options_for(dir));
  write_frame(*w, model, 0);
  wait_until_committed(file_at(dir, 0));
  if (my_rank() == 0) fs::rename(dir, moved);  // e.g. an operator's cleanup script
  MPI_Barrier(world());
  const auto e = expect_frame_fails(*w, model, 1);
  if (e) expect_names_file_and_reason(*e, file_at(dir, 1), {"No such file or directory", "ENOENT", "does not exist"});
  close_quietly(w);
  MPI_Barrier(world());
  expect_complete(file_at(moved, 0), {0}, model, shape);
  if (my_rank() == 0) {
    EXPECT_FALSE(fs::exists(dir));
  }
}

}  // namespace
}  // namespace nwpio::test::rel
