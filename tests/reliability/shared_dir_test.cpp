// A shared output directory: someone else with write access to it (here the user 'nobody', uid
// 65534: the test runs as root and takes that identity with seteuid, as disk_failure_test does)
// plants a name where nwpio will write, before the stream opens:
//   - at the temporary name inside the job user's private folder (<dir>/.nwpio-tmp-<uid>/, mode
//     0700: nobody else can enter it, so these stand for names left there by root or by the
//     user; planted as root, then given to 'nobody' with lchown where the case says so);
//   - at the private folder's own name (a symbolic link, a FIFO, a file, another user's folder,
//     one open to everybody);
//   - at the final name (symbolic links, a FIFO, a folder, a hard link) and at the statistics
//     file's name.
// For io_form 11, 2 and 13: the file outside the output directory the planted names point to is
// untouched (bytes and mtime), nothing outside the output directory changes at all, and the run
// either writes its files correctly (nwpio-check, ncvalidator for the classic formats, every
// value through netCDF-C) or fails with the same error on every rank naming what is there.
// The last tests write under umask 077 and 022, by the ranks themselves and through an I/O
// server: the files nwpio creates are 0600 and 0644.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <memory>

#include "nwpio/io_servers.hpp"
#include "nwpio/stream_builder.hpp"
#include "reliability_support.hpp"

namespace nwpio::test::rel {
namespace {

namespace fs = std::filesystem;

constexpr uid_t kOther = 65534;  // 'nobody'
constexpr gid_t kOtherGroup = 65534;

// Rank 0 acts as the other user inside the scope (effective ids only, so it can come back).
struct AsOtherUser {
  AsOtherUser() {
    EXPECT_EQ(::setegid(kOtherGroup), 0) << std::strerror(errno);
    EXPECT_EQ(::seteuid(kOther), 0) << std::strerror(errno);
  }
  ~AsOtherUser() {
    EXPECT_EQ(::seteuid(0), 0) << std::strerror(errno);
    EXPECT_EQ(::setegid(0), 0) << std::strerror(errno);
  }
  AsOtherUser(const AsOtherUser&) = delete;
  AsOtherUser& operator=(const AsOtherUser&) = delete;
};

void check_sys(int rc, const std::string& what) { ASSERT_EQ(rc, 0) << what << ": " << std::strerror(errno); }

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

// The case's folders: top/out (the shared output directory, writable by everybody, no sticky
// bit: anyone may rename or replace names in it) and top/outside (the job user's other files).
struct Place {
  std::string top, out, outside;
  std::string private_dir_;  // the job user's (computed as that user: the planting may switch)
  std::string precious() const { return outside + "/precious.nc"; }        // the job user's file
  std::string others() const { return outside + "/others_file"; }          // the other user's file
  std::string elsewhere() const { return outside + "/elsewhere"; }         // a folder of the job user
  std::string nothing() const { return outside + "/nothing_here"; }        // must never appear
  std::string private_dir() const { return private_dir_; }
  std::string final0() const { return file_at(out, 0); }
  std::string temp0() const { return temp_of(file_at(out, 0)); }
  std::string stats() const { return out + "/stats.json"; }
};

// Everything under top except the output directory: type, size, mtime, bytes, link target.
using Snapshot = std::map<std::string, std::string>;

// Every name inside the output directory: its type, owner and link target. What another user
// planted there must still be there after a refused run (nwpio removes only its own names).
Snapshot snapshot_planted(const Place& p) {
  Snapshot s;
  for (auto it = fs::recursive_directory_iterator(p.out); it != fs::recursive_directory_iterator(); ++it) {
    const std::string path = it->path().string();
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0) continue;
    std::string facts = std::to_string(st.st_mode & S_IFMT) + " " + std::to_string(st.st_uid);
    if (S_ISLNK(st.st_mode)) facts += " -> " + fs::read_symlink(path).string();
    s[path] = facts;
  }
  return s;
}
Snapshot snapshot_outside(const Place& p) {
  Snapshot s;
  for (auto it = fs::recursive_directory_iterator(p.top); it != fs::recursive_directory_iterator(); ++it) {
    const std::string path = it->path().string();
    if (path == p.out) {
      it.disable_recursion_pending();
      continue;
    }
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0) continue;
    std::string facts = std::to_string(st.st_mode) + " " + std::to_string(st.st_uid) + " " + std::to_string(st.st_size) +
                        " " + std::to_string(st.st_mtim.tv_sec) + "." + std::to_string(st.st_mtim.tv_nsec);
    if (S_ISREG(st.st_mode)) facts += " " + read_all(path);
    if (S_ISLNK(st.st_mode)) facts += " -> " + fs::read_symlink(path).string();
    s[path] = facts;
  }
  return s;
}

