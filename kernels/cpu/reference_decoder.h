#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "forward_pass.h"
#include "kernel_observer.h"
#include "kernels/decode_config.h"
#include "kernels/rng.h"
#include "kv_cache.h"
#include "model_weights.h"
#include "rope_table.h"

namespace tokenscope::kernels::cpu {

// What one iteration did (the measured counterpart of an IterationPlan).
struct IterationResult {
    std::int32_t index = 0;  // 0 = prefill
    bool prefill = false;
    std::int64_t cached = 0;          // KV positions per sequence before the iteration
    std::int64_t positions = 0;       // new positions the target processed per sequence
    std::int32_t tokens_emitted = 0;  // per request
    std::int32_t accepted = 0;        // speculative: drafts kept (the batch's minimum)
};

// The fp32 reference decoder: the planner's iterations executed for real. Prompts are
// seeded ids; sampling is greedy, top-k (seeded), beam search (the cache follows the
// beams) or self-speculative (the draft is the first draft_layers blocks; the target
// verifies gamma + 1 positions in one pass and keeps the longest agreeing prefix plus
// its own next token). Unlike the planner's modelled acceptance draws, acceptance here
// is real; the batch stays in lockstep by keeping the minimum over its sequences
// (every kept token is still the target's greedy choice, so output equals greedy).
class ReferenceDecoder {
  public:
    // Throws std::invalid_argument for an unusable shape or config (as the planner).
    ReferenceDecoder(const ModelWeights& weights, const DecodeConfig& config);

    bool done() const { return generated_ >= config_.new_tokens; }
    // Runs the next iteration, telling `observer` (may be null) around each kernel.
    IterationResult step(KernelObserver* observer = nullptr);
    // The kernels of the last step, in execution order, with their counted work.
    const std::vector<KernelSpec>& last_kernels() const { return kernels_; }

    std::int64_t tokens_generated() const { return generated_; }  // per request
    // Prompt ids of each request: SplitMix64(seed ^ kPromptStream), next() % vocab,
    // request by request.
    const std::vector<std::vector<std::int32_t>>& prompts() const { return prompts_; }
    // Generated ids per request; for beam search the best beam so far.
    std::vector<std::vector<std::int32_t>> tokens() const;
    // Logits that produced each request's first and latest token (best beam's row).
    const std::vector<std::vector<float>>& first_logits() const { return first_logits_; }
    std::vector<std::vector<float>> last_logits() const;
    // Every sequence's generated ids and, for beam search, its cumulative log-probability
    // (a request's beams are consecutive, best first).
    const std::vector<std::vector<std::int32_t>>& sequences() const { return history_; }
    const std::vector<double>& beam_scores() const { return beam_scores_; }

    static constexpr std::uint64_t kPromptStream = 0x9e0a7b1c2d3e4f50ull;
    static constexpr std::uint64_t kSamplingStream = 0x5a3b1e0d5eed0001ull;

  private:
    void prefill(KernelRunner& runner);
    void decode(KernelRunner& runner);
    void speculate(KernelRunner& runner, IterationResult& result);
    PassSpec target_pass(std::int64_t cached, std::int64_t positions) const;
    // Samples one token per sequence from rows [sequences][vocab] and appends it.
    void sample(const std::vector<float>& logits, KernelRunner& runner,
                std::int64_t cache_positions);
    void beam_step(const std::vector<float>& logits, KernelRunner& runner,
                   std::int64_t cache_positions);
    std::int64_t request_of(std::int64_t seq) const;
    std::int64_t best_beam(std::int64_t request) const;

    const ModelWeights& weights_;
    ModelShape shape_;
    DecodeConfig config_;
    std::int64_t sequences_;
    RopeTable rope_;
    KvCache cache_;
    ForwardPass pass_;
    Rng sampling_rng_;
    std::vector<std::vector<std::int32_t>> prompts_;
    std::vector<std::vector<std::int32_t>> history_;  // generated ids per sequence
    std::vector<std::vector<float>> row_logits_;      // per sequence: its latest logits
    std::vector<std::vector<float>> first_logits_;    // per request
    std::vector<double> beam_scores_;                 // per sequence
    std::vector<KernelSpec> kernels_;
    std::int64_t generated_ = 0;  // per request
    std::int32_t index_ = 0;
};

}  // namespace tokenscope::kernels::cpu
