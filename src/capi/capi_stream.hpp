// What an opaque nwpio_stream holds: only what C needs beyond the C++ API. The definitions go
// into a StreamBuilder (configuration resolved at nwpio_open); the first nwpio_begin_frame
// builds the Writer from it (the C/Fortran sequence defines the stream one call at a time).
#pragma once

#include <mpi.h>

#include <memory>
#include <optional>

#include "nwpio/stream_builder.hpp"
#include "nwpio/writer.hpp"

struct nwpio_stream {
  MPI_Comm user_comm = MPI_COMM_NULL;  // as given to open (nwpio_abort's MPI_Abort goes here)
  std::optional<nwpio::StreamBuilder> builder;
  std::unique_ptr<nwpio::Writer> writer;  // from the first nwpio_begin_frame on
};

namespace nwpio::capi {

// Throws Error(InvalidArgument) for a NULL stream.
nwpio_stream& stream_ref(nwpio_stream* stream);
const nwpio_stream& stream_ref(const nwpio_stream* stream);

// The Writer, or Error(State) "<what>: no frame open: call nwpio_begin_frame first".
Writer& writer_of(nwpio_stream& s, std::string_view what);

// NWPIO_REAL4, NWPIO_REAL8, NWPIO_INT4 to the C++ enum (memory orders and staggering are read
// by core/enum_text.hpp, as in every front end).
DataType parse_kind(int kind);

}  // namespace nwpio::capi
