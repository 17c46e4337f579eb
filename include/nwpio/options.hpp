// OutputOptions: everything that steers one history stream. Built from namelist.input for a
// domain (OutputOptions::from_namelist), then adjustable in code.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <memory>
#include <string>

#include "nwpio/hint_options.hpp"

namespace nwpio {

namespace detail {
struct TestHooks;  // nwpio's own tests only (src/core/test_hooks.hpp)
}

// WRF's io_form values. 0 is nwpio's own null backend (library overhead alone, no file).
enum class IoForm : int { Null = 0, NetcdfSerial = 2, Pnetcdf = 11 };

enum class FileFormat {
  Cdf2,     // 64-bit offset (NC_64BIT_OFFSET): WRF's default, every reader takes it
  Cdf5,     // 64-bit data (NC_64BIT_DATA): variables over 4 GiB
  Netcdf4,  // HDF5-based, io_form 2 only (use_netcdf_classic = .false.)
};

// How patches reach the collective write (io_form 11).
enum class GatherMode {
  Auto,       // the measured faster of the two (see docs/ARCHITECTURE.md)
  Rearrange,  // one exchange per frame; writer ranks hold whole contiguous slabs
  Direct,     // every rank hands its own patch straight to PnetCDF
};

// How a patch is reordered from memory order (halo, i-k-j) to file order (k-j-i).
enum class ReorderMode { Auto, Pack, Datatype };

struct OutputOptions {
  // --- files -----------------------------------------------------------------
  std::string output_dir = ".";
  std::string outname = "wrfout_d<domain>_<date>";  // history_outname: <domain>, <date>
  int domain_id = 1;
  int frames_per_file = 1;                            // frames_per_outfile
  bool nocolons = false;  // ':' -> '_' in file names (always done for io_form 11, as WRF does)
  FileFormat format = FileFormat::Cdf2;               // io_form 11 format
  bool use_netcdf_classic = false;  // io_form 2: .true. -> CDF-2, .false. -> netCDF-4 (WRF default)
  int deflate_level = 2;            // io_form 2 netCDF-4 only

  // --- backend ---------------------------------------------------------------
  IoForm io_form = IoForm::Pnetcdf;
  bool fallback_to_serial = false;  // io_form 11 in a build without PnetCDF -> io_form 2

  // --- output timing (WRF's history_* settings, in seconds) -------------------
  std::string start_date;                  // simulation start, YYYY-MM-DD_HH:MM:SS
  // 0: stream off (no file, a log line), as WRF's history_interval = 0; the default -1 means
  // "not set" (a program that does not read a namelist): every date is due.
  std::int64_t history_interval_seconds = -1;
  std::int64_t history_begin_seconds = 0;     // first output this long after start

  // --- variables ---------------------------------------------------------------
  std::string iofields_file;            // iofields_filename; empty: none
  bool ignore_iofields_warning = true;  // WRF's default: unknown names are warnings

  // --- domain check: 0 = not given; else must match the Decomposition's staggered counts
  std::int64_t e_we = 0, e_sn = 0, e_vert = 0;

  // --- gathering and memory ---------------------------------------------------------
  GatherMode gather = GatherMode::Auto;
  ReorderMode reorder = ReorderMode::Auto;
  int writer_ranks = 0;  // rearranger writers: 0 = all ranks, N = N ranks spread evenly
  // Bound on what one rank stages in one write round (send + receive buffers + its slab);
  // larger frames are split into rounds (MPI counts stay below 2 GiB).
  std::int64_t max_round_bytes = std::int64_t{1} << 30;
  // Ranks on the same node as a writer pack their pieces straight into its slab (MPI-3 shared
  // memory): no send buffer, no message, no unpack. false: every piece travels as a message,
  // as it does between nodes.
  bool shared_memory_exchange = true;
  // io_form 2: bound on everything rank 0 stages to gather a frame (send, receive and slab
  // buffers together; a round holds at least one row of a variable).
  std::int64_t serial_chunk_bytes = std::int64_t{64} << 20;
  std::int64_t header_reserve_bytes = 64 * 1024;  // free header space: attributes added later never move data

  // --- reliability ------------------------------------------------------------------
  bool noclobber = false;          // an existing file at the final name is an error
  bool fsync_before_rename = true; // data on disk before the file takes its final name

  // --- reporting --------------------------------------------------------------------
  bool print_timing = true;  // rank 0 prints WRF's "Timing for Writing ..." line per frame
  std::string stats_json;    // write Statistics as JSON here at close (rank 0)

  HintOptions hints;

  // Not for users: hooks of nwpio's own tests (fault injection, simulated nodes). Null in
  // production, where the type cannot even be named outside nwpio's sources.
  std::shared_ptr<detail::TestHooks> test_hooks;

  // Reads namelist.input on rank 0 of comm, broadcasts, and fills the options of the
  // history stream of `domain_id` (1-based, as WRF counts). Collective. Throws Error(Config)
  // with file:line:column.
  static OutputOptions from_namelist(const std::string& path, int domain_id, MPI_Comm comm);
};

}  // namespace nwpio