enum class Outcome { Written, Refused };

struct Attack {
  const char* name;
  Outcome outcome;
  const char* says;  // Refused: a part of the error every rank gets
  std::function<void(const Place&)> plant;  // rank 0, as root
  bool noclobber = false;
};

// In the job user's private folder, made as nwpio makes it (0700).
void make_private_dir(const Place& p) { check_sys(::mkdir(p.private_dir().c_str(), 0700), "mkdir " + p.private_dir()); }
void give_to_other(const std::string& path) { check_sys(::lchown(path.c_str(), kOther, kOtherGroup), "lchown " + path); }

std::vector<Attack> attacks() {
  std::vector<Attack> a;
  // (a) the temporary name inside the private folder
  a.push_back({"temp_symlink", Outcome::Refused, "a symbolic link is there", [](const Place& p) {
                 make_private_dir(p);
                 check_sys(::symlink(p.precious().c_str(), p.temp0().c_str()), "symlink");
                 give_to_other(p.temp0());
               }});
  a.push_back({"temp_dangling_symlink", Outcome::Refused, "a symbolic link is there", [](const Place& p) {
                 make_private_dir(p);
                 check_sys(::symlink(p.nothing().c_str(), p.temp0().c_str()), "symlink");
               }});
  a.push_back({"temp_fifo", Outcome::Refused, "a FIFO is there", [](const Place& p) {
                 make_private_dir(p);
                 check_sys(::mkfifo(p.temp0().c_str(), 0666), "mkfifo");
                 give_to_other(p.temp0());
               }});
  a.push_back({"temp_folder", Outcome::Refused, "a folder is there", [](const Place& p) {
                 make_private_dir(p);
                 check_sys(::mkdir(p.temp0().c_str(), 0777), "mkdir");
                 give_to_other(p.temp0());
               }});
  a.push_back({"temp_hard_link_to_others_file", Outcome::Refused, "a file of user id 65534 is there",
               [](const Place& p) {
                 make_private_dir(p);
                 check_sys(::link(p.others().c_str(), p.temp0().c_str()), "link");
               }});
  a.push_back({"temp_others_file", Outcome::Refused, "a file of user id 65534 is there", [](const Place& p) {
                 make_private_dir(p);
                 std::ofstream(p.temp0()) << "someone else's\n";
                 give_to_other(p.temp0());
               }});
  // A hard link to a file of the job's user is a regular file of that user: removed as a
  // leftover (the name, not the file it shares), then the temporary file is created afresh.
  a.push_back({"temp_hard_link_to_own_file", Outcome::Written, "", [](const Place& p) {
                 make_private_dir(p);
                 check_sys(::link(p.precious().c_str(), p.temp0().c_str()), "link");
               }});
  // (b) the private folder's name, planted by the other user in the shared directory
  a.push_back({"private_dir_symlink", Outcome::Refused, "is a symbolic link, not a folder", [](const Place& p) {
                 AsOtherUser other;
                 check_sys(::symlink(p.elsewhere().c_str(), p.private_dir().c_str()), "symlink");
               }});
  a.push_back({"private_dir_fifo", Outcome::Refused, "is a FIFO, not a folder", [](const Place& p) {
                 AsOtherUser other;
                 check_sys(::mkfifo(p.private_dir().c_str(), 0666), "mkfifo");
               }});
  a.push_back({"private_dir_file", Outcome::Refused, "is a file, not a folder", [](const Place& p) {
                 AsOtherUser other;
                 std::ofstream(p.private_dir()) << "x\n";
               }});
  a.push_back({"private_dir_of_other_user", Outcome::Refused, "belongs to user id 65534", [](const Place& p) {
                 AsOtherUser other;
                 check_sys(::mkdir(p.private_dir().c_str(), 0700), "mkdir");
               }});
  a.push_back({"private_dir_of_other_user_mode_0777", Outcome::Refused, "belongs to user id 65534",
               [](const Place& p) {
                 AsOtherUser other;
                 check_sys(::mkdir(p.private_dir().c_str(), 0777), "mkdir");
                 check_sys(::chmod(p.private_dir().c_str(), 0777), "chmod");
                 std::ofstream(p.private_dir() + "/planted") << "x\n";
               }});
  // The job user's own folder, left open to everybody: closed (0700) and used.
  a.push_back({"private_dir_own_mode_0777", Outcome::Written, "", [](const Place& p) {
                 make_private_dir(p);
                 check_sys(::chmod(p.private_dir().c_str(), 0777), "chmod");
               }});
  // (c) the final name (and the statistics file's), planted by the other user
  a.push_back({"final_symlink", Outcome::Written, "", [](const Place& p) {
                 AsOtherUser other;
                 check_sys(::symlink(p.precious().c_str(), p.final0().c_str()), "symlink");
               }});
  a.push_back({"final_dangling_symlink", Outcome::Written, "", [](const Place& p) {
                 AsOtherUser other;
                 check_sys(::symlink(p.nothing().c_str(), p.final0().c_str()), "symlink");
               }});
  a.push_back({"final_fifo", Outcome::Written, "", [](const Place& p) {
                 AsOtherUser other;
                 check_sys(::mkfifo(p.final0().c_str(), 0666), "mkfifo");
               }});
  a.push_back({"final_folder", Outcome::Refused, "Is a directory", [](const Place& p) {
                 AsOtherUser other;
                 check_sys(::mkdir(p.final0().c_str(), 0777), "mkdir");
               }});
  a.push_back({"final_hard_link", Outcome::Written, "", [](const Place& p) {
                 AsOtherUser other;
                 check_sys(::link(p.others().c_str(), p.final0().c_str()), "link");
               }});
  a.push_back({"final_symlink_noclobber", Outcome::Refused, "exists and noclobber is set",
               [](const Place& p) {
                 AsOtherUser other;
                 check_sys(::symlink(p.precious().c_str(), p.final0().c_str()), "symlink");
               },
               true});
  a.push_back({"stats_symlink", Outcome::Written, "", [](const Place& p) {
                 AsOtherUser other;
                 check_sys(::symlink(p.precious().c_str(), p.stats().c_str()), "symlink");
               }});
  return a;
}

