#include "core/node_slabs.hpp"

#include <sys/mman.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <set>
#include <string>

#include "nwpio/error.hpp"

#include "util/mpi_call.hpp"

namespace nwpio::detail {

namespace {
#ifdef MADV_POPULATE_WRITE
constexpr int kMadvPopulateWrite = MADV_POPULATE_WRITE;
#else
constexpr int kMadvPopulateWrite = 23;  // Linux 5.14 uapi value; older headers lack the name
#endif
}  // namespace

NodeSlabs::NodeSlabs(MPI_Comm comm, const Options& options) : comm_(comm), shm_dir_(options.shared_memory_dir) {
  mpi_check(MPI_Comm_rank(comm, &rank_), "MPI_Comm_rank");
  mpi_check(MPI_Comm_size(comm, &size_), "MPI_Comm_size");
  const int k = options.ranks_per_node;
  const bool shared = options.shared;
  if (shared && k > 0) {
    mpi_check(MPI_Comm_split(comm, rank_ / k, rank_, &node_), "MPI_Comm_split(test nodes)");
  } else if (shared) {
    mpi_check(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &node_),
              "MPI_Comm_split_type(MPI_COMM_TYPE_SHARED)");
  } else {
    mpi_check(MPI_Comm_split(comm, rank_, 0, &node_), "MPI_Comm_split(one rank per node)");
  }
  int node_rank = 0;
  mpi_check(MPI_Comm_rank(node_, &node_rank), "MPI_Comm_rank(node)");
  mpi_check(MPI_Comm_size(node_, &node_size_), "MPI_Comm_size(node)");
  // The node's name: the comm rank of its first rank.
  int leader = rank_;
  mpi_check(MPI_Bcast(&leader, 1, MPI_INT, 0, node_), "MPI_Bcast(node leader)");
  std::vector<int> mine = {leader, node_rank}, all(2 * static_cast<std::size_t>(size_));
  mpi_check(MPI_Allgather(mine.data(), 2, MPI_INT, all.data(), 2, MPI_INT, comm), "MPI_Allgather(nodes)");
  node_of_.resize(static_cast<std::size_t>(size_));
  node_rank_.resize(static_cast<std::size_t>(size_));
  for (std::size_t r = 0; r < node_of_.size(); ++r) {
    node_of_[r] = all[2 * r];
    node_rank_[r] = all[2 * r + 1];
  }
  nodes_ = static_cast<int>(std::set<int>(node_of_.begin(), node_of_.end()).size());
  peer_.assign(static_cast<std::size_t>(size_), nullptr);
}

NodeSlabs::~NodeSlabs() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized || abandoned_) return;
  in_use_.wait();  // a background write reads this rank's slab until it is done
  release();
  if (node_ != MPI_COMM_NULL) MPI_Comm_free(&node_);
}

void NodeSlabs::release() noexcept {
  if (win_ == MPI_WIN_NULL) return;
  MPI_Win_unlock_all(win_);
  MPI_Win_free(&win_);
  std::fill(peer_.begin(), peer_.end(), nullptr);
  capacity_ = 0;
}

void NodeSlabs::reserve(std::int64_t bytes) {
  in_use_.wait();
  int grow = bytes > capacity_ || win_ == MPI_WIN_NULL ? 1 : 0;
  mpi_check(MPI_Allreduce(MPI_IN_PLACE, &grow, 1, MPI_INT, MPI_LOR, comm_), "MPI_Allreduce(slab size)");
  if (!grow) return;
  // Round up to 1 MiB so that small layout changes between files do not reallocate.
  const std::int64_t want = std::max(bytes, capacity_);
  const std::int64_t size = (want + (1 << 20) - 1) / (1 << 20) * (1 << 20);
  release();
  check_room(size);
  MPI_Info info = MPI_INFO_NULL;
  mpi_check(MPI_Info_create(&info), "MPI_Info_create");
  // Each rank's segment on its own pages (first touch by its writer).
  MPI_Info_set(info, "alloc_shared_noncontig", "true");
  void* base = nullptr;
  const int rc = MPI_Win_allocate_shared(static_cast<MPI_Aint>(size), 1, info, node_, &base, &win_);
  MPI_Info_free(&info);
  mpi_check(rc, "MPI_Win_allocate_shared(" + std::to_string(size) + " bytes of writer slab)");
  capacity_ = size;
  mpi_check(MPI_Win_lock_all(MPI_MODE_NOCHECK, win_), "MPI_Win_lock_all");
  for (int r = 0; r < size_; ++r) {
    if (!same_node(r)) continue;
    MPI_Aint seg = 0;
    int disp = 1;
    void* p = nullptr;
    mpi_check(MPI_Win_shared_query(win_, node_rank_[static_cast<std::size_t>(r)], &seg, &disp, &p),
              "MPI_Win_shared_query");
    peer_[static_cast<std::size_t>(r)] = static_cast<std::byte*>(p);
  }
  populate(peer_[static_cast<std::size_t>(rank_)], size);
}

