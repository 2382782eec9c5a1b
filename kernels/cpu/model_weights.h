#pragma once

#include <cstdint>
#include <vector>

#include "kernels/model_shape.h"

namespace tokenscope::kernels::cpu {

// The weights of one block. Matrices are row-major [in][out], so y = x W walks W
// row by row (contiguous, vectorizable) whether x is one token or many.
struct LayerWeights {
    std::vector<float> attn_norm;  // [hidden]
    std::vector<float> wqkv;       // [hidden][(heads + 2 kv_heads) head_dim]: q heads, k, v
    std::vector<float> wo;         // [heads head_dim][hidden]
    std::vector<float> mlp_norm;   // [hidden]
    std::vector<float> w_gate_up;  // [hidden][2 ffn]: gate columns, then up columns
    std::vector<float> w_down;     // [ffn][hidden]
};

// Seeded random weights for a shape, reproducible anywhere (a CUDA port can call this
// and upload the same numbers). Every value is an integer q in -127..127 times a power
// of two, so it is exact in fp16 and bf16 too: a GPU run in either dtype uses
// bit-identical weights. Matrices scale to about 1/sqrt(fan_in) so activations stay
// O(1); norm weights are 1 + q/128 with |q| <= 15; the embedding is q/128.
// Draw order (one SplitMix64 stream seeded with `seed`, one draw per element in
// storage order): embedding, then per layer attn_norm, wqkv, wo, mlp_norm, w_gate_up,
// w_down, then final_norm, lm_head.
class ModelWeights {
  public:
    ModelWeights(const ModelShape& shape, std::uint64_t seed);

    // Bytes the fp32 weights of `shape` take (what the cpu backend limits).
    static std::uint64_t fp32_bytes(const ModelShape& shape);

    const ModelShape& shape() const { return shape_; }
    std::uint64_t seed() const { return seed_; }

    std::vector<float> embedding;  // [vocab][hidden]
    std::vector<LayerWeights> layers;
    std::vector<float> final_norm;  // [hidden]
    std::vector<float> lm_head;     // [hidden][vocab]

  private:
    ModelShape shape_;
    std::uint64_t seed_;
};

}  // namespace tokenscope::kernels::cpu
