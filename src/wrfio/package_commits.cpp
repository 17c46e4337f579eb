// The package's commit services and statistics, one per communicator (package_commits.hpp). Part of
// the package's global state, beside its table of open files: WRF's I/O API has no handle for it.
#include "wrfio/package_commits.hpp"

#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "filesink/commit_service.hpp"
#include "util/temp_files.hpp"
#include "util/agree.hpp"
#include "util/mpi_call.hpp"

namespace nwpio::wrfio {

namespace {

struct Shared {
  std::shared_ptr<detail::CommitService> commits;
  std::shared_ptr<Statistics> statistics;
  std::string stats_json;  // rewritten at ioexit (empty: none)
  std::set<std::string> output_dirs;  // their private folders are removed at ioexit when empty
};

std::vector<Shared>& all() {
  static std::vector<Shared> shared;
  return shared;
}

// The entry whose communicator has comm's ranks in comm's order (every rank finds the same one:
// entries are made collectively, in the same order).
Shared* find(MPI_Comm comm) {
  for (Shared& s : all()) {
    int same = MPI_UNEQUAL;
    detail::mpi_check(MPI_Comm_compare(s.commits->comm(), comm, &same), "MPI_Comm_compare");
    if (same == MPI_IDENT || same == MPI_CONGRUENT) return &s;
  }
  return nullptr;
}

}  // namespace

detail::StreamContext package_context(MPI_Comm comm, const std::string& stats_json, const std::string& output_dir) {
  Shared* s = find(comm);
  if (!s) {
    all().push_back({std::make_shared<detail::CommitService>(comm), std::make_shared<Statistics>(), {}, {}});
    s = &all().back();
  }
  if (!stats_json.empty()) s->stats_json = stats_json;
  s->output_dirs.insert(output_dir);
  detail::run_and_agree(comm, [&] { s->commits->throw_failure(); });
  s->commits->settle(false);
  return {nullptr, s->commits, s->statistics};
}

namespace {

// Waits for every file of `s`, raises a failure (agreed), settles them all.
void drain(Shared& s) {
  s.commits->wait_idle();
  try {
    detail::run_and_agree(s.commits->comm(), [&] { s.commits->throw_failure(); });
  } catch (const Error&) {
    s.commits->settle(true);
    throw;
  }
  s.commits->settle(true);
}

}  // namespace

void settle_package_files(MPI_Comm comm) {
  if (Shared* s = find(comm)) drain(*s);
}

void finish_package_files() {
  std::optional<Error> first;
  for (Shared& s : all()) {
    try {
      drain(s);
    } catch (const Error& e) {
      if (!first) first = e;
    }
    // The run's statistics once more, with the commit times of the last files.
    try {
      detail::run_and_agree(s.commits->comm(), [&] {
        int rank = 0;
        MPI_Comm_rank(s.commits->comm(), &rank);
        if (rank != 0) return;
        if (!s.stats_json.empty()) s.statistics->write_json(s.stats_json);
        for (const std::string& dir : s.output_dirs) detail::remove_private_dir_if_empty(dir);
      });
    } catch (const Error& e) {
      if (!first) first = e;
    }
  }
  all().clear();  // the services stop; their slabs are freed (collective over each node)
  if (first) throw *first;
}

}  // namespace nwpio::wrfio
