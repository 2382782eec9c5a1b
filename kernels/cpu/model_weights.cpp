#include "model_weights.h"

#include <cmath>
#include <stdexcept>

#include "kernels/rng.h"

namespace tokenscope::kernels::cpu {
namespace {

using u64 = std::uint64_t;

// q in -127..127 from one draw; the modulo bias (2^64 mod 255) is far below anything
// a test could see.
float draw_q(Rng& rng) {
    return static_cast<float>(static_cast<int>(rng.next() % 255) - 127);
}

// Largest power of two step with 127 * step <= 1 / sqrt(fan_in).
float matrix_step(std::int64_t fan_in) {
    const double limit = 1.0 / std::sqrt(static_cast<double>(fan_in));
    const int e = static_cast<int>(std::floor(std::log2(limit / 127.0)));
    return static_cast<float>(std::ldexp(1.0, e));
}

std::vector<float> matrix(Rng& rng, std::int64_t rows, std::int64_t cols) {
    const float step = matrix_step(rows);
    std::vector<float> m(static_cast<std::size_t>(rows * cols));
    for (auto& w : m) w = draw_q(rng) * step;
    return m;
}

std::vector<float> norm_vector(Rng& rng, std::int64_t n) {
    std::vector<float> v(static_cast<std::size_t>(n));
    for (auto& w : v)
        w = 1.0f + static_cast<float>(static_cast<int>(rng.next() % 31) - 15) / 128.0f;
    return v;
}

}  // namespace

ModelWeights::ModelWeights(const ModelShape& shape, std::uint64_t seed)
    : shape_(shape), seed_(seed) {
    if (auto e = shape.validate(); !e.empty())
        throw std::invalid_argument("model '" + shape.name + "': " + e);
    Rng rng(seed);
    const std::int64_t h = shape.hidden;
    const std::int64_t q = shape.heads * shape.head_dim;
    const std::int64_t qkv = (shape.heads + 2 * shape.kv_heads) * shape.head_dim;
    embedding.resize(static_cast<std::size_t>(shape.vocab * h));
    for (auto& w : embedding) w = draw_q(rng) / 128.0f;
    layers.resize(static_cast<std::size_t>(shape.layers));
    for (auto& l : layers) {
        l.attn_norm = norm_vector(rng, h);
        l.wqkv = matrix(rng, h, qkv);
        l.wo = matrix(rng, q, h);
        l.mlp_norm = norm_vector(rng, h);
        l.w_gate_up = matrix(rng, h, 2 * shape.ffn);
        l.w_down = matrix(rng, shape.ffn, h);
    }
    final_norm = norm_vector(rng, h);
    lm_head = matrix(rng, h, shape.vocab);
}

std::uint64_t ModelWeights::fp32_bytes(const ModelShape& shape) {
    return shape.parameter_count() * 4;
}

}  // namespace tokenscope::kernels::cpu
