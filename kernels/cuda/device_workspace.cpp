#include "device_workspace.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "device_ops.h"

namespace tokenscope::kernels::cuda {

DeviceWorkspace::DeviceWorkspace(const DecodeSchedule& schedule) {
    const ModelShape& s = schedule.shape();
    const DecodeConfig& c = schedule.config();
    const bool spec = c.strategy == Strategy::Speculative;
    const bool beam = c.strategy == Strategy::Beam;
    const auto seqs = static_cast<std::size_t>(c.sequences());
    const std::size_t b = s.dtype_bytes();
    const auto h = static_cast<std::size_t>(s.hidden);
    const auto qw = static_cast<std::size_t>(s.heads * s.head_dim);
    const auto qkvw = static_cast<std::size_t>((s.heads + 2 * s.kv_heads) * s.head_dim);
    const auto f = static_cast<std::size_t>(s.ffn);
    const auto v = static_cast<std::size_t>(s.vocab);
    id_slots_ = spec ? c.gamma + 1 : 1;
    const std::size_t tokens =
        seqs * static_cast<std::size_t>(std::max<std::int64_t>(c.prompt_len, id_slots_));
    const std::size_t rows = seqs * static_cast<std::size_t>(id_slots_);  // logit rows

    x = DeviceBuffer(tokens * h * b, "residual");
    xn = DeviceBuffer(tokens * h * b, "normed");
    qkv = DeviceBuffer(tokens * qkvw * b, "qkv");
    q = DeviceBuffer(tokens * qw * b, "q");
    attn = DeviceBuffer(tokens * qw * b, "attention out");
    gate_up = DeviceBuffer(tokens * 2 * f * b, "gate_up");
    act = DeviceBuffer(tokens * f * b, "mlp act");
    head_in = DeviceBuffer(rows * h * b, "head in");
    logits = DeviceBuffer(rows * v * sizeof(float), "logits");
    prompt_ids = DeviceBuffer(seqs * static_cast<std::size_t>(c.prompt_len) * 4, "prompt ids");
    step_offset_ = (rows * 4 + 15) / 16 * 16;
    ids = DeviceBuffer(step_offset_ + kStepStateBytes, "token ids and step state");

    capacity = schedule.cache_capacity();
    plane_bytes_ = static_cast<std::int64_t>(seqs * static_cast<std::size_t>(s.kv_heads) *
                                             static_cast<std::size_t>(capacity * s.head_dim) * b);
    const auto cache_bytes = static_cast<std::size_t>(2 * s.layers * plane_bytes_);
    kv_[0] = DeviceBuffer(cache_bytes, "kv cache");
    if (beam) kv_[1] = DeviceBuffer(cache_bytes, "kv cache (beam copy)");

    const std::size_t out_bytes = rows * 4 + seqs * 12;  // ids + accepted, or beam triples
    sampler_[0] = DeviceBuffer(out_bytes, "sampler out");
    sampler_[1] = DeviceBuffer(out_bytes, "sampler out");
    attn_partials = DeviceBuffer(seqs * static_cast<std::size_t>(s.heads) * kMaxAttentionSplits *
                                     static_cast<std::size_t>(s.head_dim + 2) * sizeof(float),
                                 "attention partials");
    // One per (query, head) slot for the general kernel, per (sequence, KV head) for the
    // decode kernel: queries * heads covers both.
    attn_counters =
        DeviceBuffer(rows * static_cast<std::size_t>(s.heads) * 4, "attention counters");
    // The decode products (k, n): qkv, o, gate_up, down and the LM head.
    const std::int64_t shapes[][2] = {{s.hidden, static_cast<std::int64_t>(qkvw)},
                                      {static_cast<std::int64_t>(qw), s.hidden},
                                      {s.hidden, 2 * s.ffn},
                                      {s.ffn, s.hidden},
                                      {s.hidden, s.vocab}};
    std::int64_t partial_floats = 0, tiles = 0;
    for (const auto& [k, n] : shapes) {
        partial_floats = std::max(partial_floats, gemv_partial_floats(k, n));
        tiles = std::max(tiles, (n + kGemvTileColumns - 1) / kGemvTileColumns);
    }
    if (partial_floats > 0) {
        gemv_partials =
            DeviceBuffer(static_cast<std::size_t>(partial_floats) * sizeof(float), "gemv partials");
        gemv_counters = DeviceBuffer(static_cast<std::size_t>(tiles) * 4, "gemv counters");
    }
    argmax_partials = DeviceBuffer(rows * kArgmaxChunks * 16, "argmax partials");
    argmax_counters = DeviceBuffer(rows * 4, "argmax counters");
    if (c.strategy == Strategy::TopK) {
        topk_values = DeviceBuffer(seqs * static_cast<std::size_t>(c.top_k) * 4, "top-k values");
        topk_ids = DeviceBuffer(seqs * static_cast<std::size_t>(c.top_k) * 4, "top-k ids");
    }
    if (beam) {
        beam_lse = DeviceBuffer(seqs * 4, "beam lse");
        std::vector<float> init(seqs, -INFINITY);
        for (std::size_t r = 0; r < seqs; r += static_cast<std::size_t>(c.beams)) init[r] = 0.0f;
        beam_initial_scores = DeviceBuffer(seqs * 4, "beam scores");
        check_cuda(
            cudaMemcpy(beam_initial_scores.get(), init.data(), seqs * 4, cudaMemcpyHostToDevice),
            "upload beam scores");
    }
}

}  // namespace tokenscope::kernels::cuda
