#include "plan_file_system.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace nwpio::check {

namespace {

// A single server (NFS) or one brick (a GlusterFS file without sharding) takes every byte of a
// file: a few client nodes fill its link; more only queue at it.
constexpr int kOneServerWriters = 4;

}  // namespace

WriterRule writer_rule(const std::string& family, const HintView& hints, int nodes, int compute_ranks) {
  const int per_target_ranks = hints.stripe_count > 0 ? (compute_ranks + hints.stripe_count - 1) / hints.stripe_count : 0;
  if (family == "lustre" && hints.stripe_count > 0) {
    return {2 * hints.stripe_count,
            fmt::format("Lustre: 2 writers per storage target ({} stripes): each writer streams one contiguous slab, few "
                        "enough that extent locks do not bounce between clients (every rank writing would put {} writers "
                        "on each target)",
                        hints.stripe_count, per_target_ranks)};
  }
  if (family == "beegfs" && hints.stripe_count > 0) {
    return {2 * hints.stripe_count,
            fmt::format("BeeGFS: 2 writers per storage target ({} targets: the profile's stripe_count, which the job "
                        "scripts set with beegfs-ctl --setpattern): each writer streams one contiguous slab",
                        hints.stripe_count)};
  }
  if (family == "nfs" || family == "glusterfs") {
    const int w = std::min(nodes, kOneServerWriters);
    return {w, fmt::format("{}: one writer per node on {} of the {} nodes: {} carries every byte of the file, and a few "
                           "client nodes fill its link",
                           family == "nfs" ? "NFS" : "GlusterFS", w, nodes,
                           family == "nfs" ? "one server" : "one brick (one replica set, unless the volume shards files)")};
  }
  if (family == "local") return {2, "local file system: 2 writers (one disk; more writers only interleave its requests)"};
  const char* what = family == "gpfs"     ? "GPFS"
                     : family == "cephfs" ? "CephFS (the file's objects spread over every OSD)"
                     : family == "beegfs" ? "BeeGFS without a stripe count (the directory's pattern)"
                                          : "Lustre without a stripe count (directory layout)";
  return {nodes, fmt::format("{}: one writer per node ({} nodes): every node's network link writes", what, nodes)};
}

std::vector<std::string> file_system_notes(const std::string& family) {
  if (family == "lustre") {
    return {"nwpio sets the striping at create and reads it back from the file (lustre.lov); it does not see the OSTs' "
            "load, and does not parse PFL (composite) layouts"};
  }
  if (family == "gpfs") {
    return {"nwpio cannot ask GPFS its block size (mmlsfs -B): the profile assumes 8 MiB; the hint report prints "
            "statfs's block size to check it against"};
  }
  if (family == "nfs") {
    return {"NFS: one server per export carries every byte; nwpio does not know how many servers, their links, or "
            "nconnect",
            "under MPI-IO every write takes an fcntl lock (ROMIO's NFS driver per write, OMPIO the whole file): the "
            "lock manager must work; nwpio's own slab writes take none and are synced before the commit "
            "(close-to-open consistency)"};
  }
  if (family == "glusterfs") {
    return {"GlusterFS: a file lives on one brick (one replica set) of a distributed volume unless the volume shards "
            "files (features.shard); nwpio does not know the volume's layout (gluster volume info)",
            "the FUSE client acknowledges writes before they reach the brick (write-behind): nwpio's fsync before the "
            "rename is what makes a file complete",
            "a model on the direct path (gather = 'direct') needs glusterfs.toml's [collective] under ROMIO "
            "(OMPI_MCA_io=romio321): measured 48x faster than its pieces one by one, and OMPIO's two-phase I/O 68x "
            "slower (docs/HINTS.md)"};
  }
  if (family == "beegfs") {
    return {"BeeGFS: striping is the directory's pattern (the job scripts set it from the profile with beegfs-ctl); "
            "no MPI-IO driver reads striping hints and nwpio does not read a file's pattern back",
            "fcntl locks are local to each client unless beegfs-client.conf sets tuneUseGlobalFileLocks: data sieving "
            "(off in the profile) would not be safe across nodes"};
  }
  if (family == "cephfs") {
    return {"CephFS: the layout is the directory's (ceph.dir.layout.*: 4 MiB objects by default); nwpio does not read "
            "it back; with several clients writing one file the MDS revokes write buffering, so every write goes to "
            "the OSDs as it is made"};
  }
  return {"one node's file system: ranks on other nodes cannot write into it"};
}

}  // namespace nwpio::check
