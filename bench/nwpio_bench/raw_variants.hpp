// The raw references: the frame's bytes written with plain
// MPI-IO, no netCDF, in several ways; the `ceiling` of a case is the fastest of them and the
// `netcdf-floor` the fastest of the same ways with one byte-swap pass first.
//
// Why several: one 1 GB MPI_File_write_at_all per rank with collective buffering is slower than
// nwpio at large frames, so alone it bounds nothing. What makes a raw write slow or fast is measured, not
// assumed: collective buffering (OMPIO/ROMIO two-phase copies every byte through aggregator
// buffers), a collective against an independent call, one huge request against requests of a
// round's size, and where the buffer lives (heap, or MPI shared memory as nwpio's slabs).
// Every variant writes every byte of the frame from a buffer filled (every page touched) before
// the timing, with the MPI_Info nwpio resolves; docs/PERFORMANCE.md has what was measured.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "method.hpp"

namespace nwpio::bench {

struct RawVariant {
  std::string name;            // "raw-..." (the floor twin: "floor-...")
  bool collective = true;      // MPI_File_write_at_all; false: MPI_File_write_at
  bool collective_buffering = false;  // true: the MPI-IO default (two-phase); false: nwpio's hints for slabs
  std::int64_t chunk_bytes = 0;       // > 0: requests of this many bytes; 0: one per rank and round
  bool shared_buffer = false;  // buffer in MPI shared memory (MPI_Win_allocate_shared), as nwpio's slabs
  // Each rank reserves its block's disk blocks first (fallocate KEEP_SIZE, inside the timing),
  // as nwpio's disk guard does before every frame: the file system allocates in parallel.
  bool reserve = false;
  // Plain POSIX instead of MPI-IO: every rank opens the file and pwrite()s its block (fsync of its
  // own descriptor with --fsync), as nwpio's writers write their slabs when writes are independent.
  bool posix = false;
  std::string describe() const;
};

// The variants every `ceiling` / `netcdf-floor` runs.
const std::vector<RawVariant>& raw_variants();
// "raw-<v>" (swap false) or "floor-<v>" (swap true) for each variant.
std::vector<std::string> raw_method_names(bool swap);
// The method of a variant name ("raw-all", "floor-at", ...); nullptr for other names.
std::unique_ptr<Method> make_raw_variant_method(const std::string& name);

}  // namespace nwpio::bench
