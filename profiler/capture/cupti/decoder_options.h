#pragma once

#include <cstdint>
#include <string>

namespace tokenscope::capture::cupti {

class KernelPlanMatcher;

struct DecoderOptions {
    // NVTX ranges whose name matches (std::regex_search, ECMAScript) go to a step
    // track instead of their thread's lane; empty: none do.
    std::string step_pattern;
    // Each matching range also becomes a Step (phase Iteration): what `capture`
    // wants; the cuda backend writes its own per-token steps and turns this off.
    bool steps_from_markers = true;
    // The traced process (lanes carry it); CUPTI's API records name their own.
    std::int64_t process_id = 0;
    // The built-in workload's matching of kernels to their plan entries (the caller owns
    // it and feeds it iteration windows); null: kernels keep CUDA names, no FLOPs.
    KernelPlanMatcher* plan_matcher = nullptr;
};

}  // namespace tokenscope::capture::cupti
