#pragma once

#include <cstdint>
#include <vector>

#include "kernels/iteration_plan.h"
#include "trace/run_info.h"
#include "trace/step.h"

namespace tokenscope::capture::cupti {

// What the cuda runner keeps of each iteration for its steps.
struct IterationTokens {
    std::int32_t tokens_emitted = 0;  // per request
    std::int64_t floor_ns = 0;
};

// The iteration's roofline floor on this GPU, as the model backend computes it
// (kernels::CostModel::floor_ns: decode_step_bytes / peak bandwidth for decode);
// 0 (unknown) when the GPU's peak figures are not known.
std::int64_t iteration_floor_ns(const kernels::IterationPlan& plan, const trace::GpuInfo& gpu);

// One step per emitted token ([request][token] emission times): the first from the
// arrival, each later one from the previous emission. The first token of each
// iteration carries the iteration's floor; the others an iteration emits at the
// same instant (speculative decoding) carry 0, as nothing was spent on them alone.
std::vector<trace::Step> token_steps(const std::vector<std::vector<std::int64_t>>& emission_ns,
                                     std::int64_t arrival_ns,
                                     const std::vector<IterationTokens>& iterations);

// Median over requests of TPOT = (last emission - first) / (tokens - 1); requests
// with fewer than two tokens are left out; 0 when none is left.
double median_tpot_ns(const std::vector<std::vector<std::int64_t>>& emission_ns);

}  // namespace tokenscope::capture::cupti
