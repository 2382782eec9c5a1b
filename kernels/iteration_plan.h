#pragma once

#include <cstdint>
#include <vector>

#include "kernel_spec.h"

namespace tokenscope::kernels {

// One decoding iteration: token ids go up, the kernels run on one stream in
// order, the sampled ids come back, and every request gains `tokens_emitted` tokens.
struct IterationPlan {
    std::int32_t index = 0;  // 0 = prefill
    bool prefill = false;
    std::int64_t cached = 0;          // KV cache positions per sequence before the iteration
    std::int64_t positions = 0;       // new positions the target model processes per sequence
    std::int32_t tokens_emitted = 0;  // per request
    std::int32_t accepted = 0;        // speculative: draft tokens the target kept
    std::uint64_t h2d_bytes = 0;      // token ids copied before the iteration
    std::uint64_t d2h_bytes = 0;      // sampled ids (and beam parents/scores) copied after
    // Decode iterations: bytes no implementation can avoid reading (decode_step_bytes,
    // summed over the draft passes and the verification for speculative decoding).
    std::uint64_t floor_bytes = 0;
    std::vector<KernelSpec> kernels;

    std::uint64_t total_flops() const;
    std::uint64_t total_bytes() const;  // read + written, all kernels
};

}  // namespace tokenscope::kernels
