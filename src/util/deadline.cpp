// The watchdog behind Deadline (deadline.hpp).
#include "util/deadline.hpp"

#include <unistd.h>

#include <condition_variable>
#include <cstdlib>
#include <map>
#include <mutex>
#include <thread>
#include <utility>

namespace nwpio::detail {

namespace {

using Clock = std::chrono::steady_clock;

// Every live Deadline of the process, and the thread that waits for the earliest. Made once and
// never destroyed: the thread may still wait when the process ends, and must not find its
// state gone.
class Watchdog {
 public:
  static Watchdog& instance() {
    static Watchdog* const dog = new Watchdog();
    return *dog;
  }

  std::uint64_t add(Clock::time_point expiry, std::string message, Deadline::Expired on_expiry) {
    std::lock_guard<std::mutex> lock(mutex_);
    const std::uint64_t id = ++last_id_;
    entries_.emplace(id, Entry{expiry, std::move(message), std::move(on_expiry)});
    if (!started_) {
      std::thread([this] { run(); }).detach();
      started_ = true;
    }
    changed_.notify_one();
    return id;
  }

  void remove(std::uint64_t id) {
    std::lock_guard<std::mutex> lock(mutex_);
    entries_.erase(id);
    changed_.notify_one();
  }

 private:
  struct Entry {
    Clock::time_point expiry;
    std::string message;
    Deadline::Expired on_expiry;
  };

  Watchdog() = default;

  void run() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      if (entries_.empty()) {
        changed_.wait(lock);
        continue;
      }
      auto earliest = entries_.begin();
      for (auto it = entries_.begin(); it != entries_.end(); ++it) {
        if (it->second.expiry < earliest->second.expiry) earliest = it;
      }
      // A copy: the entry may be removed while the lock is released in the wait.
      const Clock::time_point expiry = earliest->second.expiry;
      if (Clock::now() < expiry) {
        changed_.wait_until(lock, expiry);
        continue;
      }
      Entry expired = std::move(earliest->second);
      entries_.erase(earliest);
      lock.unlock();
      if (expired.on_expiry) {
        expired.on_expiry(expired.message);
      } else {
        end_process(expired.message);
      }
      lock.lock();
    }
  }

  std::mutex mutex_;
  std::condition_variable changed_;
  std::map<std::uint64_t, Entry> entries_;
  std::uint64_t last_id_ = 0;
  bool started_ = false;
};

}  // namespace

Deadline::Deadline(std::chrono::seconds limit, std::string message, Expired on_expiry) {
  if (limit.count() <= 0) return;
  id_ = Watchdog::instance().add(Clock::now() + limit, std::move(message), std::move(on_expiry));
}

Deadline::~Deadline() {
  if (id_ != 0) Watchdog::instance().remove(id_);
}

void end_process(const std::string& message) noexcept {
  // write(2), not stdio: the main thread may hold stdio's lock inside the step that hangs.
  const std::string line = message + "\n";
  for (std::size_t done = 0; done < line.size();) {
    const ssize_t n = ::write(STDERR_FILENO, line.data() + done, line.size() - done);
    if (n <= 0) break;
    done += static_cast<std::size_t>(n);
  }
  std::_Exit(124);
}

}  // namespace nwpio::detail
