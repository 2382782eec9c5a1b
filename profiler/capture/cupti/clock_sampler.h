#pragma once

#include <cstdint>
#include <vector>

#include "capture/gpu_clock_fit.h"

namespace tokenscope::capture::cupti {

// Reads bracketed (host CLOCK_MONOTONIC_RAW, CUPTI timestamp) pairs and fits the
// map from CUPTI's clock to the host's. Of a burst of readings the one with the
// tightest bracket is kept: a preempted reading would only add noise.
class ClockSampler {
  public:
    static std::int64_t host_now_ns();  // CLOCK_MONOTONIC_RAW

    // Takes `burst` readings and keeps the tightest; throws CuptiError if CUPTI
    // cannot read its clock.
    ClockPair sample(int burst = 8);
    const std::vector<ClockPair>& pairs() const { return pairs_; }
    GpuClockFit fit() const { return GpuClockFit::fit(pairs_); }

  private:
    std::vector<ClockPair> pairs_;
};

}  // namespace tokenscope::capture::cupti
