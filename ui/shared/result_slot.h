#pragma once

#include <mutex>
#include <optional>
#include <utility>

namespace tokenscope::ui {

// A value a WorkerPool task hands to the GUI thread: put() on the worker, take() on the
// GUI thread once the task's future has finished (a QFutureWatcher). The hand-off goes
// through this mutex, which ThreadSanitizer sees, not through Qt's result store or a
// queued functor, whose ordering lives in Qt's uninstrumented code (worker_pool.h).
template <typename T>
class ResultSlot {
  public:
    void put(T value) {
        std::lock_guard lock(mutex_);
        value_ = std::move(value);
    }
    // The value put, once; nullopt when none was (the task stopped or gave up).
    std::optional<T> take() {
        std::lock_guard lock(mutex_);
        return std::exchange(value_, std::nullopt);
    }

  private:
    std::mutex mutex_;
    std::optional<T> value_;
};

}  // namespace tokenscope::ui
