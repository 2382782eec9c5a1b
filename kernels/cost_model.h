#pragma once

#include <cstdint>

#include "iteration_plan.h"
#include "kernel_spec.h"

namespace tokenscope::kernels {

// What the cost model needs of a device (kept here, std only; capture fills it from a
// GPU preset).
struct Roofline {
    double peak_flops = 0.0;      // dense FLOP/s in the model dtype
    double peak_bandwidth = 0.0;  // device memory bytes/s
    double link_bandwidth = 0.0;  // host <-> device bytes/s per direction (PCIe)
    // Fixed time every kernel spends beyond its roofline time (ramp-up, tail, a wave
    // never full): why a tiny decode kernel still takes ~2 us on any GPU.
    std::int64_t launch_overhead_ns = 1500;
    std::int64_t copy_latency_ns = 2000;  // DMA setup per host-device copy
};

// kernel time = max(FLOPs / peak FLOP/s, bytes / peak bandwidth) + launch overhead.
// Times round up to whole ns, floors round down, so a sum of kernel times can never
// fall below the floor of the same work.
class CostModel {
  public:
    // Throws std::invalid_argument unless both peaks and the link bandwidth are positive.
    explicit CostModel(const Roofline& roofline);

    std::int64_t kernel_ns(const KernelSpec& kernel) const;
    std::int64_t copy_ns(std::uint64_t bytes) const;
    // Prefill: max(total FLOPs / peak, total bytes / bandwidth) of the whole iteration;
    // decode: plan.floor_bytes / bandwidth (docs/attribution.md, ITL floor).
    std::int64_t floor_ns(const IterationPlan& plan) const;
    bool memory_bound(const KernelSpec& kernel) const;  // intensity below the ridge point

    const Roofline& roofline() const { return roofline_; }

  private:
    Roofline roofline_;
};

}  // namespace tokenscope::kernels