struct IoCase {
  IoForm io_form;
  int format;  // the netCDF format its files have
  const char* name;
};

std::vector<IoCase> io_cases() {
  std::vector<IoCase> c = {{IoForm::Pnetcdf, NC_FORMAT_64BIT_OFFSET, "io11"},
                           {IoForm::NetcdfSerial, NC_FORMAT_64BIT_OFFSET, "io2"}};
#ifdef NWPIO_HAVE_NETCDF_PAR
  c.push_back({IoForm::NetcdfParallel, NC_FORMAT_NETCDF4, "io13"});
#endif
  return c;
}

OutputOptions options_of(const IoCase& io, const std::string& dir) {
  OutputOptions o = options_for(dir);
  o.io_form = io.io_form;
  o.fallback_to_serial = false;
  o.use_netcdf_classic = true;  // io_form 2: CDF-2, which ncvalidator reads
  o.nocolons = true;            // the same names in every io_form
  o.stats_json = dir + "/stats.json";
  return o;
}

// Writes frames 0 and 1 (one file each) and closes. Every rank must end the same way: no error,
// or the same Error; returns it.
std::optional<Error> write_two_files(Model& model, const OutputOptions& o) {
  std::unique_ptr<Writer> w;
  std::string text;
  ErrorKind kind = ErrorKind::Internal;
  bool threw = false;
  try {
    w = std::make_unique<Writer>(model.decomposition(), model.schema(), o);
    write_frame(*w, model, 0);
    write_frame(*w, model, 1);
    w->close();
  } catch (const Error& e) {
    threw = true;
    text = e.what();
    kind = e.kind();
  }
  try {
    if (w && threw) w->close();
  } catch (const Error&) {
  }
  w.reset();
  int mine = threw ? 1 : 0, all = 0, any = 0;
  MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, world());
  MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, world());
  EXPECT_EQ(all, any) << "rank " << my_rank() << (threw ? " got an error, another rank none: " + text : " got no error");
  if (any == 0) return std::nullopt;
  EXPECT_TRUE(same_text_everywhere(world(), text)) << "rank " << my_rank() << ": " << text;
  return Error(kind, text);
}

