#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <utility>

#include "progress.h"

namespace tokenscope::trace {

// Asks long work (an analysis on a pool thread) to stop early. Copies share one flag,
// so the GUI thread can stop a query while a worker polls its copy. A default token
// never stops and costs one null test per check, which keeps the parameter free for
// the CLI and every caller that does not cancel.
//
// Checks are coarse on purpose (see for_each_stoppable): the hot loops stay as they
// are and a stop lands within one chunk of a few thousand elements.
class StopToken {
  public:
    StopToken() = default;

    // A token that stops once `poll` returns true, asked at every check. It adapts
    // other sources of cancellation (a ProgressFn, a deadline) and lets tests stop work
    // at an exact check, without sleeps. Work that checks from several threads at once
    // (analyse_run) shares the token, so its polls are serialised: `poll` need not be
    // thread-safe, and once one poll says "stop" no later poll is asked.
    static StopToken polling(std::function<bool()> poll) {
        StopToken t(std::make_shared<State>());
        t.state_->poll = std::move(poll);
        return t;
    }

    bool stop_possible() const { return state_ != nullptr; }

    bool stop_requested() const {
        if (!state_) return false;
        if (state_->stopped.load(std::memory_order_acquire)) return true;
        if (!state_->poll) return false;
        const std::lock_guard lock(state_->poll_mutex);
        if (state_->stopped.load(std::memory_order_relaxed)) return true;
        if (!state_->poll()) return false;
        state_->stopped.store(true, std::memory_order_release);
        return true;
    }

    // The analysis' way out: the same exception a ProgressFn's false leads to.
    void throw_if_stopped() const {
        if (stop_requested()) throw Cancelled();
    }

  private:
    friend class StopSource;
    struct State {
        std::atomic<bool> stopped{false};
        std::function<bool()> poll;
        std::mutex poll_mutex;
    };
    explicit StopToken(std::shared_ptr<State> state) : state_(std::move(state)) {}

    std::shared_ptr<State> state_;
};

// Elements between two checks: small enough that a stop lands within a millisecond
// or so, large enough that the check vanishes next to the work of a chunk.
inline constexpr std::size_t kStopCheckEvery = 4096;

// fn(item) for every element of a random-access range, checking `stop` before each
// chunk; throws Cancelled. The inner loop is the plain loop the caller would write.
template <typename Range, typename Fn>
void for_each_stoppable(Range&& items, const StopToken& stop, Fn&& fn) {
    auto first = std::begin(items);
    const auto last = std::end(items);
    while (first != last) {
        stop.throw_if_stopped();
        const auto chunk = std::min<std::ptrdiff_t>(last - first, kStopCheckEvery);
        for (const auto chunk_end = first + chunk; first != chunk_end; ++first) fn(*first);
    }
}

// fn(i) for i in [0, n), checking `stop` before each chunk; throws Cancelled.
template <typename Fn>
void for_index_stoppable(std::size_t n, const StopToken& stop, Fn&& fn) {
    for (std::size_t begin = 0; begin < n; begin += kStopCheckEvery) {
        stop.throw_if_stopped();
        const std::size_t end = std::min(n, begin + kStopCheckEvery);
        for (std::size_t i = begin; i < end; ++i) fn(i);
    }
}

}  // namespace tokenscope::trace
