#pragma once

#include <cstdint>

#include "kernels/rng.h"

namespace tokenscope::capture {

// The model backend's noise. Deterministic for a seed (SplitMix64, no std
// distributions), and it only ever adds time, so no modelled token can beat the
// roofline floor:
// - every kernel and copy duration d becomes d + ceil(d * e), e ~ Exponential(kernel_mean);
// - every CUDA API call duration likewise with e ~ Exponential(api_mean);
// - with probability hiccup_probability per iteration the host stalls once
//   (page fault, preemption, GC) for Exponential(hiccup_mean_ns) before a launch
//   chosen uniformly in the iteration, delaying every launch after it.
struct JitterParams {
    bool enabled = true;
    double kernel_mean = 0.03;
    double api_mean = 0.03;
    double hiccup_probability = 0.02;
    double hiccup_mean_ns = 300000.0;
};

class JitterModel {
  public:
    JitterModel(const JitterParams& params, std::uint64_t seed);

    std::int64_t kernel(std::int64_t base_ns) { return stretch(base_ns, params_.kernel_mean); }
    std::int64_t api(std::int64_t base_ns) { return stretch(base_ns, params_.api_mean); }
    // Index of the launch (0..launches-1) the host stalls before, or -1 for none; the
    // stall itself comes from hiccup_ns().
    std::int64_t hiccup_position(std::int64_t launches);
    std::int64_t hiccup_ns();

    const JitterParams& params() const { return params_; }

  private:
    std::int64_t stretch(std::int64_t base_ns, double mean);

    JitterParams params_;
    kernels::Rng rng_;
};

}  // namespace tokenscope::capture