// What the planted names point to, and the folder around the output directory.
Place make_place(const std::string& name) {
  Place p;
  p.top = fresh_dir(name);
  p.out = p.top + "/out";
  p.outside = p.top + "/outside";
  p.private_dir_ = test::private_dir_of(p.out);
  if (my_rank() == 0) {
    fs::create_directories(p.out);
    fs::create_directories(p.elsewhere());
    fs::permissions(p.out, fs::perms::all);  // 0777: anyone may add, rename and remove names
    std::ofstream(p.precious()) << "the job user's own file: must never change\n";
    std::ofstream(p.others()) << "the other user's file: must never change\n";
    EXPECT_EQ(::chown(p.others().c_str(), kOther, kOtherGroup), 0) << std::strerror(errno);
    // An mtime in the past, so that any write would show.
    const timespec old[2] = {{1000000000, 0}, {1000000000, 0}};
    for (const std::string& f : {p.precious(), p.others()}) ::utimensat(AT_FDCWD, f.c_str(), old, 0);
  }
  MPI_Barrier(world());
  return p;
}

class SharedDirectory : public ::testing::TestWithParam<IoCase> {};

TEST_P(SharedDirectory, PlantedNamesNeverRedirectAWrite) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root, to plant names as another user";
  const IoCase io = GetParam();
  ModelShape shape;
  Model model(world(), shape);
  for (const Attack& attack : attacks()) {
    SCOPED_TRACE(std::string(io.name) + " " + attack.name);
    const Place p = make_place(std::string("shared_") + io.name + "_" + attack.name);
    Snapshot before, planted;
    if (my_rank() == 0) {
      attack.plant(p);
      before = snapshot_outside(p);
      planted = snapshot_planted(p);
    }
    MPI_Barrier(world());
    OutputOptions o = options_of(io, p.out);
    o.noclobber = attack.noclobber;
    const auto error = write_two_files(model, o);
    if (attack.outcome == Outcome::Refused) {
      EXPECT_TRUE(error.has_value()) << "written although " << attack.name;
      if (error) {
        if (my_rank() == 0) std::cout << "  " << io.name << " " << attack.name << ": " << error->what() << std::endl;
        EXPECT_TRUE(contains(error->what(), attack.says)) << error->what();
      }
      if (my_rank() == 0) {
        const Snapshot after = snapshot_planted(p);
        for (const auto& [path, facts] : planted) {
          const auto found = after.find(path);
          EXPECT_TRUE(found != after.end() && found->second == facts) << "the planted " << path << " was changed or removed";
        }
      }
    } else {
      EXPECT_FALSE(error.has_value()) << error->what();
      if (my_rank() == 0) std::cout << "  " << io.name << " " << attack.name << ": written" << std::endl;
      for (int t : {0, 1}) {
        if (my_rank() != 0) continue;
        // (never opened otherwise: opening a planted FIFO would wait for a writer)
        if (!fs::is_regular_file(fs::symlink_status(file_at(p.out, t)))) {
          ADD_FAILURE() << file_at(p.out, t) << " is not a regular file";
          continue;
        }
        const auto verdict = check::check_file(file_at(p.out, t));
        EXPECT_EQ(verdict.verdict, check::Verdict::Ok) << verdict.line;
        if (io.format != NC_FORMAT_NETCDF4) {
          EXPECT_TRUE(ncvalidator_ok(file_at(p.out, t)));  // (ncvalidator reads classic files)
        }
        check_file({file_at(p.out, t), {t}, {date_at(t)}}, model.schema(), shape, io.format);
      }
      if (my_rank() == 0) {
        EXPECT_TRUE(fs::is_regular_file(fs::symlink_status(p.stats())));
        EXPECT_NE(read_all(p.stats()).find("\"frames\""), std::string::npos);
        EXPECT_FALSE(fs::exists(p.private_dir()) && !fs::is_empty(p.private_dir())) << "left in " << p.private_dir();
      }
    }
    if (my_rank() == 0) {
      // Nothing outside the output directory changed: the files the names pointed to included.
      EXPECT_TRUE(snapshot_outside(p) == before) << "something outside " << p.out << " changed";
      EXPECT_FALSE(fs::exists(fs::symlink_status(p.nothing())));
      // Whatever happened: no incomplete file under a final name (planted names left out).
      for (int t : {0, 1}) {
        const std::string f = file_at(p.out, t);
        if (!fs::is_regular_file(fs::symlink_status(f))) continue;
        if (attack.outcome == Outcome::Refused && fs::equivalent(f, p.others())) continue;
        EXPECT_EQ(check::check_file(f).verdict, check::Verdict::Ok) << f;
      }
    }
    MPI_Barrier(world());
  }
}

