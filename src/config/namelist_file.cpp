#include "config/namelist_file.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <limits>
#include <mutex>
#include <set>
#include <sstream>

#include "config/namelist_typos.hpp"
#include "config/nwpio_keys.hpp"
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

namespace {

// Rank 0's `text` on every rank (at most 2 GiB: the callers check).
void broadcast_from_root(std::string& text, MPI_Comm comm) {
  int size = static_cast<int>(text.size());
  mpi_check(MPI_Bcast(&size, 1, MPI_INT, 0, comm), "MPI_Bcast(text size)");
  text.resize(static_cast<std::size_t>(size));
  if (size > 0) mpi_check(MPI_Bcast(text.data(), size, MPI_CHAR, 0, comm), "MPI_Bcast(text)");
}

// The variables the path keys refer to, from rank 0's environment, on every rank. Every rank
// asks for the same names (they parsed the same text).
Environment environment_of_root(const std::vector<std::string>& names, int rank, MPI_Comm comm) {
  std::string packed;  // per name: '1' value '\0' when set and not empty, else '0'
  if (rank == 0) {
    for (const std::string& name : names) {
      const char* value = std::getenv(name.c_str());
      // Appended piece by piece: GCC 12 warns falsely (-Wrestrict) about "1" + std::string(...).
      if (value != nullptr && *value != '\0') {
        packed.append(1, '1').append(value).append(1, '\0');
      } else {
        packed.append(1, '0');
      }
    }
  }
  broadcast_from_root(packed, comm);
  Environment env;
  std::size_t k = 0;
  for (const std::string& name : names) {
    if (packed.at(k++) == '0') continue;
    const std::size_t end = packed.find('\0', k);
    env[name] = packed.substr(k, end - k);
    k = end + 1;
  }
  return env;
}

// The warnings already printed by this process: a program may load one namelist several times
// (nwpio-check: for the I/O servers, the model and each domain), and says each warning once.
class PrintedWarnings {
 public:
  bool first_time(const std::string& warning) {
    const std::lock_guard<std::mutex> lock(mutex_);
    return seen_.insert(warning).second;
  }

 private:
  std::mutex mutex_;
  std::set<std::string> seen_;
};

PrintedWarnings& printed_warnings() {
  static PrintedWarnings printed;
  return printed;
}

}  // namespace

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
  broadcast_from_root(text, comm);
  return text;
}

Namelist load_namelist(const std::string& path, MPI_Comm comm) {
  const std::string text = read_text_on_root(path, "namelist file", comm);
  Namelist nl;
  run_and_agree(comm, [&] { nl = Namelist::parse(text, path); });
  int rank = 0;
  mpi_check(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  nl.set_environment(environment_of_root(path_variables(nl), rank, comm));
  if (rank == 0) {
    for (const std::string& w : misspelled_key_warnings(nl)) {
      if (printed_warnings().first_time(w)) std::cerr << "nwpio: " << w << '\n';
    }
    std::cerr.flush();
  }
  return nl;
}

}  // namespace nwpio::detail
