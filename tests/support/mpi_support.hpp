// What the MPI tests share: the world, this rank and the rank count, checking that a collective
// failure reached every rank with the same Error, and a fresh scratch directory per test.
#pragma once

#include <gtest/gtest.h>
#include <mpi.h>

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "nwpio/error.hpp"
#include "scratch.hpp"

namespace nwpio::test {

inline MPI_Comm world() { return MPI_COMM_WORLD; }
inline int rank_of(MPI_Comm comm) {
  int r = 0;
  MPI_Comm_rank(comm, &r);
  return r;
}
inline int size_of_comm(MPI_Comm comm) {
  int s = 1;
  MPI_Comm_size(comm, &s);
  return s;
}
inline int my_rank() { return rank_of(MPI_COMM_WORLD); }
inline int nranks() { return size_of_comm(MPI_COMM_WORLD); }

// The same text on every rank of comm? (Every rank compares with rank 0's.)
inline bool same_text_everywhere(MPI_Comm comm, const std::string& text) {
  int len = static_cast<int>(text.size());
  MPI_Bcast(&len, 1, MPI_INT, 0, comm);
  std::string root(static_cast<std::size_t>(len), '\0');
  if (rank_of(comm) == 0) root = text;
  if (len > 0) MPI_Bcast(root.data(), len, MPI_CHAR, 0, comm);
  int same = root == text ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &same, 1, MPI_INT, MPI_LAND, comm);
  return same == 1;
}

// Runs `step`, which must throw nwpio::Error on every rank; checks that every rank got the same
// kind and text, and returns it (empty when this rank threw nothing).
inline std::optional<Error> expect_same_error(const std::function<void()>& step, MPI_Comm comm = MPI_COMM_WORLD) {
  std::optional<Error> caught;
  try {
    step();
  } catch (const Error& e) {
    caught = e;
  }
  EXPECT_TRUE(caught.has_value()) << "expected an nwpio::Error";
  const std::string text = caught ? std::string(to_string(caught->kind())) + ": " + caught->what() : "no error";
  EXPECT_TRUE(same_text_everywhere(comm, text)) << text;
  return caught;
}

// scratch_dir(name), emptied by rank 0; every rank returns after it exists.
inline std::string fresh_dir(const std::string& name, MPI_Comm comm = MPI_COMM_WORLD) {
  const std::string dir = scratch_dir(name);
  if (rank_of(comm) == 0) {
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
  }
  MPI_Barrier(comm);
  return dir;
}

// The names in a directory (rank-local).
inline std::vector<std::string> files_in(const std::string& dir) {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(dir)) out.push_back(e.path().filename().string());
  return out;
}

}  // namespace nwpio::test
