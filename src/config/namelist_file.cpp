#include "config/namelist_file.hpp"

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <limits>
#include <sstream>

#include "config/namelist_typos.hpp"
#include "nwpio/error.hpp"
#include "util/agree.hpp"
#include "util/mpi_call.hpp"

namespace nwpio::detail {

std::string read_text_file(const std::string& path, std::string_view what) {
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    const int err = errno;
    throw Error(ErrorKind::Io, "cannot read " + std::string(what) + " '" + path + "': " +
                                   (err != 0 ? std::strerror(err) : "cannot open the file"));
  }
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) {
    throw Error(ErrorKind::Io, "cannot read " + std::string(what) + " '" + path + "': " + std::strerror(errno));
  }
  return text.str();
}

std::string read_text_on_root(const std::string& path, std::string_view what, MPI_Comm comm) {
  int rank = 0;
  mpi_check(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  std::string text;
  run_and_agree(comm, [&] {
    if (rank != 0) return;
    text = read_text_file(path, what);
    if (text.size() > static_cast<std::size_t>(std::numeric_limits<int>::max())) {
      throw Error(ErrorKind::Config, "the " + std::string(what) + " '" + path + "' is larger than 2 GiB");
    }
  });
  int size = static_cast<int>(text.size());
  mpi_check(MPI_Bcast(&size, 1, MPI_INT, 0, comm), "MPI_Bcast(namelist size)");
  text.resize(static_cast<std::size_t>(size));
  if (size > 0) mpi_check(MPI_Bcast(text.data(), size, MPI_CHAR, 0, comm), "MPI_Bcast(namelist text)");
  return text;
}

Namelist load_namelist(const std::string& path, MPI_Comm comm) {
  const std::string text = read_text_on_root(path, "namelist file", comm);
  Namelist nl;
  run_and_agree(comm, [&] { nl = Namelist::parse(text, path); });
  int rank = 0;
  mpi_check(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  if (rank == 0) {
    for (const std::string& w : misspelled_key_warnings(nl)) std::cerr << "nwpio: " << w << '\n';
    std::cerr.flush();
  }
  return nl;
}

}  // namespace nwpio::detail
