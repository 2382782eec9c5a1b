#include "cost_model.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace tokenscope::kernels {
namespace {

std::int64_t ceil_ns(double seconds) {
    return static_cast<std::int64_t>(std::ceil(seconds * 1e9));
}
std::int64_t floor_ns_of(double seconds) {
    return static_cast<std::int64_t>(std::floor(seconds * 1e9));
}

}  // namespace

CostModel::CostModel(const Roofline& roofline) : roofline_(roofline) {
    if (!(roofline_.peak_flops > 0.0) || !(roofline_.peak_bandwidth > 0.0) ||
        !(roofline_.link_bandwidth > 0.0))
        throw std::invalid_argument(
            "cost model: peak FLOP/s, memory bandwidth and link bandwidth must be positive");
    if (roofline_.launch_overhead_ns < 0 || roofline_.copy_latency_ns < 0)
        throw std::invalid_argument("cost model: overheads must not be negative");
}

std::int64_t CostModel::kernel_ns(const KernelSpec& k) const {
    const double compute = static_cast<double>(k.flops) / roofline_.peak_flops;
    const double memory = static_cast<double>(k.bytes()) / roofline_.peak_bandwidth;
    return ceil_ns(std::max(compute, memory)) + roofline_.launch_overhead_ns;
}

std::int64_t CostModel::copy_ns(std::uint64_t bytes) const {
    return ceil_ns(static_cast<double>(bytes) / roofline_.link_bandwidth) +
           roofline_.copy_latency_ns;
}

std::int64_t CostModel::floor_ns(const IterationPlan& plan) const {
    if (plan.prefill) {
        const double compute = static_cast<double>(plan.total_flops()) / roofline_.peak_flops;
        const double memory = static_cast<double>(plan.total_bytes()) / roofline_.peak_bandwidth;
        return floor_ns_of(std::max(compute, memory));
    }
    return floor_ns_of(static_cast<double>(plan.floor_bytes) / roofline_.peak_bandwidth);
}

bool CostModel::memory_bound(const KernelSpec& k) const {
    if (k.bytes() == 0) return false;
    const double intensity = static_cast<double>(k.flops) / static_cast<double>(k.bytes());
    return intensity < roofline_.peak_flops / roofline_.peak_bandwidth;
}

}  // namespace tokenscope::kernels
