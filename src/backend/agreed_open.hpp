// The outcome of a backend's collective open (a library's create, a second MPI-IO handle),
// agreed before any further collective step. The libraries do not agree on it themselves: an
// MPI_File_open, and the library steps after it, may fail on one rank while the others go on
// (PnetCDF outside its safe mode, HDF5), and a rank that went on would wait in the next
// collective (define, enddef, a close) for the rank that left.
#pragma once

#include <mpi.h>

#include <functional>
#include <optional>

#include "nwpio/error.hpp"

namespace nwpio::detail {

// Collective. `local`: this rank's failure of the open; `held`: this rank holds the handle.
// Returns when every rank's open succeeded. Otherwise every rank throws the same Error, after:
//  - every rank holds its handle (a step after the open failed): `close_all` runs on every rank,
//    a collective close they all join (its own failure is dropped);
//  - some rank holds none (its open failed): the ranks holding one `forget` it, unclosed: a
//    collective close would wait for the ranks that have none. The handle stays open until the
//    process ends (Open MPI's MPI_Finalize neither closes nor waits for it, under OMPIO and
//    ROMIO; HDF5 closes the files it still has at MPI_Finalize, collectively).
void agree_on_open(MPI_Comm comm, const std::optional<Error>& local, bool held, const std::function<void()>& close_all,
                   const std::function<void()>& forget);

}  // namespace nwpio::detail
