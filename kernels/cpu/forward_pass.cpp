#include "forward_pass.h"

#include <algorithm>

#include "ops.h"

namespace tokenscope::kernels::cpu {
namespace {

using u64 = std::uint64_t;

void fit(std::vector<float>& buffer, std::int64_t size) {
    if (static_cast<std::int64_t>(buffer.size()) < size)
        buffer.resize(static_cast<std::size_t>(size));
}

}  // namespace

ForwardPass::ForwardPass(const ModelWeights& weights, const RopeTable& rope, KvCache& cache)
    : w_(weights),
      shape_(weights.shape()),
      rope_(rope),
      cache_(cache),
      q_width_(shape_.heads * shape_.head_dim),
      kv_width_(shape_.kv_heads * shape_.head_dim),
      qkv_width_(q_width_ + 2 * kv_width_),
      scores_(static_cast<std::size_t>(cache.capacity())) {}

const std::vector<float>& ForwardPass::run(const PassSpec& pass,
                                           const std::vector<std::int32_t>& tokens,
                                           KernelRunner& runner) {
    const std::int64_t t = pass.sequences * pass.positions;
    fit(x_, t * shape_.hidden);
    fit(xn_, t * shape_.hidden);
    fit(qkv_, t * qkv_width_);
    fit(att_, t * q_width_);
    fit(gate_up_, t * 2 * shape_.ffn);
    fit(act_, t * shape_.ffn);
    runner.run(KernelOp::Embedding, pass.draft, -1, [&](WorkMeter& m) { embed(pass, tokens, m); });
    for (std::int32_t layer = 0; layer < pass.layers; ++layer) block(pass, layer, runner);
    if (pass.logit_rows > 0) head(pass, runner);
    return logits_;
}

void ForwardPass::embed(const PassSpec& pass, const std::vector<std::int32_t>& tokens,
                        WorkMeter& meter) {
    const std::int64_t t = pass.sequences * pass.positions;
    const std::int64_t h = shape_.hidden;
    for (std::int64_t i = 0; i < t; ++i) {
        const auto id = tokens[static_cast<std::size_t>(i)];
        std::copy_n(w_.embedding.data() + id * h, h, x_.data() + i * h);
        meter.read_word(1);
        meter.read(static_cast<u64>(h));
        meter.write(static_cast<u64>(h));
    }
}

void ForwardPass::block(const PassSpec& pass, std::int32_t layer, KernelRunner& runner) {
    const LayerWeights& lw = w_.layers[static_cast<std::size_t>(layer)];
    const std::int64_t t = pass.sequences * pass.positions;
    const std::int64_t h = shape_.hidden;
    const std::int64_t f = shape_.ffn;
    const bool d = pass.draft;
    runner.run(KernelOp::AttnNorm, d, layer, [&](WorkMeter& m) {
        rms_norm(x_.data(), lw.attn_norm.data(), xn_.data(), t, h, m);
    });
    runner.run(KernelOp::QkvProj, d, layer, [&](WorkMeter& m) {
        matmul(xn_.data(), lw.wqkv.data(), qkv_.data(), t, h, qkv_width_, Epilogue::Store, m);
    });
    runner.run(KernelOp::Rope, d, layer, [&](WorkMeter& m) { rotate_and_store(pass, layer, m); });
    runner.run(KernelOp::Attention, d, layer, [&](WorkMeter& m) { attention(pass, layer, m); });
    runner.run(KernelOp::OProj, d, layer, [&](WorkMeter& m) {
        matmul(att_.data(), lw.wo.data(), x_.data(), t, q_width_, h, Epilogue::AddResidual, m);
    });
    runner.run(KernelOp::MlpNorm, d, layer,
               [&](WorkMeter& m) { rms_norm(x_.data(), lw.mlp_norm.data(), xn_.data(), t, h, m); });
    runner.run(KernelOp::MlpGateUp, d, layer, [&](WorkMeter& m) {
        matmul(xn_.data(), lw.w_gate_up.data(), gate_up_.data(), t, h, 2 * f, Epilogue::Store, m);
    });
    runner.run(KernelOp::SiluMul, d, layer,
               [&](WorkMeter& m) { silu_mul(gate_up_.data(), act_.data(), t, f, m); });
    runner.run(KernelOp::MlpDown, d, layer, [&](WorkMeter& m) {
        matmul(act_.data(), lw.w_down.data(), x_.data(), t, f, h, Epilogue::AddResidual, m);
    });
}

// Rotates q and k of every token in place, then stores k and v in the cache: all of
// q, k and v pass through, as the planner bills.
void ForwardPass::rotate_and_store(const PassSpec& pass, std::int32_t layer, WorkMeter& meter) {
    const std::int64_t dim = shape_.head_dim;
    for (std::int64_t s = 0; s < pass.sequences; ++s) {
        for (std::int64_t j = 0; j < pass.positions; ++j) {
            float* row = qkv_.data() + (s * pass.positions + j) * qkv_width_;
            const std::int64_t pos = pass.cached + j;
            rope(row, shape_.heads, pos, rope_, meter);
            rope(row + q_width_, shape_.kv_heads, pos, rope_, meter);
            for (std::int64_t g = 0; g < shape_.kv_heads; ++g) {
                std::copy_n(row + q_width_ + g * dim, dim, cache_.k(layer, s, g) + pos * dim);
                std::copy_n(row + q_width_ + kv_width_ + g * dim, dim,
                            cache_.v(layer, s, g) + pos * dim);
            }
            meter.read(static_cast<u64>(qkv_width_));
            meter.write(static_cast<u64>(qkv_width_));
        }
    }
}

void ForwardPass::attention(const PassSpec& pass, std::int32_t layer, WorkMeter& meter) {
    const std::int64_t dim = shape_.head_dim;
    const std::int64_t group = shape_.heads / shape_.kv_heads;
    for (std::int64_t s = 0; s < pass.sequences; ++s) {
        for (std::int64_t j = 0; j < pass.positions; ++j) {
            const std::int64_t row = s * pass.positions + j;
            const float* q = qkv_.data() + row * qkv_width_;
            float* out = att_.data() + row * q_width_;
            // Causal: the query at position cached + j sees keys 0 .. cached + j.
            const std::int64_t count = pass.cached + j + 1;
            for (std::int64_t hd = 0; hd < shape_.heads; ++hd) {
                const std::int64_t g = hd / group;
                attend(q + hd * dim, cache_.k(layer, s, g), cache_.v(layer, s, g), count, dim,
                       out + hd * dim, scores_.data(), meter);
            }
        }
        // Each sequence's K and V are read once for all its query heads (GQA sharing).
        const auto kv_elements =
            2 * static_cast<u64>(pass.cached + pass.positions) * static_cast<u64>(kv_width_);
        const auto q_elements = static_cast<u64>(pass.positions) * static_cast<u64>(q_width_);
        meter.read(q_elements + kv_elements);
        meter.write(q_elements);
    }
}

void ForwardPass::head(const PassSpec& pass, KernelRunner& runner) {
    const std::int64_t h = shape_.hidden;
    const std::int64_t rows = pass.sequences * pass.logit_rows;
    fit(head_in_, rows * h);
    fit(logits_, rows * shape_.vocab);
    // Only sampled rows go on: each sequence's last logit_rows hidden states.
    for (std::int64_t s = 0; s < pass.sequences; ++s) {
        const std::int64_t first = s * pass.positions + pass.positions - pass.logit_rows;
        std::copy_n(x_.data() + first * h, pass.logit_rows * h,
                    head_in_.data() + s * pass.logit_rows * h);
    }
    runner.run(KernelOp::FinalNorm, pass.draft, -1, [&](WorkMeter& m) {
        rms_norm(head_in_.data(), w_.final_norm.data(), head_in_.data(), rows, h, m);
    });
    runner.run(KernelOp::LmHead, pass.draft, -1, [&](WorkMeter& m) {
        matmul(head_in_.data(), w_.lm_head.data(), logits_.data(), rows, h, shape_.vocab,
               Epilogue::StoreLogits, m);
    });
}

}  // namespace tokenscope::kernels::cpu