// Every file nwpio creates follows the umask: 0600 under 077, 0644 under 022 (data files and
// the statistics file; the private folder is 0700 always).
TEST_P(SharedDirectory, ModesFollowTheUmask) {
  const IoCase io = GetParam();
  ModelShape shape;
  Model model(world(), shape);
  for (const mode_t mask : {mode_t{077}, mode_t{022}}) {
    const std::string dir = fresh_dir(std::string("umask_") + io.name + "_" + std::to_string(mask));
    const mode_t old = ::umask(mask);
    const auto error = write_two_files(model, options_of(io, dir));
    ::umask(old);
    ASSERT_FALSE(error.has_value()) << error->what();
    if (my_rank() != 0) continue;
    const mode_t want = 0666 & ~mask;
    for (const std::string& f : {file_at(dir, 0), file_at(dir, 1), dir + "/stats.json"}) {
      struct stat st {};
      ASSERT_EQ(::stat(f.c_str(), &st), 0) << f;
      EXPECT_EQ(st.st_mode & 07777, want) << f << " under umask 0" << std::oct << mask;
    }
    EXPECT_FALSE(fs::exists(test::private_dir_of(dir))) << "the private folder stays after a good close";
  }
}

// The servers' files (one server, the other ranks compute; every io_form): a symbolic link
// at the temporary name is refused with the same error on every compute rank, one at the final
// name is replaced; the file behind the links stays untouched either way.
TEST(SharedDirectoryServers, PlantedNamesNeverRedirectAServersWrite) {
  if (nranks() < 2) GTEST_SKIP() << "I/O servers need 2 ranks or more";
  if (::geteuid() != 0) GTEST_SKIP() << "needs root, to plant names as another user";
  const std::vector<Attack> all = attacks();
  for (const IoCase& io : io_cases()) {
    for (const Attack& attack : all) {
      if (attack.name != std::string("temp_symlink") && attack.name != std::string("final_symlink")) continue;
      SCOPED_TRACE(std::string(io.name) + " servers " + attack.name);
      const Place p = make_place(std::string("servers_") + io.name + "_" + attack.name);
      Snapshot before;
      if (my_rank() == 0) {
        attack.plant(p);
        before = snapshot_outside(p);
      }
      MPI_Barrier(world());
      {
        IoServers servers(world(), 1, 1);
        if (!servers.is_server()) {
          const MPI_Comm comm = servers.compute_comm();
          ModelShape shape;
          Model model(comm, shape);
          std::string text;
          bool threw = false;
          try {
            StreamBuilder b(comm, options_of(io, p.out), servers);
            b.set_domain(model.decomposition());
            for (const DimSpec& d : model.schema().dimensions()) b.add_dimension(d.name, d.length);
            for (const VarSpec& v : model.schema().variables()) b.add_variable(v);
            for (const Attribute& a : model.schema().global_attributes()) b.set_global_attribute(a);
            Writer w = b.build();
            try {
              for (int t : {0, 1}) write_frame(w, model, t);
              w.close();
            } catch (const Error&) {
              try {
                w.close();
              } catch (const Error&) {
              }
              throw;
            }
          } catch (const Error& e) {
            threw = true;
            text = e.what();
          }
          servers.stop();
          int mine = threw ? 1 : 0, every = 0;
          MPI_Allreduce(&mine, &every, 1, MPI_INT, MPI_MIN, comm);
          if (attack.outcome == Outcome::Refused) {
            EXPECT_EQ(every, 1) << "a compute rank got no error although " << attack.name;
            EXPECT_TRUE(contains(text, attack.says)) << text;
            if (rank_of(comm) == 0) std::cout << "  servers " << io.name << " " << attack.name << ": " << text << std::endl;
          } else {
            EXPECT_FALSE(threw) << text;
            if (rank_of(comm) == 0 && !threw) {
              EXPECT_TRUE(fs::is_regular_file(fs::symlink_status(p.final0())));
              for (int t : {0, 1}) check_file({file_at(p.out, t), {t}, {date_at(t)}}, model.schema(), shape, io.format);
            }
          }
        }
      }
      MPI_Barrier(world());
      if (my_rank() == 0) {
        EXPECT_TRUE(snapshot_outside(p) == before) << "something outside " << p.out << " changed";
      }
      MPI_Barrier(world());
    }
  }
}

