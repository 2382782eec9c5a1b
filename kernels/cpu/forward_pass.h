#pragma once

#include <cstdint>
#include <vector>

#include "kernel_runner.h"
#include "kernels/pass_builder.h"
#include "kv_cache.h"
#include "model_weights.h"
#include "rope_table.h"

namespace tokenscope::kernels::cpu {

// One forward pass of the model (or of the draft: the first pass.layers blocks of the
// same weights), kernel by kernel in the planner's order: embedding, per block
// attn_rms_norm, qkv_proj, rope (which also stores K and V in the cache), attention,
// o_proj (+ residual), mlp_rms_norm, mlp_gate_up, silu_mul, mlp_down (+ residual);
// then, when pass.logit_rows > 0, final_rms_norm and lm_head over each sequence's
// last logit_rows positions. The sampler and the KV reorder are the decoder's.
class ForwardPass {
  public:
    ForwardPass(const ModelWeights& weights, const RopeTable& rope, KvCache& cache);

    // tokens: pass.sequences * pass.positions ids, sequence-major, at positions
    // pass.cached.. of each sequence. Returns logits [sequences * logit_rows][vocab].
    const std::vector<float>& run(const PassSpec& pass, const std::vector<std::int32_t>& tokens,
                                  KernelRunner& runner);

  private:
    void embed(const PassSpec& pass, const std::vector<std::int32_t>& tokens, WorkMeter& meter);
    void block(const PassSpec& pass, std::int32_t layer, KernelRunner& runner);
    void rotate_and_store(const PassSpec& pass, std::int32_t layer, WorkMeter& meter);
    void attention(const PassSpec& pass, std::int32_t layer, WorkMeter& meter);
    void head(const PassSpec& pass, KernelRunner& runner);

    const ModelWeights& w_;
    const ModelShape& shape_;
    const RopeTable& rope_;
    KvCache& cache_;
    std::int64_t q_width_, kv_width_, qkv_width_;
    std::vector<float> x_, xn_, qkv_, att_, gate_up_, act_, head_in_, logits_, scores_;
};

}  // namespace tokenscope::kernels::cpu
