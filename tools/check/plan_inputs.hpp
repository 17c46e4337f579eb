// What nwpio-check --plan sizes: the run (ranks, nodes, I/O servers, file system) and, per
// domain, its history stream exactly as a WRF run of that namelist.input would open it: the
// stream's options (&time_control, &nwpio), the model's grid (&domains), WRF's history
// variables after iofields, and WRF's decomposition of the compute ranks.
#pragma once

#include <mpi.h>

#include <string>
#include <vector>

#include "core/stream_layout.hpp"
#include "nwpio/options.hpp"
#include "nwpio/schema.hpp"
#include "nwpio_model/model_settings.hpp"

namespace nwpio::check {

struct PlanArgs {
  std::string namelist;
  int ranks = 0;           // MPI ranks of the job, I/O servers included
  int ranks_per_node = 0;
  // The output directory's file system as given (a family name or a mount type such as "nfs4",
  // "fuse.glusterfs"): its family's shipped profile applies to a run without one.
  std::string fs = "lustre";
  std::string fs_family;       // set by read_plan_inputs: lustre, gpfs, nfs, glusterfs, beegfs, cephfs, local
  // Who writes: WRF through nwpio's io_form 11 package (fields handed over as temporaries, packed
  // or copied at put), or a model on nwpio's API ("api": arrays read at end_frame).
  std::string caller = "wrf";
  double memory_per_node_gb = 0;  // 0: not given
  double bandwidth_gbs = 0;       // the file system's share for this job, GB/s; 0: not given
  std::string json;               // write the plan as JSON here too
  std::string scratch_dir;        // where the header is laid out once (default $TMPDIR or /tmp)
};

struct DomainInputs {
  int domain = 1;
  OutputOptions options;     // the history stream's settings, as the run reads them
  ModelSettings model;       // grid, dx, time step, dates
  Schema schema;             // WRF's history variables after iofields
  std::vector<std::string> iofields_notes;
  int compute_ranks = 1, nproc_x = 1, nproc_y = 1;
  detail::Grid grid;         // every compute rank's patch (WRF's decomposition)
  std::string profile_note;  // which hint profile applies and who chose it
};

struct RunInputs {
  PlanArgs args;
  int nodes = 1;
  int server_tasks_per_group = 0, server_groups = 1;  // &namelist_quilt
  std::vector<DomainInputs> domains;                  // 1 .. max_dom
};

// Reads the namelist (every domain) and builds the inputs. `hints_dir`: the shipped profiles
// (configs/hints), used for --fs when neither the namelist nor NWPIO_HINTS_FILE names one.
// Throws nwpio::Error naming the cause (bad namelist, ranks that WRF cannot split, ...).
RunInputs read_plan_inputs(const PlanArgs& args, const std::string& hints_dir);

// What --fs accepts, for its error and help text.
std::string fs_choices();

// The directory of the shipped hint profiles: <prefix>/share/nwpio/configs/hints beside an
// installed nwpio-check, else the source tree's configs/hints; empty when neither exists.
std::string find_hints_dir(const char* argv0);

}  // namespace nwpio::check