// The same through I/O servers (one server, the other ranks compute; io_form 11 and 2): the
// server rank creates the files under the umask every rank of the job shares.
TEST(SharedDirectoryServers, ModesFollowTheUmask) {
  if (nranks() < 2) GTEST_SKIP() << "I/O servers need 2 ranks or more";
  for (const IoCase& io : io_cases()) {
    for (const mode_t mask : {mode_t{077}, mode_t{022}}) {
      const std::string dir = fresh_dir(std::string("umask_servers_") + io.name + "_" + std::to_string(mask));
      const mode_t old = ::umask(mask);
      {
        IoServers servers(world(), 1, 1);
        if (!servers.is_server()) {
          const MPI_Comm comm = servers.compute_comm();
          ModelShape shape;
          Model model(comm, shape);
          StreamBuilder b(comm, options_of(io, dir), servers);
          b.set_domain(model.decomposition());
          for (const DimSpec& d : model.schema().dimensions()) b.add_dimension(d.name, d.length);
          for (const VarSpec& v : model.schema().variables()) b.add_variable(v);
          for (const Attribute& a : model.schema().global_attributes()) b.set_global_attribute(a);
          Writer w = b.build();
          for (int t : {0, 1}) {
            model.fill(t);
            w.begin_frame(date_at(t));
            put_all(w, model);
            w.end_frame();
          }
          w.close();
          servers.stop();
          if (rank_of(comm) == 0) {
            for (int t : {0, 1}) check_file({file_at(dir, t), {t}, {date_at(t)}}, model.schema(), shape, io.format);
          }
        }
      }
      ::umask(old);
      MPI_Barrier(world());
      if (my_rank() != 0) continue;
      const mode_t want = 0666 & ~mask;
      for (const std::string& f : {file_at(dir, 0), file_at(dir, 1), dir + "/stats.json"}) {
        struct stat st {};
        ASSERT_EQ(::stat(f.c_str(), &st), 0) << f;
        EXPECT_EQ(st.st_mode & 07777, want) << io.name << " " << f << " under umask 0" << std::oct << mask;
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(IoForms, SharedDirectory, ::testing::ValuesIn(io_cases()),
                         [](const ::testing::TestParamInfo<IoCase>& param) { return std::string(param.param.name); });

}  // namespace
}  // namespace nwpio::test::rel
