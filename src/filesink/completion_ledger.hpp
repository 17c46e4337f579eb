// A file's completion ledger: how the writers of a file committed behind the model learn, without
// MPI, that every one of them has its bytes in the file. The background writer of a rank may not
// make MPI calls (WRF initialises MPI with MPI_THREAD_SINGLE or _FUNNELED), and the rank's main
// thread is back in the model, so the writers meet in a small file beside the temporary one
// (temp_files.hpp: in the user's private folder): one byte per writer, zero until that writer's
// bytes are written (and synced when asked). A writer marks its byte and reads them all; the one
// that sees every byte marked commits the file. Two writers may both see it complete: the first
// rename wins and the second finds the temporary name gone, which is success too.
//
// This needs a file system on which a read sees every write that finished before it, on any node:
// POSIX semantics, which Lustre, GPFS and local file systems give. On NFS a writer may read a
// stale ledger; the file is then committed by the stream's next agreement (the next frame, or
// the close), never early: a stale read can miss a mark, not invent one.
#pragma once

#include <string>

namespace nwpio::detail {

class PrivateDir;

// One process (rank 0), when the file opens: the ledger `name` in the private folder, of `slots`
// writers, all unmarked, created exclusively. Throws Error(Io).
void create_ledger(const PrivateDir& folder, const std::string& name, int slots);

// `path`: the ledger's path through the folder (PrivateDir::path_of).
// A writer: marks `slot` and returns whether every slot is marked now. Throws Error(Io).
bool mark_ledger(const std::string& path, int slot, int slots);

// Whether every slot is marked (false when the ledger is gone). Never throws.
bool ledger_complete(const std::string& path, int slots) noexcept;

// Never throws (a ledger already removed is fine).
void remove_ledger(const std::string& path) noexcept;

}  // namespace nwpio::detail
