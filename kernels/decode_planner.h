#pragma once

#include <cstdint>
#include <vector>

#include "decode_config.h"
#include "iteration_plan.h"
#include "model_shape.h"

namespace tokenscope::kernels {

// Roofline bytes of one decode step (docs/attribution.md, ITL floor): every weight a decode pass
// streams (all blocks, final norm, LM head; the embedding table is only gathered from,
// one row per token, so it is not counted) plus the K and V cache read over `context`
// positions: 2 * layers * kv_heads * head_dim * context * sequences * dtype bytes, where
// sequences is batch (batch * beams for beam search, which decodes every beam).
std::uint64_t decode_step_bytes(const ModelShape& shape, const DecodeConfig& config,
                                std::int64_t context);

// Lists, per decoding iteration, what the workload launches. Iteration 0 is the
// prefill: the whole prompt in one pass, emitting each request's first token.
// Every later iteration is a decode step emitting one token per request, except
// speculative decoding, whose iterations run gamma single-token draft passes and
// one target pass verifying gamma + 1 positions, emitting accepted + 1 tokens
// (clamped so that every request ends with exactly new_tokens tokens). The batch
// moves in lockstep: one acceptance draw per iteration holds for every sequence.
class DecodePlanner {
  public:
    // Throws std::invalid_argument with the problem when shape or config is unusable.
    DecodePlanner(ModelShape shape, DecodeConfig config);

    std::int32_t iteration_count() const { return static_cast<std::int32_t>(schedule_.size()); }
    // Throws std::out_of_range for an index outside 0..iteration_count()-1.
    IterationPlan iteration(std::int32_t index) const;

    const ModelShape& shape() const { return shape_; }
    const DecodeConfig& config() const { return config_; }
    // The speculative draft: the target's widths with draft_layers blocks.
    ModelShape draft_shape() const;

  private:
    struct Slot {
        std::int64_t cached = 0;
        std::int32_t emitted = 0;
        std::int32_t accepted = 0;
    };
    void build_schedule();
    void plan_prefill(IterationPlan& plan) const;
    void plan_decode(IterationPlan& plan) const;
    void plan_speculative(IterationPlan& plan) const;

    ModelShape shape_;
    DecodeConfig config_;
    std::vector<Slot> schedule_;
};

}  // namespace tokenscope::kernels
