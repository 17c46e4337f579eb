// OutputOptions: everything that steers one history stream. Built from namelist.input for a
// domain (OutputOptions::from_namelist), then adjustable in code.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <memory>
#include <string>

#include "nwpio/hint_options.hpp"

namespace nwpio {

// WRF's io_form values. 0 is nwpio's own null backend (library overhead alone, no file).
// 13: netCDF-4/HDF5 written in parallel, compressed (needs a build with the MPI netCDF-C).
enum class IoForm : int { Null = 0, NetcdfSerial = 2, Pnetcdf = 11, NetcdfParallel = 13 };

enum class FileFormat {
  Cdf2,     // 64-bit offset (NC_64BIT_OFFSET): WRF's default, every reader takes it
  Cdf5,     // 64-bit data (NC_64BIT_DATA): variables over 4 GiB
  Netcdf4,  // HDF5-based: io_form 13, and io_form 2 with use_netcdf_classic = .false.
};

// A setting as text and where it was written: a namelist's "file:line:column", a profile file's
// "file:line", "api" or empty when set in code, "NWPIO_HINTS" for the environment. Settings are
// checked when the stream opens; an error then still points at the text.
struct SettingText {
  std::string text;
  std::string origin;
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
  // Frames a file is sized for (the stripe count follows a file's expected size) when a front
  // end decides itself where a file ends (WRF's package: WRF's ioclose); 0: frames_per_file.
  int sizing_frames_per_file = 0;
  bool nocolons = false;  // ':' -> '_' in file names (always done for io_form 11, as WRF does)
  FileFormat format = FileFormat::Cdf2;               // io_form 11 format
  bool use_netcdf_classic = false;  // io_form 2: .true. -> CDF-2, .false. -> netCDF-4 (WRF default)
  // --- netCDF-4 storage (io_form 13; io_form 2 when it writes netCDF-4); docs/COMPRESSION.md ---
  int deflate_level = 2;            // 0-9, WRF's 2; 0: no deflate (the chunking stays)
  std::string compression_filter = "deflate";  // "deflate" or "none" (no filter at all)
  bool shuffle = true;              // HDF5's byte shuffle before deflate (WRF: on)
  // Lossy quantization of every float/double field with i and j: "" or "none",
  // "bitround=NSB" (mantissa bits), "granularbr=NSD" or "bitgroom=NSD" (decimal digits).
  SettingText quantize;
  // Per-variable overrides, ';'-separated: "T U V: deflate=4 shuffle=no; QVAPOR: granularbr=3;
  // XLAT: chunk=1x150x425". Keys: deflate, shuffle, filter, bitround, granularbr, bitgroom,
  // quantize=none, chunk (file order, Time left out).
  SettingText compression_vars;
  // io_form 13: largest chunk (bytes); a horizontal plane above it is cut into row stripes.
  std::int64_t chunk_max_bytes = std::int64_t{16} << 20;

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
  // io_form 11, rearranged frames, collective buffering off (the derived default): end_frame
  // returns while each writer's slab is still on its way to the file (an independent
  // nonblocking MPI-IO write); the next end_frame or the file's close waits for it. A write
  // error then surfaces there, and the file is not committed. false: end_frame returns with
  // the frame in the file (the model waits for the write).
  bool write_behind = true;
  // io_form 2: bound on everything rank 0 stages to gather a frame (send, receive and slab
  // buffers together; a round holds at least one row of a variable).
  std::int64_t serial_chunk_bytes = std::int64_t{64} << 20;
  std::int64_t header_reserve_bytes = 64 * 1024;  // free header space: attributes added later never move data

  // --- I/O servers (streams built with IoServers; docs/IO_SERVERS.md) ---------------
  // Frames a server group holds that are not written yet: the one it writes and up to
  // server_frames_in_flight - 1 more, each waiting in a send buffer of the compute ranks (one
  // buffer of the rank's share of a frame per frame). A compute rank that would hand the group
  // one more waits, and the wait is reported (FrameStats::backpressure_seconds).
  int server_frames_in_flight = 2;
  // true: end_frame returns only once the servers hold the frame (the model waits for the
  // transfer, at memory or network speed). For transports on which a send moves only inside
  // the sender's MPI calls (TCP between nodes, measured in docs/IO_SERVERS.md).
  bool server_blocking_handoff = false;
  // A frame travels from each compute rank to each server in messages of at most this size,
  // each sent as soon as it is packed. Smaller messages let a server copy while the rank packs,
  // which measured slower here (docs/IO_SERVERS.md): by default a rank's share goes in one
  // message after its pack.
  std::int64_t server_message_bytes = std::int64_t{1} << 30;

  // --- reliability ------------------------------------------------------------------
  bool noclobber = false;          // an existing file at the final name is an error
  bool fsync_before_rename = true; // data on disk before the file takes its final name
  // A file's collective create or close that has not returned after this many seconds ends the
  // process with a message naming the file (status 124), instead of waiting until the job's
  // time limit: a rank that never comes (Open MPI's OMPIO hangs inside MPI_File_open when a
  // rank's own open fails; docs/RELIABILITY.md). 0: no limit.
  int file_timeout_seconds = 600;

  // --- reporting --------------------------------------------------------------------
  bool print_timing = true;  // rank 0 prints WRF's "Timing for Writing ..." line per frame
  std::string stats_json;    // write Statistics as JSON here at close (rank 0)

  HintOptions hints;

  // (Every field above travels to the I/O servers: src/servers/stream_definition.cpp lists them.)

  // Reads namelist.input on rank 0 of comm, broadcasts, and fills the options of the
  // history stream of `domain_id` (1-based, as WRF counts). Collective. Throws Error(Config)
  // with file:line:column.
  static OutputOptions from_namelist(const std::string& path, int domain_id, MPI_Comm comm);
};

}  // namespace nwpio
