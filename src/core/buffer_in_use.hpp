// A buffer a background writer may still be reading: the owner marks it before it hands the
// buffer over and waits before it writes into the buffer again; the background writer releases
// it when it no longer reads it. Thread-safe; never an MPI call.
#pragma once

#include <condition_variable>
#include <mutex>

namespace nwpio::detail {

class BufferInUse {
 public:
  // The buffer goes to a background writer (once more).
  void acquire() {
    std::lock_guard<std::mutex> lock(mutex_);
    ++users_;
  }
  // That writer is done with it (any thread).
  void release() noexcept {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (users_ > 0) --users_;
    }
    done_.notify_all();
  }
  // Until every background writer released it.
  void wait() const {
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [&] { return users_ == 0; });
  }
  bool busy() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return users_ > 0;
  }

 private:
  mutable std::mutex mutex_;
  mutable std::condition_variable done_;
  int users_ = 0;
};

}  // namespace nwpio::detail