// The writer's own segment, its pages allocated now in one call (MADV_POPULATE_WRITE, Linux
// 5.14) instead of one page fault per 4 KiB page at the first pack: on the VMs measured, filling
// a fresh 64 MB /dev/shm mapping took 0.26 s page by page, 0.02 s to populate + 0.10 s to fill
// after it (CHANGELOG.md, "slab pages populated at allocation"). Only an optimisation: a kernel
// without it (EINVAL) or any other refusal leaves the pages to be faulted in on first use, as before.
void NodeSlabs::populate(std::byte* segment, std::int64_t bytes) noexcept {
  if (segment == nullptr || bytes <= 0) return;
  const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
  const auto begin = reinterpret_cast<std::uintptr_t>(segment) / page * page;
  const auto end = reinterpret_cast<std::uintptr_t>(segment) + static_cast<std::uintptr_t>(bytes);
  ::madvise(reinterpret_cast<void*>(begin), end - begin, kMadvPopulateWrite);
}

void NodeSlabs::check_room(std::int64_t size) {
  // Open MPI backs shared windows with a sparse file in /dev/shm (osc_sm_backing_directory):
  // a node whose /dev/shm cannot hold the slabs would die of SIGBUS at the first touch, so it
  // is an error with its numbers now, on every rank.
  // (A node of one rank still joins the allreduce over comm below: every rank does.)
  std::int64_t short_by = 0, node_total = 0;
  if (node_size_ > 1) {
    mpi_check(MPI_Allreduce(&size, &node_total, 1, MPI_INT64_T, MPI_SUM, node_), "MPI_Allreduce(node slabs)");
    std::int64_t free_bytes = -1;  // unknown: no check
    struct statvfs st {};
    if (::statvfs(shm_dir_.empty() ? "/dev/shm" : shm_dir_.c_str(), &st) == 0) {
      free_bytes = static_cast<std::int64_t>(st.f_bavail) * static_cast<std::int64_t>(st.f_frsize);
    }
    mpi_check(MPI_Bcast(&free_bytes, 1, MPI_INT64_T, 0, node_), "MPI_Bcast(/dev/shm)");
    short_by = free_bytes >= 0 && node_total > free_bytes ? node_total - free_bytes : 0;
  }
  std::int64_t worst[2] = {short_by, short_by > 0 ? node_total : 0};
  mpi_check(MPI_Allreduce(MPI_IN_PLACE, worst, 2, MPI_INT64_T, MPI_MAX, comm_), "MPI_Allreduce(node slabs)");
  if (worst[0] > 0) {
    throw Error(ErrorKind::Io, "shared memory: the writers' slabs of a node need " + std::to_string(worst[1]) +
                                   " bytes, " + std::to_string(worst[0]) +
                                   " more than the shared-memory directory (osc_sm_backing_directory, /dev/shm) has free; lower max_round_bytes or set "
                                   "shared_memory_exchange = .false.");
  }
}

void NodeSlabs::sync() {
  in_use_.wait();
  if (node_size_ == 1) return;
  mpi_check(MPI_Win_sync(win_), "MPI_Win_sync");
  mpi_check(MPI_Barrier(node_), "MPI_Barrier(node)");
  mpi_check(MPI_Win_sync(win_), "MPI_Win_sync");
}

}  // namespace nwpio::detail
