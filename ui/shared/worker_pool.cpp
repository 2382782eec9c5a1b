#include "worker_pool.h"

#include <QCoreApplication>
#include <QPromise>
#include <algorithm>
#include <chrono>

namespace tokenscope::ui {

WorkerPool& WorkerPool::instance() {
    static WorkerPool pool(std::max(2u, std::thread::hardware_concurrency()));
    static const bool registered = [] {
        qAddPostRoutine([] { instance().shutdown(); });
        return true;
    }();
    (void)registered;
    return pool;
}

WorkerPool::WorkerPool(unsigned threads) {
    threads_.reserve(threads);
    for (unsigned i = 0; i < threads; ++i) threads_.emplace_back([this] { work(); });
}

WorkerPool::~WorkerPool() {
    shutdown();
}

void WorkerPool::shutdown() {
    std::deque<std::function<void()>> dropped;
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
        dropped.swap(queue_);
    }
    wake_.notify_all();
    for (auto& t : threads_)
        if (t.joinable()) t.join();
    // `dropped` goes out of scope here: each task's QPromise ends its future cancelled.
}

QFuture<void> WorkerPool::submit(std::function<void()> task) {
    // The promise finishes when the task is done, or, never run, when it is dropped.
    auto promise = std::make_shared<QPromise<void>>();
    promise->start();
    QFuture<void> future = promise->future();
    {
        std::lock_guard lock(mutex_);
        if (stopping_) return future;  // shut down: the promise goes, the future ends cancelled
        queue_.emplace_back([task = std::move(task), promise] {
            try {
                task();
            } catch (...) {
                // QtConcurrent would keep it for the future; nobody here reads one.
            }
            promise->finish();
        });
    }
    wake_.notify_one();
    return future;
}

void WorkerPool::work() {
    for (;;) {
        std::function<void()> task;
        {
            std::unique_lock lock(mutex_);
            wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
            if (queue_.empty()) return;  // stopping, nothing left
            task = std::move(queue_.front());
            queue_.pop_front();
            ++running_;
        }
        task();
        task = nullptr;  // the task's captures go before it counts as done
        {
            std::lock_guard lock(mutex_);
            --running_;
        }
        idle_.notify_all();
    }
}

bool WorkerPool::waitForIdle(int timeout_ms) {
    std::unique_lock lock(mutex_);
    auto idle = [this] { return queue_.empty() && running_ == 0; };
    if (timeout_ms < 0) {
        idle_.wait(lock, idle);
        return true;
    }
    return idle_.wait_for(lock, std::chrono::milliseconds(timeout_ms), idle);
}

}  // namespace tokenscope::ui
