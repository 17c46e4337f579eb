// Collective agreement: a public collective call succeeds on every rank or throws the same
// error on every rank. Each rank runs its local part inside run_and_agree(); a rank that failed
// still joins the agreement (one small allreduce), and the error of the lowest failing rank is
// broadcast to all, so that every rank throws the same Error and nobody hangs.
#pragma once

#include <mpi.h>

#include <exception>
#include <functional>
#include <optional>

#include "nwpio/error.hpp"

namespace nwpio::detail {

// Agrees on `local` (empty = success on this rank). Throws the agreed Error on every rank if
// any rank failed. The thrown message says which rank failed first when it was not this one.
void agree(MPI_Comm comm, const std::optional<Error>& local);

// Runs `local_step` catching nwpio::Error and std::exception (as Internal), then agrees.
void run_and_agree(MPI_Comm comm, const std::function<void()>& local_step);

}  // namespace nwpio::detail
