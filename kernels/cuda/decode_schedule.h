#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "kernels/decode_config.h"
#include "kernels/iteration_plan.h"
#include "kernels/model_shape.h"
#include "kernels/pass_builder.h"

namespace tokenscope::kernels::cuda {

// One iteration as the GPU runs it: its passes in launch order, and the plan whose
// kernel list is exactly the concatenation of the passes' kernels (PassBuilder), so
// the launches follow the workload spec one to one by construction.
struct ScheduledIteration {
    IterationPlan plan;
    std::vector<PassSpec> passes;
};

// DecodePlanner draws speculative acceptance at random; a real run knows it only
// after the verification. This builds the same plans from the run's actual state
// (greedy, top-k and beam iterations equal DecodePlanner's exactly), leaving
// tokens_emitted and accepted of a speculative plan to be filled in afterwards.
class DecodeSchedule {
  public:
    // Throws std::invalid_argument with the problem when shape or config is unusable.
    DecodeSchedule(ModelShape shape, DecodeConfig config);

    ScheduledIteration prefill() const;
    // A decode iteration with `cached` KV positions per sequence, of which `generated`
    // tokens per request are already emitted.
    ScheduledIteration decode(std::int32_t index, std::int64_t cached,
                              std::int64_t generated) const;

    // The batch moves in lockstep (as in DecodePlanner): every sequence keeps the
    // fewest drafts any sequence agreed on, so each emits the target's own greedy
    // tokens. Returns tokens to emit per request: accepted + 1, clamped to `remaining`.
    static std::int32_t lockstep_accepted(std::span<const std::int32_t> accepted_per_sequence);
    static std::int32_t tokens_to_emit(std::int32_t accepted, std::int64_t remaining);

    // KV positions a sequence can ever hold: prompt, generated tokens and the
    // speculative look-ahead.
    std::int64_t cache_capacity() const;
    const ModelShape& shape() const { return shape_; }
    const DecodeConfig& config() const { return config_; }

  private:
    ScheduledIteration build(std::int32_t index, std::int64_t cached,
                             std::vector<PassSpec> passes) const;

    ModelShape shape_;
    DecodeConfig config_;
};

}  // namespace tokenscope::kernels::cuda
