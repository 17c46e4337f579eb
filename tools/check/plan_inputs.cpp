#include "plan_inputs.hpp"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>

#include "config/iofields.hpp"
#include "config/namelist_file.hpp"
#include "config/quilt_settings.hpp"
#include "hints/file_system.hpp"
#include "nwpio/error.hpp"
#include "nwpio/wrf_decompose.hpp"
#include "nwpio_model/wrf_history.hpp"

namespace nwpio::check {

namespace {

namespace fs = std::filesystem;

// 1-based inclusive WRF bounds -> 0-based half-open boxes, as Decomposition::from_wrf does.
Box box_of(int is, int ie, int js, int je, int ks, int ke) {
  Box b;
  b.lo = {is - 1, js - 1, ks - 1};
  b.hi = {ie, je, ke};
  return b;
}

// WRF's split of the compute ranks (nproc_x/nproc_y from the namelist, else MPASPECT), every
// rank's patch. The halo does not change the file (3 points, as the demo models use).
void decompose(DomainInputs& d) {
  const int n = d.compute_ranks;
  int px = d.model.nproc_x, py = d.model.nproc_y;
  if (px <= 0 && py <= 0) {
    std::tie(px, py) = wrf::choose_nproc(n);
  } else if (px <= 0 || py <= 0) {
    const int given = px > 0 ? px : py;
    if (n % given != 0) {
      throw Error(ErrorKind::Decomposition, "nproc_x/nproc_y = " + std::to_string(given) + " does not divide the " +
                                                std::to_string(n) + " compute ranks");
    }
    (px > 0 ? py : px) = n / given;
  }
  if (px * py != n) {
    throw Error(ErrorKind::Decomposition, "nproc_x x nproc_y = " + std::to_string(px) + " x " + std::to_string(py) +
                                              " but the run has " + std::to_string(n) + " compute ranks");
  }
  d.nproc_x = px;
  d.nproc_y = py;
  const auto& m = d.model;
  for (int r = 0; r < n; ++r) {
    const WrfBounds b = wrf::split_domain(m.e_we, m.e_sn, m.e_vert, px, py, r, 3);
    if (r == 0) {
      d.grid.domain = box_of(b.ids, b.ide, b.jds, b.jde, b.kds, b.kde);
      d.grid.memory = box_of(b.ims, b.ime, b.jms, b.jme, b.kms, b.kme);
    }
    d.grid.patches.push_back(box_of(b.ips, b.ipe, b.jps, b.jpe, b.kps, b.kpe));
  }
}

// The hint profile of the run: the namelist's or NWPIO_HINTS_FILE's when given (the run uses
// that one), else the shipped profile of --fs, which the plan then advises to set.
void choose_profile(DomainInputs& d, const PlanArgs& args, const std::string& hints_dir) {
  HintOptions& h = d.options.hints;
  if (!h.namelist.profile_file.empty()) {
    d.profile_note = "&nwpio hints_file = '" + h.namelist.profile_file + "'" +
                     (h.namelist.profile.empty() ? "" : ", hints_profile = '" + h.namelist.profile + "'");
    return;
  }
  if (const char* env = std::getenv("NWPIO_HINTS_FILE"); env != nullptr && *env != '\0') {
    d.profile_note = std::string("NWPIO_HINTS_FILE=") + env + " (the run must have it set too)";
    return;
  }
  if (hints_dir.empty()) {
    d.profile_note = "none found for --fs " + args.fs + " (configs/hints is not installed beside nwpio-check)";
    return;
  }
  h.profile_file = (fs::path(hints_dir) / (args.fs_family + ".toml")).string();
  h.profile = "default";
  d.profile_note = "[default] of " + h.profile_file + " (chosen by --fs " + args.fs +
                   "; the run uses it only with &nwpio hints_file = '" + h.profile_file + "')";
}

}  // namespace

std::string fs_choices() {
  std::string out = "expected a family (";
  const auto names = detail::hints::family_names();
  for (std::size_t i = 0; i < names.size(); ++i) out += (i ? ", " : "") + names[i];
  return out + ") or a mount type of one (nfs4, fuse.glusterfs, ceph, fuse.ceph-fuse, ext4, xfs, tmpfs, ...)";
}

std::string find_hints_dir(const char* argv0) {
  std::error_code ec;
  const fs::path self = fs::canonical("/proc/self/exe", ec);
  const fs::path bin = ec ? fs::path(argv0).parent_path() : self.parent_path();
  for (const fs::path& p : {bin / "../share/nwpio/configs/hints", bin / "../../configs/hints",
                            fs::path(NWPIO_SOURCE_HINTS_DIR)}) {
    if (fs::exists(p / "lustre.toml", ec)) return fs::weakly_canonical(p, ec).string();
  }
  return {};
}

RunInputs read_plan_inputs(const PlanArgs& args, const std::string& hints_dir) {
  RunInputs run;
  run.args = args;
  if (args.ranks < 1 || args.ranks_per_node < 1) {
    throw Error(ErrorKind::InvalidArgument, "--ranks and --ranks-per-node must be at least 1");
  }
  const auto family = detail::hints::family_from_name(args.fs);
  if (!family) throw Error(ErrorKind::InvalidArgument, "--fs " + args.fs + ": " + fs_choices());
  run.args.fs_family = std::string(detail::hints::family_name(*family));
  run.nodes = (args.ranks + args.ranks_per_node - 1) / args.ranks_per_node;
  // Relative names in the namelist (iofields_filename, hints_file) are the run directory's:
  // the namelist's own directory.
  const fs::path nml = fs::absolute(args.namelist);
  if (!fs::exists(nml)) throw Error(ErrorKind::Io, "cannot read namelist file '" + args.namelist + "'");
  fs::current_path(nml.parent_path());
  const std::string path = nml.string();

  const detail::QuiltSizes quilt = detail::quilt_sizes_from(detail::load_namelist(path, MPI_COMM_SELF));
  run.server_tasks_per_group = quilt.tasks_per_group;
  run.server_groups = quilt.tasks_per_group > 0 ? quilt.groups : 0;
  const int servers = run.server_tasks_per_group * run.server_groups;
  if (servers >= args.ranks) {
    throw Error(ErrorKind::Config, "&namelist_quilt asks for " + std::to_string(servers) + " I/O server ranks but the run has " +
                                       std::to_string(args.ranks) + " ranks: no compute rank left");
  }
  const ModelSettings first = read_model_settings(path, 1, MPI_COMM_SELF);
  for (int id = 1; id <= first.max_dom; ++id) {
    DomainInputs d;
    d.domain = id;
    d.options = OutputOptions::from_namelist(path, id, MPI_COMM_SELF);
    d.model = id == 1 ? first : read_model_settings(path, id, MPI_COMM_SELF);
    d.compute_ranks = args.ranks - servers;
    wrf::HistorySchemaOptions so;
    so.e_we = d.model.e_we;
    so.e_sn = d.model.e_sn;
    so.e_vert = d.model.e_vert;
    so.start_date = d.model.start_date;
    so.dx = d.model.dx;
    so.dy = d.model.dy;
    so.time_step = d.model.time_step;
    decompose(d);
    so.nproc_x = d.nproc_x;
    so.nproc_y = d.nproc_y;
    d.schema = wrf::history_schema(so);
    const detail::IofieldsFile iofields = detail::read_iofields(d.options, MPI_COMM_SELF);
    for (const auto& name : detail::apply_iofields(d.schema, iofields, d.options.ignore_iofields_warning, MPI_COMM_SELF)) {
      d.iofields_notes.push_back("removed by " + iofields.file + ": " + name);
    }
    choose_profile(d, run.args, hints_dir);
    run.domains.push_back(std::move(d));
  }
  return run;
}

}  // namespace nwpio::check
