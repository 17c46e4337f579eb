#include "mpiio/mpi_info.hpp"

#include "util/mpi_call.hpp"

namespace nwpio::detail {

namespace {

// "key\0value\0key\0value\0": one broadcast for every key.
std::string pack(const InfoKeys& keys) {
  std::string out;
  for (const auto& [key, value] : keys) {
    out += key;
    out.push_back('\0');
    out += value;
    out.push_back('\0');
  }
  return out;
}

}  // namespace

MPI_Info broadcast_info(const InfoKeys& keys, MPI_Comm comm) {
  int rank = 0;
  mpi_check(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  std::string packed = rank == 0 ? pack(keys) : std::string();
  int len = static_cast<int>(packed.size());
  mpi_check(MPI_Bcast(&len, 1, MPI_INT, 0, comm), "MPI_Bcast(hints)");
  packed.resize(static_cast<std::size_t>(len));
  if (len == 0) return MPI_INFO_NULL;
  mpi_check(MPI_Bcast(packed.data(), len, MPI_CHAR, 0, comm), "MPI_Bcast(hints)");
  MPI_Info info = MPI_INFO_NULL;
  mpi_check(MPI_Info_create(&info), "MPI_Info_create");
  std::size_t pos = 0;
  while (pos < packed.size()) {
    const std::size_t k_end = packed.find('\0', pos);
    const std::size_t v_end = packed.find('\0', k_end + 1);
    const std::string key = packed.substr(pos, k_end - pos);
    const std::string value = packed.substr(k_end + 1, v_end - k_end - 1);
    mpi_check(MPI_Info_set(info, key.c_str(), value.c_str()), "MPI_Info_set(" + key + ")");
    pos = v_end + 1;
  }
  return info;
}

InfoKeys info_keys(MPI_Info info) {
  InfoKeys keys;
  if (info == MPI_INFO_NULL) return keys;
  int count = 0;
  mpi_check(MPI_Info_get_nkeys(info, &count), "MPI_Info_get_nkeys");
  for (int i = 0; i < count; ++i) {
    char key[MPI_MAX_INFO_KEY + 1] = {};
    mpi_check(MPI_Info_get_nthkey(info, i, key), "MPI_Info_get_nthkey");
    int length = 0, found = 0;
    mpi_check(MPI_Info_get_valuelen(info, key, &length, &found), std::string("MPI_Info_get_valuelen(") + key + ")");
    if (!found) continue;
    std::string value(static_cast<std::size_t>(length) + 1, '\0');
    mpi_check(MPI_Info_get(info, key, length + 1, value.data(), &found), std::string("MPI_Info_get(") + key + ")");
    value.resize(static_cast<std::size_t>(length));
    keys.emplace_back(key, std::move(value));
  }
  return keys;
}

}  // namespace nwpio::detail
