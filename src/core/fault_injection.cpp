#include "core/fault_injection.hpp"

#include <array>
#include <atomic>
#include <string>

namespace nwpio::detail {

namespace {

// Per phase: the rank armed (-1: none) and the kind to throw. Process-wide state, written only
// by tests; atomics because a Writer may run on another thread than the test's main thread.
struct Armed {
  std::atomic<int> rank{-1};
  std::atomic<int> kind{static_cast<int>(ErrorKind::Io)};
};
std::array<Armed, kFaultPhaseCount> g_armed;

Armed& slot(FaultPhase phase) { return g_armed[static_cast<std::size_t>(phase)]; }

}  // namespace

std::string_view to_string(FaultPhase phase) noexcept {
  switch (phase) {
    case FaultPhase::Open: return "open";
    case FaultPhase::Define: return "define";
    case FaultPhase::Put: return "put";
    case FaultPhase::EndFrame: return "end_frame";
    case FaultPhase::Close: return "close";
  }
  return "?";
}

void inject_fault(FaultPhase phase, int rank, ErrorKind kind) noexcept {
  slot(phase).kind.store(static_cast<int>(kind), std::memory_order_relaxed);
  slot(phase).rank.store(rank, std::memory_order_release);
}

void clear_faults() noexcept {
  for (Armed& a : g_armed) a.rank.store(-1, std::memory_order_release);
}

void check_fault(FaultPhase phase, int rank) {
  Armed& a = slot(phase);
  if (a.rank.load(std::memory_order_relaxed) != rank) return;
  int expected = rank;
  if (!a.rank.compare_exchange_strong(expected, -1, std::memory_order_acq_rel)) return;  // once
  throw Error(static_cast<ErrorKind>(a.kind.load(std::memory_order_relaxed)),
              "injected fault at " + std::string(to_string(phase)) + " on rank " + std::to_string(rank));
}

}  // namespace nwpio::detail
