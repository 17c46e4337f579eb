#include "util/fault_injection.hpp"

#include <string>

namespace nwpio::detail {

std::string_view to_string(FaultPhase phase) noexcept {
  switch (phase) {
    case FaultPhase::Open: return "open";
    case FaultPhase::Define: return "define";
    case FaultPhase::Put: return "put";
    case FaultPhase::EndFrame: return "end_frame";
    case FaultPhase::Close: return "close";
    case FaultPhase::WriteBehind: return "write_behind";
    case FaultPhase::CreateOpen: return "create_open";
    case FaultPhase::SlabOpen: return "slab_open";
    case FaultPhase::SlabClose: return "slab_close";
  }
  return "?";
}

void FaultInjector::arm(FaultPhase phase, int rank, ErrorKind kind, int pass) noexcept {
  Armed& a = armed_[static_cast<std::size_t>(phase)];
  a.kind.store(static_cast<int>(kind), std::memory_order_relaxed);
  a.pass.store(pass, std::memory_order_relaxed);
  a.rank.store(rank, std::memory_order_release);
}

void FaultInjector::clear() noexcept {
  for (Armed& a : armed_) a.rank.store(-1, std::memory_order_release);
}

void FaultInjector::check(FaultPhase phase, int rank) {
  Armed& a = armed_[static_cast<std::size_t>(phase)];
  if (a.rank.load(std::memory_order_relaxed) != rank) return;
  if (a.pass.load(std::memory_order_relaxed) > 0) {
    a.pass.fetch_sub(1, std::memory_order_relaxed);
    return;
  }
  int expected = rank;
  if (!a.rank.compare_exchange_strong(expected, -1, std::memory_order_acq_rel)) return;  // once
  throw Error(static_cast<ErrorKind>(a.kind.load(std::memory_order_relaxed)),
              "injected fault at " + std::string(to_string(phase)) + " on rank " + std::to_string(rank));
}

}  // namespace nwpio::detail
