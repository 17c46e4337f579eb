// L1: the Backend contract. A backend turns a resolved FileLayout and per-round write requests
// into a file. Arguments were checked at L3 (Writer); backends trust them. Every collective
// method must be called by every rank of the communicator, the same number of times, even
// by a rank with nothing to write (zero requests), so that nobody hangs.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <set>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "nwpio/options.hpp"
#include "nwpio/schema.hpp"
#include "nwpio/types.hpp"

namespace nwpio::detail {

// A file's structure, fully resolved (names, lengths, ids by position).
struct FileLayout {
  struct Dim {
    std::string name;
    std::int64_t length = 0;  // 0 = unlimited (Time)
  };
  struct Var {
    std::string name;
    DataType type = DataType::Float;
    std::vector<int> dims;  // indices into dims, outermost first
    std::vector<Attribute> attributes;
    bool record = false;    // has the unlimited dimension first
  };
  std::vector<Dim> dims;
  std::vector<Var> vars;
  std::vector<Attribute> global_attributes;
  FileFormat format = FileFormat::Cdf2;
  std::int64_t header_reserve_bytes = 0;  // free space left in the header
};

// Bytes of one record of `var` (record variables), or of the whole variable (fixed ones).
std::int64_t record_bytes(const FileLayout& layout, const FileLayout::Var& var);

// One hyperslab of one variable, in file index space (record index included for record
// variables). `data` is contiguous in file order (C order over `count`), native byte order,
// element type of the variable. Valid until the write() call returns.
// Exception (parallel backends only, never handed to a backend whose parallel() is false):
// when mem_type is not MPI_DATATYPE_NULL, `data` is the origin of ONE instance of that MPI
// derived datatype, which walks the model's memory array in file order (PnetCDF's flexible
// API: ncmpi_iput_vara(..., data, 1, mem_type, ...)). The Writer owns and frees mem_type.
struct WriteRequest {
  int var = 0;
  std::vector<std::int64_t> start;
  std::vector<std::int64_t> count;
  const void* data = nullptr;
  MPI_Datatype mem_type = MPI_DATATYPE_NULL;
};

// Where every variable of an open file begins (by varid; record variables: in record 0) and
// the bytes of one record (netCDF classic layout).
struct FileOffsets {
  std::vector<std::int64_t> var_begin;
  std::int64_t record_size = 0;
};

// A contiguous piece of the file, already in the file's byte order (big-endian), to be
// written as it is at `offset`. Empty (size 0) for a rank with nothing to write.
struct FileBytes {
  std::int64_t offset = 0;
  const std::byte* data = nullptr;
  std::int64_t size = 0;
};

// What an open file really looks like, for the hint report (verification of alignment).
struct LayoutFacts {
  bool known = false;
  std::int64_t header_size = 0;    // bytes used by the header
  std::int64_t header_extent = 0;  // bytes reserved for the header (offset of the first variable)
  std::map<std::string, std::int64_t> var_offsets;  // begin of each variable
  std::set<std::string> record_vars;                // which of them are record variables
};

class Backend {
 public:
  virtual ~Backend() = default;

  // True when every rank writes its own requests (PnetCDF); false when only rank 0 of the
  // communicator writes (serial netCDF): the caller then gathers all data to rank 0.
  virtual bool parallel() const noexcept = 0;

  // Collective. Creates `path` (clobbering), defines dims, vars, attributes, NOFILL, and
  // leaves define mode. `info` carries the MPI-IO / PnetCDF hints (may be MPI_INFO_NULL).
  // Throws Error naming the call, the file and the library's message.
  virtual void create(const std::string& path, const FileLayout& layout, MPI_Info info) = 0;

  // Collective. Writes this rank's requests as one collective step (one wait for PnetCDF) and,
  // after open_file_bytes(), this rank's file bytes with one collective MPI-IO write.
  // A rank with nothing to write passes empty arguments and still joins.
  virtual void write(std::span<const WriteRequest> requests, const FileBytes& bytes = {}) = 0;

  // True when the backend can write file bytes (PnetCDF; the null backend).
  virtual bool takes_file_bytes() const noexcept { return false; }
  // Collective, after create(): from now on write() also writes file bytes into the open file.
  // Returns where every variable begins.
  virtual FileOffsets open_file_bytes();

  // Collective. Flushes and closes. Safe to call when create() failed half-way.
  virtual void close() = 0;

  // Rank 0: the real layout of the open file (PnetCDF: ncmpi_inq_header_extent/varoffset).
  virtual LayoutFacts layout_facts() const { return {}; }

  // Local, never collective, never throws: forget the open file without closing it, because
  // other ranks may not join a collective any more (a Writer destroyed during stack unwinding
  // after an error). The partly written file stays under its temporary name. The destructor
  // of a backend must not be collective either (it runs after abandon()).
  virtual void abandon() noexcept {}
};

// Factory by options.io_form. Throws Error(Unsupported) "nwpio was built without PnetCDF ..." when the
// backend is not compiled in.
std::unique_ptr<Backend> make_backend(const OutputOptions& options, MPI_Comm comm);

}  // namespace nwpio::detail
