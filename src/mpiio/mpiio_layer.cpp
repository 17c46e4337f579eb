// Which MPI-IO implementation opens the files (mpiio_layer.hpp).
#include "mpiio/mpiio_layer.hpp"

#include <mpi.h>

#include <cstring>
#include <optional>
#include <regex>
#include <sstream>
#include <vector>

namespace nwpio::detail {

namespace {

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) {
    if (!item.empty()) out.push_back(item);
  }
  return out;
}

bool parse_version(const std::string& text, const std::regex& re, MpiIo& io) {
  std::smatch m;
  if (!std::regex_search(text, m, re)) return false;
  io.major = std::stoi(m[1]);
  io.minor = m[2].matched ? std::stoi(m[2]) : 0;
  io.patch = m.size() > 3 && m[3].matched ? std::stoi(m[3]) : 0;
  return true;
}

bool at_least(const MpiIo& io, int a, int b, int c) {
  if (io.major != a) return io.major > a;
  if (io.minor != b) return io.minor > b;
  return io.patch >= c;
}

}  // namespace

MpiIo classify(const std::string& library_version, const std::string& io_selection,
               const std::map<std::string, int>& priorities) {
  MpiIo io;
  io.library = library_version.substr(0, library_version.find('\n'));
  if (parse_version(library_version, std::regex(R"(Open MPI v(\d+)\.(\d+)\.?(\d+)?)"), io)) {
    io.vendor = "Open MPI";
    std::vector<std::string> allowed;
    std::string rule;
    if (io_selection.empty()) {
      for (const auto& [c, p] : priorities) allowed.push_back(c);
      rule = "io selection unset";
    } else if (io_selection[0] == '^') {
      const auto excluded = split_list(io_selection.substr(1));
      for (const auto& [c, p] : priorities) {
        bool out = false;
        for (const auto& e : excluded) out = out || e == c;
        if (!out) allowed.push_back(c);
      }
      rule = "io = \"" + io_selection + "\"";
    } else {
      allowed = split_list(io_selection);
      rule = "io = \"" + io_selection + "\"";
    }
    std::string best;
    int best_p = -1;
    for (const auto& c : allowed) {
      auto it = priorities.find(c);
      const int p = it == priorities.end() ? 0 : it->second;
      if (best.empty() || p > best_p) {
        best = c;
        best_p = p;
      }
    }
    if (best.empty()) best = "ompio";
    io.component = best;
    io.layer = best.rfind("romio", 0) == 0 ? IoLayer::Romio : IoLayer::Ompio;
    io.how = "MPI_T: " + rule + ", highest priority among allowed components: " + best;
    if (io.layer == IoLayer::Ompio && !at_least(io, 4, 1, 0)) {
      io.how += " (Open MPI before 4.1 lowers OMPIO's priority on Lustre, where ROMIO is used instead)";
    }
    // Lockahead came to ROMIO with MPICH 3.3; Open MPI's romio321 predates it, romio341 has it.
    io.lockahead = io.layer == IoLayer::Romio && best != "romio321" && best != "romio314";
    io.ompio_standard_striping = at_least(io, 4, 1, 6);
    return io;
  }
  // Everything else we know is MPICH-derived and uses ROMIO.
  io.layer = IoLayer::Romio;
  io.component = "ROMIO";
  if (parse_version(library_version, std::regex(R"(CRAY MPICH version (\d+)\.(\d+)\.?(\d+)?)"), io)) {
    io.vendor = "Cray MPICH";
    io.lockahead = true;  // Cray's ROMIO has had Lustre lockahead since MPT 7.6
  } else if (parse_version(library_version, std::regex(R"(MVAPICH2? Version:\s*(\d+)\.(\d+)\.?(\d+)?)"), io)) {
    io.vendor = "MVAPICH";
  } else if (parse_version(library_version, std::regex(R"(Intel\(R\) MPI Library (\d+)\.?(\d+)?\.?(\d+)?)"), io)) {
    io.vendor = "Intel MPI";
  } else if (parse_version(library_version, std::regex(R"(MPICH Version:\s*(\d+)\.(\d+)\.?(\d+)?)"), io)) {
    io.vendor = "MPICH";
    io.lockahead = at_least(io, 3, 3, 0);
  } else {
    io.vendor = "unknown";
  }
  // Said here because OMPI_MCA_io may still be set (and listed among the variables in the
  // report) by a user coming from Open MPI: it has no effect on these libraries.
  io.how = io.vendor == "unknown" ? "library not recognised: assuming ROMIO (MPICH-derived)"
                                   : io.vendor + " always uses ROMIO (Open MPI's OMPI_MCA_* variables do not apply)";
  return io;
}

namespace {

std::optional<MPI_T_cvar_handle> cvar_handle(const char* name, int& count) {
  int index = 0;
  if (MPI_T_cvar_get_index(name, &index) != MPI_SUCCESS) return std::nullopt;
  MPI_T_cvar_handle h;
  if (MPI_T_cvar_handle_alloc(index, nullptr, &h, &count) != MPI_SUCCESS) return std::nullopt;
  return h;
}

std::optional<std::string> cvar_string(const char* name) {
  int count = 0;
  auto h = cvar_handle(name, count);
  if (!h) return std::nullopt;
  std::string buf(static_cast<std::size_t>(count > 0 ? count : 1) + 1, '\0');
  std::optional<std::string> out;
  if (MPI_T_cvar_read(*h, buf.data()) == MPI_SUCCESS) out = std::string(buf.c_str());
  MPI_T_cvar_handle_free(&*h);
  return out;
}

std::optional<int> cvar_int(const char* name) {
  int count = 0;
  auto h = cvar_handle(name, count);
  if (!h) return std::nullopt;
  int v = 0;
  std::optional<int> out;
  if (count == 1 && MPI_T_cvar_read(*h, &v) == MPI_SUCCESS) out = v;
  MPI_T_cvar_handle_free(&*h);
  return out;
}

MpiIo detect_uncached() {
  char text[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int len = 0;
  MPI_Get_library_version(text, &len);
  // Open MPI counts the terminating NUL in `len`; keep the text up to it.
  const std::string library(text, strnlen(text, static_cast<std::size_t>(len)));
  std::string selection;
  std::map<std::string, int> priorities;
  bool mpit = false;
  if (library.find("Open MPI") != std::string::npos) {
    int provided = 0;
    if (MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) == MPI_SUCCESS) {
      mpit = true;
      if (auto s = cvar_string("io")) selection = *s;
      for (const char* c : {"ompio", "romio321", "romio341", "romio314"}) {
        const std::string var = std::string("io_") + c + "_priority";
        if (auto p = cvar_int(var.c_str())) priorities[c] = *p;
      }
      MPI_T_finalize();
    }
  }
  MpiIo io = classify(library, selection, priorities);
  if (io.vendor == "Open MPI" && (!mpit || priorities.empty())) {
    io.how += " (MPI_T unavailable: guessed)";
  }
  return io;
}

}  // namespace

MpiIo detect_mpiio() {
  static const MpiIo io = detect_uncached();
  return io;
}

}  // namespace nwpio::detail
