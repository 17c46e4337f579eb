// What an opaque nwpio_stream holds: the options, domain and definitions gathered before the
// first frame, and the Writer created from them at the first nwpio_begin_frame (the C++ Writer
// takes schema and decomposition in its constructor; the C/Fortran sequence defines them one
// call at a time).
#pragma once

#include <mpi.h>

#include <array>
#include <cstddef>
#include <deque>
#include <memory>
#include <optional>
#include <string>

#include "core/output_clock.hpp"
#include "nwpio/decomposition.hpp"
#include "nwpio/error.hpp"
#include "nwpio/options.hpp"
#include "nwpio/schema.hpp"
#include "nwpio/writer.hpp"

struct nwpio_stream {
  MPI_Comm user_comm = MPI_COMM_NULL;  // as given to open (MPI_Abort goes here)
  MPI_Comm comm = MPI_COMM_NULL;       // our duplicate, for the C layer's own agreements
  nwpio::OutputOptions options;
  std::optional<nwpio::Decomposition> decomposition;
  nwpio::Schema schema;                // as defined by the caller (before iofields)
  std::unique_ptr<nwpio::Writer> writer;
  bool in_frame = false;
  // First error of nwpio_write on this rank in the current frame; nwpio_end_frame agrees on it
  // over all ranks before writing, so a rank's bad array fails the frame on every rank.
  std::optional<nwpio::Error> pending;
  // Copies of the scalars written in the current frame (a Fortran scalar may be an expression
  // whose temporary dies at return); a deque keeps their addresses stable until end_frame.
  std::deque<std::array<std::byte, 8>> scalars;
  // The stream's output clock (nwpio_output_due), made at the first question; mutable because
  // asking is logically const but a clock without start_date remembers the first date.
  mutable std::optional<nwpio::detail::OutputClock> clock;
};

namespace nwpio::capi {

// Throws Error(InvalidArgument) for a NULL stream.
nwpio_stream& stream_ref(nwpio_stream* stream);
const nwpio_stream& stream_ref(const nwpio_stream* stream);

}  // namespace nwpio::capi
