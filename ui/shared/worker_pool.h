#pragma once

#include <QFuture>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

namespace tokenscope::ui {

// The threads the GUI's background work runs on (BackgroundQuery, LoadJob): std::thread
// with a std::mutex queue instead of QThreadPool. Debian's Qt is not built with
// ThreadSanitizer, so the ordering its futex-based pool and result store give is
// invisible to TSan; here every hand-off from the GUI thread to a worker goes
// through a mutex TSan sees, and results come back the same way (a mutex-guarded
// slot read after the returned future finishes), which keeps the TSan run of the
// GUI's threaded parts meaningful. Tasks must not block on the GUI thread.
class WorkerPool {
  public:
    // The process's pool, one thread per core (at least two). Shut down when the
    // QCoreApplication goes, as Qt's global thread pool was: its threads then end
    // before the libraries' exit handlers run (OpenSSL, which curl uses in fleet
    // queries, drops its per-thread state there and would leak a live thread's).
    static WorkerPool& instance();

    explicit WorkerPool(unsigned threads);
    // Drops the tasks not yet started (their futures end cancelled) and joins the
    // running ones. Later tasks are dropped as they come.
    void shutdown();
    ~WorkerPool();
    WorkerPool(const WorkerPool&) = delete;
    WorkerPool& operator=(const WorkerPool&) = delete;

    // Runs `task` on a worker; the future finishes once it has returned (or thrown:
    // an exception is dropped there, so tasks report failure in their results).
    // Move-only tasks are fine.
    template <typename Task>
    QFuture<void> run(Task task) {
        auto shared = std::make_shared<Task>(std::move(task));
        return submit([shared] { (*shared)(); });
    }

    // Waits until no task is queued or running, at most `timeout_ms` (-1: no limit);
    // false on timeout. For tests and benchmarks, never for the GUI thread of a
    // running window.
    bool waitForIdle(int timeout_ms = -1);

  private:
    QFuture<void> submit(std::function<void()> task);
    void work();

    std::mutex mutex_;
    std::condition_variable wake_;
    std::condition_variable idle_;
    int running_ = 0;
    std::deque<std::function<void()>> queue_;
    bool stopping_ = false;
    std::vector<std::thread> threads_;
};

}  // namespace tokenscope::ui
