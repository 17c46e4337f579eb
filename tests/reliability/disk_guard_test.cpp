// src/core/disk_guard: the checks that make a full disk or a file-size limit an error with the
// system's reason before a frame is written, and a short file an error before it is committed.
// (The Writer-level behaviour is tested in disk_failure_test.cpp.)
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <string>

#include "core/disk_guard.hpp"
#include "nwpio/error.hpp"

namespace {

namespace fs = std::filesystem;
using nwpio::Error;

std::string temp_file(const std::string& name, std::size_t bytes) {
  const fs::path p = fs::temp_directory_path() / ("nwpio_disk_guard_" + name);
  std::ofstream(p, std::ios::binary) << std::string(bytes, 'x');
  return p.string();
}

TEST(DiskGuard, EndAfterFollowsNetcdfClassicRecords) {
  nwpio::detail::FileExtent e;
  e.known = true;
  e.fixed_end = 1000;
  e.last_record_var = 1200;
  e.record_size = 400;
  e.last_record_var_bytes = 19;
  EXPECT_EQ(e.end_after(0), 1000);
  EXPECT_EQ(e.end_after(1), 1219);
  EXPECT_EQ(e.end_after(3), 1200 + 2 * 400 + 19);
  e.known = false;
  EXPECT_EQ(e.end_after(3), 0);
}

TEST(DiskGuard, ShortFileIsAnErrorNamingItAndBothSizes) {
  const std::string p = temp_file("short", 100);
  EXPECT_NO_THROW(nwpio::detail::check_complete_size(p, 100));
  try {
    nwpio::detail::check_complete_size(p, 101);
    FAIL() << "no error";
  } catch (const Error& e) {
    const std::string text = e.what();
    EXPECT_EQ(e.kind(), nwpio::ErrorKind::Io);
    EXPECT_NE(text.find(p + " is 100 bytes, its header promises 101"), std::string::npos) << text;
  }
  fs::remove(p);
}

TEST(DiskGuard, FileSizeLimitIsEfbigWithTheLimit) {
  rlimit old{};
  ASSERT_EQ(getrlimit(RLIMIT_FSIZE, &old), 0);
  rlimit limited = old;
  limited.rlim_cur = 4096;
  auto* handler = std::signal(SIGXFSZ, SIG_IGN);
  ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &limited), 0);
  std::string text;
  try {
    nwpio::detail::check_file_size_limit("/some/file", 4096);  // exactly at the limit: fine
    nwpio::detail::check_file_size_limit("/some/file", 4097);
  } catch (const Error& e) {
    text = e.what();
  }
  ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &old), 0);
  std::signal(SIGXFSZ, handler);
  EXPECT_NE(text.find("/some/file: File too large: the file would reach 4097 bytes, over this process's file-size "
                      "limit of 4096 bytes"),
            std::string::npos)
      << text;
}

TEST(DiskGuard, ReservingSpaceKeepsTheSize) {
  const std::string p = temp_file("reserve", 10);
  EXPECT_NO_THROW(nwpio::detail::reserve_space(p, 0, 1 << 20));
  EXPECT_EQ(fs::file_size(p), 10u) << "the reservation must not change the file's size";
  EXPECT_THROW(nwpio::detail::reserve_space(p + ".missing", 0, 10), Error);
  fs::remove(p);
}

}  // namespace
