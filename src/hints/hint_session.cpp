#include "hints/hint_session.hpp"

#include <cstdio>
#include <map>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "hints/hints_merge.hpp"
#include "hints/hints_translate.hpp"
#include "hints/pnetcdf_choices.hpp"
#include "hints/hints_report.hpp"
#include "mpiio/mpi_info.hpp"
#include "mpiio/ompio_guard.hpp"
#include "util/agree.hpp"
#include "util/mpi_call.hpp"

namespace nwpio::detail {

using namespace hints;

struct HintPlan::Impl {
  bool resolved = false;  // rank 0 after resolve()
  Resolved levels;        // before the per-file derivation
  MpiIo io;
};

struct HintSession::Impl {
  MPI_Info info = MPI_INFO_NULL;
  bool independent_writes = false;  // every rank: decided on rank 0 from the settings
  int rank = 0;
  IoForm io_form{};  // named in the report
  bool uses_mpiio = true;
  // Rank 0 only: what the report needs.
  Resolved resolved;
  MpiIo io;
  std::vector<Entry> entries;
  std::string behind_blocker;  // the setting that keeps slabs collective (empty: none)
  NodeMap nodes;               // the file's ranks per node, its writers
  std::optional<std::set<std::string>> record_vars;

  ~Impl() {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (info != MPI_INFO_NULL && !finalized) MPI_Info_free(&info);
  }
};

namespace {

// The keys every translated entry passes, in order.
InfoKeys keys_of(const std::vector<Entry>& entries) {
  InfoKeys keys;
  for (const auto& e : entries) {
    for (const auto& k : e.keys) keys.emplace_back(k.key, k.value);
  }
  return keys;
}

}  // namespace

HintPlan::HintPlan() : impl_(std::make_unique<Impl>()) {}
HintPlan::~HintPlan() = default;
HintPlan::HintPlan(const HintPlan& o) : impl_(std::make_unique<Impl>(*o.impl_)) {}
HintPlan& HintPlan::operator=(const HintPlan& o) {
  if (this != &o) impl_ = std::make_unique<Impl>(*o.impl_);
  return *this;
}
HintPlan::HintPlan(HintPlan&&) noexcept = default;
HintPlan& HintPlan::operator=(HintPlan&&) noexcept = default;

HintPlan HintPlan::resolve(const HintOptions& options, MPI_Comm comm) {
  HintPlan plan;
  int rank = 0;
  mpi_check(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  // Every rank, before any file of the stream is opened: OMPIO's write data sieving corrupts
  // collective writes on whichever rank aggregates (open-mpi/ompi#12718), not only on rank 0,
  // which alone translates the hints; a guard reached through the translation alone would leave
  // the other ranks sieving (test WriterAlone.EveryRankStopsSievingOnceAStreamIsOpen: after a
  // Writer alone in its process the trigger pattern loses no piece).
  guard_ompio_write_data_sieving();
  run_and_agree(comm, [&] {
    if (rank != 0) return;
    Impl& im = *plan.impl_;
    im.levels = merge_levels(options, Environment::from_process());
    im.io = detect_mpiio();
    // Everything that can be wrong with a value shows now, not at the first file: the
    // derivation and translation run once here on a copy, as they will per file.
    Resolved trial = im.levels;
    derive(trial, 0, false);
    (void)translate(trial, im.io);
    for (const auto& w : im.levels.warnings) std::fprintf(stderr, "nwpio hints: warning: %s\n", w.c_str());
    im.resolved = true;
  });
  return plan;
}

HintSession HintSession::for_file(const HintPlan& plan, MPI_Comm comm, IoForm io_form, bool uses_mpiio,
                                  std::int64_t expected_file_bytes, bool contiguous_writers,
                                  const NodePlacement& placement) {
  HintSession s;
  mpi_check(MPI_Comm_rank(comm, &s.impl_->rank), "MPI_Comm_rank");
  s.impl_->nodes = gather_node_map(comm, placement);
  s.impl_->io_form = io_form;
  s.impl_->uses_mpiio = uses_mpiio;
  InfoKeys keys;
  int independent = 0;
  run_and_agree(comm, [&] {
    if (s.impl_->rank != 0 || !plan.impl_->resolved) return;
    Impl& im = *s.impl_;
    im.resolved = plan.impl_->levels;
    derive(im.resolved, expected_file_bytes, contiguous_writers, static_cast<int>(im.nodes.nodes.size()));
    if (io_form == IoForm::Pnetcdf) leave_to_pnetcdf(im.resolved, linked_pnetcdf());
    im.io = plan.impl_->io;
    im.entries = translate(im.resolved, im.io);
    if (!uses_mpiio) {
      // Serial netCDF and the null backend open no MPI-IO file: nothing is passed.
      for (auto& e : im.entries) {
        if (!e.keys.empty()) {
          e.keys.clear();
          e.status = "dropped";
          e.why = "this io_form does not open the file through MPI-IO";
        }
      }
    }
    keys = keys_of(im.entries);
    const IndependentWrites iw = hints::independent_writes(im.resolved, im.io);
    independent = uses_mpiio && iw.allowed ? 1 : 0;
    im.behind_blocker = iw.blocker;
  });
  s.impl_->info = broadcast_info(keys, comm);
  mpi_check(MPI_Bcast(&independent, 1, MPI_INT, 0, comm), "MPI_Bcast(hints: independent writes)");
  s.impl_->independent_writes = independent == 1;
  return s;
}

HintSession HintSession::resolve(const HintOptions& options, IoForm io_form, MPI_Comm comm,
                                 std::int64_t expected_file_bytes, bool contiguous_writers) {
  const HintPlan plan = HintPlan::resolve(options, comm);
  return for_file(plan, comm, io_form, /*uses_mpiio=*/true, expected_file_bytes, contiguous_writers);
}

HintSession::HintSession() : impl_(std::make_unique<Impl>()) {}
HintSession::~HintSession() = default;
HintSession::HintSession(HintSession&&) noexcept = default;
HintSession& HintSession::operator=(HintSession&&) noexcept = default;

MPI_Info HintSession::info() const noexcept { return impl_ ? impl_->info : MPI_INFO_NULL; }

bool HintSession::independent_writes() const noexcept { return impl_ && impl_->independent_writes; }

void HintSession::set_record_variables(std::set<std::string> names) { impl_->record_vars = std::move(names); }

std::string HintSession::verify_and_report(const std::string& file, const LayoutFacts& facts,
                                           const std::string& final_name, bool write_behind_asked,
                                           const HintOptions& options) {
  Impl& im = *impl_;
  const std::string name = final_name.empty() ? file : final_name;
  if (im.rank != 0) return "{\"file\":\"" + name + "\",\"note\":\"the hint report is built on rank 0\"}";
  if (im.entries.empty()) return "{}";  // a default-constructed HintSession: nothing resolved
  std::vector<Entry> entries = im.entries;
  const FileFacts ff = probe_file(file);
  auto records = im.record_vars;
  if (!records && facts.known) records = facts.record_vars;
  verify(entries, im.io, ff, facts, records);
  const ReportFile which{file,
                         final_name,
                         im.uses_mpiio,
                         static_cast<int>(im.io_form),
                         write_behind_asked && im.uses_mpiio,
                         im.behind_blocker,
                         im.nodes};
  const ReportLevel level = report_level(options, im.resolved.env_report);
  std::string json = report_json(which, im.resolved, im.io, entries, ff, facts, level);
  if (level.level == HintReport::Full) std::fprintf(stderr, "%s\n", report_text(json).c_str());
  if (level.level == HintReport::Summary) std::fprintf(stderr, "%s\n", report_summary(json).c_str());
  return json;
}

}  // namespace nwpio::detail
