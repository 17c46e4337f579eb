#include "mpiio/ompio_guard.hpp"

#include <dlfcn.h>
#include <link.h>
#include <mpi.h>

#include <cstdio>
#include <cstring>
#include <optional>

namespace nwpio::detail {

namespace {

constexpr const char* kVariable = "fbtl_posix_write_datasieving";
constexpr const char* kStorageSymbol = "mca_fbtl_posix_write_datasieving";
constexpr const char* kComponent = "mca_fbtl_posix.so";

// The control variable's value (a bool in Open MPI 4.1), or nothing when it does not exist.
std::optional<bool> read_variable(int index) {
  MPI_T_cvar_handle handle;
  int count = 0;
  if (MPI_T_cvar_handle_alloc(index, nullptr, &handle, &count) != MPI_SUCCESS) return std::nullopt;
  unsigned char value[8] = {};  // big enough for any integer type the variable may have
  const int rc = MPI_T_cvar_read(handle, value);
  MPI_T_cvar_handle_free(&handle);
  if (rc != MPI_SUCCESS) return std::nullopt;
  return value[0] != 0;
}

bool write_variable(int index) {
  MPI_T_cvar_handle handle;
  int count = 0;
  if (MPI_T_cvar_handle_alloc(index, nullptr, &handle, &count) != MPI_SUCCESS) return false;
  const int zero[2] = {0, 0};
  const int rc = MPI_T_cvar_write(handle, zero);
  MPI_T_cvar_handle_free(&handle);
  return rc == MPI_SUCCESS;
}

// The loaded fbtl/posix component's storage of the variable (MPI_T_init_thread has loaded the
// component to register its variables; it is never loaded here).
unsigned char* component_storage() {
  std::string path;
  dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t, void* out) {
        const std::size_t n = std::strlen(info->dlpi_name), m = std::strlen(kComponent);
        if (n < m || std::strcmp(info->dlpi_name + n - m, kComponent) != 0) return 0;
        *static_cast<std::string*>(out) = info->dlpi_name;
        return 1;
      },
      &path);
  if (path.empty()) return nullptr;
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_NOLOAD);
  if (handle == nullptr) return nullptr;
  auto* storage = static_cast<unsigned char*>(dlsym(handle, kStorageSymbol));
  dlclose(handle);  // only drops the reference NOLOAD added; the component stays loaded
  return storage;
}

OmpioGuard run_guard() {
  OmpioGuard g;
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (!initialized || finalized) return g;
  char version[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int len = 0;
  MPI_Get_library_version(version, &len);
  const std::string library(version, static_cast<std::size_t>(len));
  if (library.rfind("Open MPI", 0) != 0) return g;
  g.affected = open_mpi_sieving_unsafe(library);
  if (!g.affected) {
    g.note = "OMPIO write data sieving: left as is (this Open MPI has the fix of open-mpi/ompi#12718)";
    return g;
  }
  int provided = 0;
  if (MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) != MPI_SUCCESS) {
    g.note = "OMPIO write data sieving: MPI_T unavailable; set OMPI_MCA_fbtl_posix_write_datasieving=0 (open-mpi/ompi#12718)";
    return g;
  }
  int index = -1;
  std::optional<bool> on;
  if (MPI_T_cvar_get_index(kVariable, &index) == MPI_SUCCESS) on = read_variable(index);
  if (!on) {
    g.note = "OMPIO write data sieving: no fbtl_posix component (ROMIO or another fbtl in use): nothing to switch off";
    g.sieving_off = true;
  } else if (!*on) {
    g.note = "OMPIO write data sieving: already off (fbtl_posix_write_datasieving=0)";
    g.sieving_off = true;
  } else {
    const bool through_mpi_t = write_variable(index);
    if (!through_mpi_t) {
      if (unsigned char* storage = component_storage()) *storage = 0;
    }
    const std::optional<bool> now = read_variable(index);
    g.sieving_off = now.has_value() && !*now;
    g.note = g.sieving_off
                 ? std::string("OMPIO write data sieving: switched off by nwpio (fbtl_posix_write_datasieving=0 ") +
                       (through_mpi_t ? "through MPI_T" : "in the component; MPI_T has it read-only") +
                       "): Open MPI < 5.0.6 corrupts collective writes with holes, open-mpi/ompi#12718"
                 : "OMPIO write data sieving: could NOT be switched off; set OMPI_MCA_fbtl_posix_write_datasieving=0 "
                   "or OMPI_MCA_io=romio321 (open-mpi/ompi#12718)";
  }
  // No MPI_T_finalize: in Open MPI 4.1 it closes the frameworks MPI_T_init_thread opened, and
  // the first MPI_File_open then loads the component afresh with sieving on again (measured).
  // The tool-interface session stays open until MPI_Finalize.
  return g;
}

}  // namespace

bool open_mpi_sieving_unsafe(const std::string& library_version) noexcept {
  int major = 0, minor = 0, release = 0;
  if (std::sscanf(library_version.c_str(), "Open MPI v%d.%d.%d", &major, &minor, &release) < 2) return false;
  if (major != 5) return major < 5;
  return minor == 0 && release < 6;
}

const OmpioGuard& guard_ompio_write_data_sieving() noexcept {
  static const OmpioGuard guard = [] {
    try {
      return run_guard();
    } catch (...) {
      return OmpioGuard{};
    }
  }();
  return guard;
}

}  // namespace nwpio::detail
