#pragma once

#include <cstdint>

#include "capture/serving/serving_config.h"
#include "kernels/rng.h"

namespace tokenscope::capture {

// Inter-arrival times of an open loop, deterministic for a seed: exponential for
// Poisson, gamma (Marsaglia-Tsang) with mean 1/rate and shape 1/burstiness.
class ArrivalProcess {
  public:
    ArrivalProcess(const ArrivalSpec& spec, std::uint64_t seed);
    // The next gap in ns (at least 1).
    std::int64_t next_gap_ns();

  private:
    double gamma(double shape);
    double normal();

    ArrivalSpec spec_;
    kernels::Rng rng_;
};

}  // namespace tokenscope::capture
