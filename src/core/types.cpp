#include "nwpio/types.hpp"

#include "nwpio/error.hpp"

namespace nwpio {

std::size_t size_of(DataType type) noexcept {
  switch (type) {
    case DataType::Float: return 4;
    case DataType::Double: return 8;
    case DataType::Int: return 4;
    case DataType::Char: return 1;
  }
  return 0;
}

std::string_view to_string(DataType type) noexcept {
  switch (type) {
    case DataType::Float: return "float";
    case DataType::Double: return "double";
    case DataType::Int: return "int";
    case DataType::Char: return "char";
  }
  return "?";
}

std::string_view to_string(Stagger stagger) noexcept {
  switch (stagger) {
    case Stagger::None: return "";
    case Stagger::X: return "X";
    case Stagger::Y: return "Y";
    case Stagger::Z: return "Z";
    case Stagger::XY: return "XY";
  }
  return "?";
}

std::string_view to_string(MemoryOrder order) noexcept {
  switch (order) {
    case MemoryOrder::XZY: return "XZY";
    case MemoryOrder::XYZ: return "XYZ";
    case MemoryOrder::XY: return "XY";
    case MemoryOrder::Z: return "Z";
    case MemoryOrder::Scalar: return "0";
  }
  return "?";
}

std::string_view to_string(ErrorKind kind) noexcept {
  switch (kind) {
    case ErrorKind::InvalidArgument: return "invalid argument";
    case ErrorKind::Decomposition: return "decomposition";
    case ErrorKind::Schema: return "schema";
    case ErrorKind::State: return "state";
    case ErrorKind::Config: return "config";
    case ErrorKind::Io: return "I/O";
    case ErrorKind::Mpi: return "MPI";
    case ErrorKind::Pnetcdf: return "PnetCDF";
    case ErrorKind::Netcdf: return "netCDF";
    case ErrorKind::Unsupported: return "unsupported";
    case ErrorKind::Internal: return "internal";
  }
  return "?";
}

}  // namespace nwpio
