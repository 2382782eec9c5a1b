#include "pass_launcher.h"

#include <nvtx3/nvToolsExt.h>

#include <string>

#include "device_ops.h"

namespace tokenscope::kernels::cuda {
namespace {

constexpr float kRmsEps = 1e-5f;

}  // namespace

PassLauncher::PassLauncher(const DecodeSchedule& schedule, const DeviceModel& model,
                           DeviceWorkspace& workspace, cudaStream_t stream)
    : schedule_(schedule), model_(model), ws_(workspace), stream_(stream) {}

std::vector<std::int32_t> PassLauncher::launch(const ScheduledIteration& it, bool checked,
                                               const EntryHooks& hooks) {
    PassBuilder builder(schedule_.shape());
    std::vector<std::int32_t> counts;
    counts.reserve(it.plan.kernels.size());
    for (std::size_t p = 0; p < it.passes.size(); ++p) {
        const PassState st = state_for(it, p);
        std::vector<KernelSpec> kernels;
        builder.append(it.passes[p], kernels);
        std::int32_t open_layer = -1;
        for (const auto& k : kernels) {
            if (k.layer != open_layer) {
                if (open_layer >= 0) nvtxRangePop();
                open_layer = k.layer;
                if (open_layer >= 0)
                    nvtxRangePushA(
                        ((k.draft ? "draft layer " : "layer ") + std::to_string(open_layer))
                            .c_str());
            }
            if (hooks.begin && *hooks.begin) (*hooks.begin)(counts.size());
            counts.push_back(launch_kernel(k, st));
            if (checked) check_launch(k.name().data(), stream_);
            if (hooks.end && *hooks.end) (*hooks.end)();
        }
        if (open_layer >= 0) nvtxRangePop();
    }
    return counts;
}

PassLauncher::PassState PassLauncher::state_for(const ScheduledIteration& it, std::size_t p) const {
    PassState st;
    st.pass = &it.passes[p];
    st.iteration = it.plan.index;
    if (it.plan.prefill) {
        st.ids = ws_.prompt_ids.as<std::int32_t>();
        st.seq_stride = schedule_.config().prompt_len;
        return st;
    }
    // Decode ids are slot-major [slot][sequence]: slot 0 is the last emitted token (one
    // contiguous upload), slots 1..gamma the drafts. Draft pass j reads slot j and writes
    // its argmax to slot j + 1; the verification reads slots 0..gamma.
    const std::int64_t seqs = schedule_.config().sequences();
    st.pos_stride = seqs;
    const bool draft = it.passes[p].draft;
    const auto slot = static_cast<std::int64_t>(draft ? p : 0);
    st.ids = ws_.ids.as<std::int32_t>() + slot * seqs;
    if (draft) st.draft_out = ws_.ids.as<std::int32_t>() + (slot + 1) * seqs;
    return st;
}

AttentionShape PassLauncher::attention_shape(const PassSpec& p) const {
    const ModelShape& s = schedule_.shape();
    return AttentionShape{p.sequences, p.positions, p.cached,    s.heads,
                          s.kv_heads,  s.head_dim,  ws_.capacity};
}

int PassLauncher::launch_kernel(const KernelSpec& k, const PassState& st) {
    const ModelShape& s = schedule_.shape();
    const PassSpec& p = *st.pass;
    if (k.op == KernelOp::Embedding) {
        launch_embedding(s.dtype, st.ids, st.seq_stride, st.pos_stride, p.sequences, p.positions,
                         model_.embedding(), s.vocab, s.hidden, ws_.x.get(), stream_);
        return 1;
    }
    return k.layer >= 0 ? launch_layer_kernel(k, st) : launch_head_kernel(k, st);
}

int PassLauncher::launch_layer_kernel(const KernelSpec& k, const PassState& st) {
    const ModelShape& s = schedule_.shape();
    const PassSpec& p = *st.pass;
    const LayerPointers& w = model_.layer(k.layer);
    const std::int64_t t = p.sequences * p.positions;
    const std::int64_t qw = s.heads * s.head_dim;
    const std::int64_t qkvw = (s.heads + 2 * s.kv_heads) * s.head_dim;
    const DType dt = s.dtype;
    switch (k.op) {
        case KernelOp::AttnNorm:
            launch_rms_norm(dt, ws_.x.get(), w.attn_norm, ws_.xn.get(), t, 1, 1, s.hidden, kRmsEps,
                            stream_);
            return 1;
        case KernelOp::QkvProj:
            launch_matmul(dt, ws_.xn.get(), w.wqkv, ws_.qkv.get(), false, nullptr, t, s.hidden,
                          qkvw, ws_.gemv_scratch(), stream_);
            return 1;
        case KernelOp::Rope:
            launch_rope(dt, ws_.qkv.get(), ws_.q.get(), ws_.k_cache(k.layer), ws_.v_cache(k.layer),
                        attention_shape(p), model_.rope_cos(), model_.rope_sin(), stream_);
            return 1;
        case KernelOp::Attention: {
            const AttentionShape a = attention_shape(p);
            launch_attention(dt, ws_.q.get(), ws_.k_cache(k.layer), ws_.v_cache(k.layer),
                             ws_.attn.get(), a, attention_splits(a), ws_.attn_partials.as<float>(),
                             ws_.attn_counters.as<unsigned int>(), stream_);
            return 1;
        }
        case KernelOp::OProj:  // residual add fused: x += attn . Wo
            launch_matmul(dt, ws_.attn.get(), w.wo, ws_.x.get(), false, ws_.x.get(), t, qw,
                          s.hidden, ws_.gemv_scratch(), stream_);
            return 1;
        case KernelOp::MlpNorm:
            launch_rms_norm(dt, ws_.x.get(), w.mlp_norm, ws_.xn.get(), t, 1, 1, s.hidden, kRmsEps,
                            stream_);
            return 1;
        case KernelOp::MlpGateUp:
            launch_matmul(dt, ws_.xn.get(), w.w_gate_up, ws_.gate_up.get(), false, nullptr, t,
                          s.hidden, 2 * s.ffn, ws_.gemv_scratch(), stream_);
            return 1;
        case KernelOp::SiluMul:
            launch_silu_mul(dt, ws_.gate_up.get(), ws_.act.get(), t, s.ffn, stream_);
            return 1;
        case KernelOp::MlpDown:
            launch_matmul(dt, ws_.act.get(), w.w_down, ws_.x.get(), false, ws_.x.get(), t, s.ffn,
                          s.hidden, ws_.gemv_scratch(), stream_);
            return 1;
        default:
            throw std::logic_error("pass launcher: " + std::string(k.name()) +
                                   " is not a layer op");
    }
}

int PassLauncher::launch_head_kernel(const KernelSpec& k, const PassState& st) {
    const ModelShape& s = schedule_.shape();
    const DecodeConfig& c = schedule_.config();
    const PassSpec& p = *st.pass;
    const std::int64_t rows = p.sequences * p.logit_rows;
    const auto* logits = ws_.logits.as<float>();
    std::int32_t* out = ws_.sampler_out(st.iteration);
    switch (k.op) {
        case KernelOp::FinalNorm:
            launch_rms_norm(s.dtype, ws_.x.get(), model_.final_norm(), ws_.head_in.get(),
                            p.sequences, p.positions, p.logit_rows, s.hidden, kRmsEps, stream_);
            return 1;
        case KernelOp::LmHead:
            launch_matmul(s.dtype, ws_.head_in.get(), model_.lm_head(), ws_.logits.get(), true,
                          nullptr, rows, s.hidden, s.vocab, ws_.gemv_scratch(), stream_);
            return 1;
        case KernelOp::Argmax:
            launch_argmax(logits, rows, s.vocab, st.draft_out ? st.draft_out : out, 1, stream_);
            return 1;
        case KernelOp::TopKSample:
            launch_topk_sample(logits, rows, s.vocab, c.top_k, c.seed, st.iteration,
                               ws_.topk_values.as<float>(), ws_.topk_ids.as<std::int32_t>(), out,
                               stream_);
            return 1;
        case KernelOp::BeamTopK: {
            const float* scores_in = st.iteration == 0
                                         ? ws_.beam_initial_scores.as<float>()
                                         : reinterpret_cast<const float*>(
                                               ws_.sampler_out(st.iteration - 1) + 2 * p.sequences);
            launch_beam_topk(logits, c.batch, c.beams, s.vocab, scores_in, ws_.beam_lse.as<float>(),
                             out, out + p.sequences,
                             reinterpret_cast<float*>(out + 2 * p.sequences), stream_);
            return 1;
        }
        case KernelOp::SpecVerify:
            launch_spec_verify(logits, p.sequences, c.gamma, s.vocab,
                               ws_.ids.as<std::int32_t>() + p.sequences, 1, p.sequences, out,
                               out + rows, stream_);
            return 1;
        case KernelOp::KvReorder:
            launch_kv_reorder(s.dtype, ws_.cache(), ws_.spare_cache(), out + p.sequences, p.layers,
                              p.sequences, s.kv_heads, ws_.capacity, p.cached + p.positions,
                              s.head_dim, stream_);
            ws_.swap_caches();
            return 1;
        default:
            throw std::logic_error("pass launcher: " + std::string(k.name()) + " is not a head op");
    }
}

}  // namespace tokenscope::kernels::cuda
