#include "iteration_plan.h"

namespace tokenscope::kernels {

std::uint64_t IterationPlan::total_flops() const {
    std::uint64_t sum = 0;
    for (const auto& k : kernels) sum += k.flops;
    return sum;
}

std::uint64_t IterationPlan::total_bytes() const {
    std::uint64_t sum = 0;
    for (const auto& k : kernels) sum += k.bytes();
    return sum;
}

}  // namespace tokenscope::kernels
