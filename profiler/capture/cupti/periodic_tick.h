#pragma once

#include <chrono>
#include <functional>
#include <utility>

namespace tokenscope::capture::cupti {

// Calls a function at most once per interval, from whichever thread polls it (the
// tracer's writer thread polls every ~10 ms). The first poll always calls, so the
// work starts with the capture. An empty function is never called.
class PeriodicTick {
  public:
    using Clock = std::chrono::steady_clock;

    PeriodicTick() = default;
    PeriodicTick(std::function<void()> fn, std::chrono::milliseconds interval)
        : fn_(std::move(fn)), interval_(interval) {}

    // True when it called the function.
    bool poll(Clock::time_point now = Clock::now()) {
        if (!fn_) return false;
        if (called_ && now - last_ < interval_) return false;
        called_ = true;
        last_ = now;
        fn_();
        return true;
    }

  private:
    std::function<void()> fn_;
    std::chrono::milliseconds interval_{50};
    Clock::time_point last_{};
    bool called_ = false;
};

}  // namespace tokenscope::capture::cupti
