#include "pass_builder.h"

namespace tokenscope::kernels {

Sampler sampler_of(Strategy strategy) {
    switch (strategy) {
        case Strategy::TopK:
            return Sampler::TopK;
        case Strategy::Beam:
            return Sampler::BeamTopK;
        case Strategy::Greedy:
        case Strategy::Speculative:
            break;
    }
    return Sampler::Argmax;
}
namespace {

using u64 = std::uint64_t;
constexpr u64 kIdBytes = 4;     // int32 token ids and beam parents
constexpr u64 kFloatBytes = 4;  // fp32 logits and beam scores

KernelSpec make(KernelOp op, const PassSpec& p, std::int32_t layer, u64 flops, u64 rd, u64 wr) {
    return KernelSpec{op, p.draft, layer, flops, rd, wr};
}

}  // namespace

void PassBuilder::append(const PassSpec& p, std::vector<KernelSpec>& out) const {
    const u64 b = shape_.dtype_bytes();
    const u64 h = static_cast<u64>(shape_.hidden);
    const u64 t = static_cast<u64>(p.sequences * p.positions);  // tokens in the pass
    // A gather of one embedding row per token: the table itself is not streamed.
    out.push_back(make(KernelOp::Embedding, p, -1, 0, t * kIdBytes + t * h * b, t * h * b));
    for (std::int32_t layer = 0; layer < p.layers; ++layer) append_layer(p, layer, out);
    if (p.logit_rows > 0) append_head(p, out);
}

void PassBuilder::append_layer(const PassSpec& p, std::int32_t layer,
                               std::vector<KernelSpec>& out) const {
    const u64 b = shape_.dtype_bytes();
    const u64 h = static_cast<u64>(shape_.hidden);
    const u64 f = static_cast<u64>(shape_.ffn);
    const u64 d = static_cast<u64>(shape_.head_dim);
    const u64 q = static_cast<u64>(shape_.heads) * d;  // query (and attention output) width
    const u64 qkv = static_cast<u64>(shape_.heads + 2 * shape_.kv_heads) * d;
    const u64 kv = static_cast<u64>(shape_.kv_heads) * d;
    const u64 s = static_cast<u64>(p.sequences);
    const u64 n = static_cast<u64>(p.positions);
    const u64 c = static_cast<u64>(p.cached);
    const u64 t = s * n;
    const u64 rotated = static_cast<u64>(shape_.heads + shape_.kv_heads) * d;  // q and k
    // New query j (1-based) sees the c cached positions and j new ones (causal mask).
    const u64 pairs = s * (n * c + n * (n + 1) / 2);
    // The cache after this pass holds c + n positions; attention reads them all, K and V.
    const u64 kv_read = 2 * s * (c + n) * kv * b;

    out.push_back(make(KernelOp::AttnNorm, p, layer, 4 * t * h, t * h * b + h * b, t * h * b));
    out.push_back(
        make(KernelOp::QkvProj, p, layer, 2 * t * h * qkv, t * h * b + h * qkv * b, t * qkv * b));
    // Rotates q and k; k and v land in the KV cache, so all of q, k, v pass through.
    out.push_back(make(KernelOp::Rope, p, layer, 3 * t * rotated, t * qkv * b, t * qkv * b));
    out.push_back(make(KernelOp::Attention, p, layer,
                       4 * static_cast<u64>(shape_.heads) * d * pairs, t * q * b + kv_read,
                       t * q * b));
    // The residual add is fused into the epilogue: one more read and one add per element.
    out.push_back(make(KernelOp::OProj, p, layer, 2 * t * q * h + t * h,
                       t * q * b + q * h * b + t * h * b, t * h * b));
    out.push_back(make(KernelOp::MlpNorm, p, layer, 4 * t * h, t * h * b + h * b, t * h * b));
    out.push_back(make(KernelOp::MlpGateUp, p, layer, 2 * t * h * 2 * f, t * h * b + 2 * h * f * b,
                       2 * t * f * b));
    out.push_back(make(KernelOp::SiluMul, p, layer, 5 * t * f, 2 * t * f * b, t * f * b));
    out.push_back(make(KernelOp::MlpDown, p, layer, 2 * t * f * h + t * h,
                       t * f * b + f * h * b + t * h * b, t * h * b));
}

void PassBuilder::append_head(const PassSpec& p, std::vector<KernelSpec>& out) const {
    const u64 b = shape_.dtype_bytes();
    const u64 h = static_cast<u64>(shape_.hidden);
    const u64 v = static_cast<u64>(shape_.vocab);
    // Only rows that are sampled get normalised and projected (hidden states are pruned first).
    const u64 r = static_cast<u64>(p.sequences * p.logit_rows);
    out.push_back(make(KernelOp::FinalNorm, p, -1, 4 * r * h, r * h * b + h * b, r * h * b));
    out.push_back(
        make(KernelOp::LmHead, p, -1, 2 * r * h * v, r * h * b + v * h * b, r * v * kFloatBytes));
    if (p.sampler != Sampler::None) out.push_back(sampler_kernel(p));
    if (p.reorder_kv) {
        // Every block's K and V of every beam, gathered by parent beam for the next step.
        const u64 cache = 2 * static_cast<u64>(p.layers * shape_.kv_heads * shape_.head_dim) *
                          static_cast<u64>(p.sequences * (p.cached + p.positions)) * b;
        out.push_back(make(KernelOp::KvReorder, p, -1, 0, cache, cache));
    }
}

KernelSpec PassBuilder::sampler_kernel(const PassSpec& p) const {
    const u64 v = static_cast<u64>(shape_.vocab);
    const u64 s = static_cast<u64>(p.sequences);
    const u64 r = static_cast<u64>(p.sequences * p.logit_rows);
    const u64 logits = r * v * kFloatBytes;
    const u64 out = sampler_output_bytes(p);
    switch (p.sampler) {
        case Sampler::TopK:
            // Temperature scale and threshold compare per logit, softmax and draw over k.
            return make(KernelOp::TopKSample, p, -1, r * (2 * v + 4 * static_cast<u64>(p.top_k)),
                        logits, out);
        case Sampler::BeamTopK:
            // Log-softmax (3 per logit), add the beam's score, one compare in the selection;
            // reads the running beam scores too.
            return make(KernelOp::BeamTopK, p, -1, 5 * r * v, logits + r * kFloatBytes, out);
        case Sampler::SpecVerify:
            // Argmax of every verified row, compared with the drafted ids read alongside.
            return make(KernelOp::SpecVerify, p, -1, r * v,
                        logits + s * static_cast<u64>(p.drafted) * kIdBytes, out);
        case Sampler::Argmax:
        case Sampler::None:
            break;
    }
    return make(KernelOp::Argmax, p, -1, r * v, logits, out);  // one compare per logit
}

std::uint64_t PassBuilder::sampler_output_bytes(const PassSpec& p) const {
    const u64 r = static_cast<u64>(p.sequences * p.logit_rows);
    const u64 s = static_cast<u64>(p.sequences);
    switch (p.sampler) {
        case Sampler::None:
            return 0;
        case Sampler::BeamTopK:
            return r * (2 * kIdBytes + kFloatBytes);  // id, parent, score
        case Sampler::SpecVerify:
            return r * kIdBytes + s * kIdBytes;  // ids + accepted count
        case Sampler::Argmax:
        case Sampler::TopK:
            break;
    }
    return r * kIdBytes;
}

}  // namespace tokenscope::kernels
