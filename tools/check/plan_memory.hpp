// Memory nwpio holds for one history stream, per rank: the staging the frame plans reserve,
// computed with the Writer's own arithmetic (src/core/rearrange_plan: RowSpace, choose_rounds,
// plan_rank) for every rank of the run, then combined by ONE rule, rank_memory_bytes(), which
// is where a change of the write path (more frames or files in flight) is reflected.
#pragma once

#include <cstdint>
#include <vector>

#include "backend/backend.hpp"
#include "plan_hints.hpp"
#include "plan_inputs.hpp"
#include "plan_sizes.hpp"

namespace nwpio::check {

// One compute rank's staging, both frame plans of the stream together (a file's first frame,
// with the variables without Time, and the frames after it).
struct RankStaging {
  bool writer = false;
  bool aggregator = false;     // one of ROMIO's cb_nodes (the first `aggregators` ranks, as measured)
  std::int64_t slab = 0;       // its slab: the largest chunk it writes, at the file's offsets
  // Exchange buffers of each plan (largest round): its pieces for writers on other nodes, and
  // for a writer the pieces from ranks on other nodes. Each plan allocates its own.
  std::int64_t send_first = 0, recv_first = 0;  // a file's first frame
  std::int64_t send_later = 0, recv_later = 0;  // the frames after it
  std::int64_t patch = 0;      // its part of one frame (a file's first), as packed in file order
};

// What the write path holds beside the staging, as the Writer does it today.
struct MemoryRules {
  // What a rank holds once it writes at all, whatever the frame: the MPI-IO layer loaded at the
  // first file open, the libraries' own state, the plans' bookkeeping. Measured: 8.0-8.5 MiB per
  // rank with nwpio-demo at 3 ranks for frames of 14, 76 and 199 MB (Open MPI 4.1.4, PnetCDF
  // 1.12.3), the same for all three sizes.
  std::int64_t fixed_bytes = std::int64_t{8} << 20;
  // A rank that opens no file (io_form 2: every rank but rank 0) holds only its MPI library's
  // buffers for the exchange. Measured with nwpio-demo at 2 ranks (76 MB frames, io_form 2),
  // rank 1 beside its send buffer: 5.2 MB under Open MPI 4.1.4, 1.6 MB under MPICH 4.0.2.
  std::int64_t fixed_bytes_no_file = std::int64_t{4} << 20;
  bool every_rank_opens = true;  // a parallel backend opens the file on every rank
  // Write-behind: a writer's slab is written while the model goes on, and the next frame waits
  // for that write before packing into the slab again: one slab per writer.
  int slabs_in_flight = 1;
  // A front end that hands over temporaries (WRF's io_form 11 package: put with copy) has each
  // field packed inside put() straight into the slabs and the send buffer when the plan takes
  // a frame in one round (pack on put); otherwise every field is copied at put and held until
  // end_frame. The C++, C and Fortran APIs read the model's arrays at end_frame: no copy.
  bool front_end_copies = true;
  bool plan_packs_on_put = true;  // rearranged frames of one round
  // MPI-IO's two-phase collective buffering of the slabs (collective_write) under ROMIO:
  // cb_buffer_size on every aggregator (measured: +16.8 MB on the 2 aggregators of 3 ranks).
  // OMPIO (Open MPI 4.1) allocated nothing for the contiguous slabs (measured the same).
  bool collective_buffering = false;
  std::int64_t cb_buffer_size = 0;
  // Exchange buffers are allocated untouched and become resident when a frame uses them: with
  // one frame per file only the first-frame plan ever runs.
  bool later_frames = true;  // frames_per_outfile > 1
};

// THE memory model: nwpio's bytes on one compute rank of one stream.
std::int64_t rank_memory_bytes(const RankStaging& s, const MemoryRules& rules);

struct StreamMemory {
  std::vector<RankStaging> ranks;  // every compute rank
  MemoryRules rules;
  int rounds = 1;                  // the most rounds either plan takes
  int writers = 1;
  std::vector<int> writer_ranks;
  std::int64_t max_rank_bytes = 0, max_writer_bytes = 0, max_other_bytes = 0;
  std::int64_t max_node_bytes = 0;  // the compute ranks of one node together
  int busiest_node = 0;
};

// Staging and memory of every compute rank for `writer_ranks` writers (0: every rank, as
// &nwpio writer_ranks = 0) with the stream's gathering, round limit and node layout. `romio`:
// the MPI-IO layer is ROMIO (its collective buffers count); `front_end_copies`: see MemoryRules.
StreamMemory stream_memory(const DomainInputs& d, const StreamSizes& sizes, const HintView& hints,
                           int writer_ranks, int ranks_per_node, bool romio, bool front_end_copies);

// I/O servers (&namelist_quilt): each server holds the frame as received, the band arrays and
// its Writer's slab (3 x F / n, docs/IO_SERVERS.md); each compute rank a send buffer of its
// share per frame in flight beyond the one written, per group.
struct ServerMemory {
  std::int64_t per_server = 0;
  std::int64_t per_compute_rank = 0;
};
ServerMemory server_memory(const DomainInputs& d, const StreamSizes& sizes, int tasks_per_group, int groups);

}  // namespace nwpio::check
