#include "pass_launcher.h"

#include <nvtx3/nvToolsExt.h>

#include <stdexcept>
#include <string>

#include "cuda_check.h"
#include "device_ops.h"

namespace tokenscope::kernels::cuda {
namespace {

constexpr float kRmsEps = 1e-5f;

int device_sm_count() {
    int device = 0, sms = 1;
    check_cuda(cudaGetDevice(&device), "cudaGetDevice");
    check_cuda(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device),
               "cudaDeviceGetAttribute(multiprocessors)");
    return sms;
}

}  // namespace

PassLauncher::PassLauncher(const DecodeSchedule& schedule, const DeviceModel& model,
                           DeviceWorkspace& workspace, MatmulEngine& matmuls, cudaStream_t stream)
    : schedule_(schedule),
      model_(model),
      ws_(workspace),
      matmuls_(matmuls),
      stream_(stream),
      sm_count_(device_sm_count()) {}

std::vector<std::int32_t> PassLauncher::launch(const ScheduledIteration& it, const Options& o) {
    PassBuilder builder(schedule_.shape());
    std::vector<std::int32_t> counts;
    counts.reserve(it.plan.kernels.size());
    for (std::size_t p = 0; p < it.passes.size(); ++p) {
        PassState st = state_for(it, p);
        st.device_step = o.device_step;
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
            if (o.hooks.begin && *o.hooks.begin) (*o.hooks.begin)(counts.size());
            counts.push_back(launch_kernel(k, st));
            if (o.checked) check_launch(k.name().data(), stream_);
            if (o.hooks.end && *o.hooks.end) (*o.hooks.end)();
        }
        if (open_layer >= 0) nvtxRangePop();
    }
    return counts;
}

void PassLauncher::prepare(const ScheduledIteration& it) {
    PassBuilder builder(schedule_.shape());
    for (std::size_t p = 0; p < it.passes.size(); ++p) {
        const PassState st = state_for(it, p);
        std::vector<KernelSpec> kernels;
        builder.append(it.passes[p], kernels);
        for (const auto& k : kernels)
            if (auto call = matmul_call(k, st)) matmuls_.prepare(*call);
    }
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

AttentionShape PassLauncher::attention_shape(const PassState& st) const {
    const ModelShape& s = schedule_.shape();
    const PassSpec& p = *st.pass;
    AttentionShape a{p.sequences, p.positions, p.cached,    s.heads,
                     s.kv_heads,  s.head_dim,  ws_.capacity};
    if (st.device_step) a.cached_dev = ws_.step_cached();
    return a;
}

// The projections and the LM head. Row-major [tokens][k] . [k][n]; o_proj and mlp_down
// add the residual stream in place (x += ...), the LM head writes fp32 logits.
std::optional<MatmulCall> PassLauncher::matmul_call(const KernelSpec& k,
                                                    const PassState& st) const {
    const ModelShape& s = schedule_.shape();
    const PassSpec& p = *st.pass;
    const std::int64_t t = p.sequences * p.positions;
    const std::int64_t qw = s.heads * s.head_dim;
    const std::int64_t qkvw = (s.heads + 2 * s.kv_heads) * s.head_dim;
    auto call = [&](const void* x, const void* w, void* y, const void* residual, std::int64_t m,
                    std::int64_t kk, std::int64_t n, bool y_fp32) {
        return MatmulCall{s.dtype, x, w, y, y_fp32, residual, m, kk, n};
    };
    switch (k.op) {
        case KernelOp::QkvProj:
            return call(ws_.xn.get(), model_.layer(k.layer).wqkv, ws_.qkv.get(), nullptr, t,
                        s.hidden, qkvw, false);
        case KernelOp::OProj:  // x += attn . Wo
            return call(ws_.attn.get(), model_.layer(k.layer).wo, ws_.x.get(), ws_.x.get(), t, qw,
                        s.hidden, false);
        case KernelOp::MlpGateUp:
            return call(ws_.xn.get(), model_.layer(k.layer).w_gate_up, ws_.gate_up.get(), nullptr,
                        t, s.hidden, 2 * s.ffn, false);
        case KernelOp::MlpDown:  // x += act . Wdown
            return call(ws_.act.get(), model_.layer(k.layer).w_down, ws_.x.get(), ws_.x.get(), t,
                        s.ffn, s.hidden, false);
        case KernelOp::LmHead:
            return call(ws_.head_in.get(), model_.lm_head(), ws_.logits.get(), nullptr,
                        p.sequences * p.logit_rows, s.hidden, s.vocab, true);
        default:
            return std::nullopt;
    }
}

int PassLauncher::launch_kernel(const KernelSpec& k, const PassState& st) {
    const ModelShape& s = schedule_.shape();
    const PassSpec& p = *st.pass;
    if (auto call = matmul_call(k, st)) return matmuls_.run(*call, ws_.gemv_scratch(), stream_);
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
    const DType dt = s.dtype;
    switch (k.op) {
        case KernelOp::AttnNorm:
            launch_rms_norm(dt, ws_.x.get(), w.attn_norm, ws_.xn.get(), t, 1, 1, s.hidden, kRmsEps,
                            stream_);
            return 1;
        case KernelOp::Rope:
            launch_rope(dt, ws_.qkv.get(), ws_.q.get(), ws_.k_cache(k.layer), ws_.v_cache(k.layer),
                        attention_shape(st), model_.rope_cos(), model_.rope_sin(), stream_);
            return 1;
        case KernelOp::Attention: {
            const AttentionShape a = attention_shape(st);
            launch_attention(dt, ws_.q.get(), ws_.k_cache(k.layer), ws_.v_cache(k.layer),
                             ws_.attn.get(), a, attention_splits(a, dt, sm_count_),
                             ws_.attn_partials.as<float>(), ws_.attn_counters.as<unsigned int>(),
                             stream_);
            return 1;
        }
        case KernelOp::MlpNorm:
            launch_rms_norm(dt, ws_.x.get(), w.mlp_norm, ws_.xn.get(), t, 1, 1, s.hidden, kRmsEps,
                            stream_);
            return 1;
        case KernelOp::SiluMul:
            launch_silu_mul(dt, ws_.gate_up.get(), ws_.act.get(), t, s.ffn, stream_);
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
        case KernelOp::Argmax:
            launch_argmax(logits, rows, s.vocab, st.draft_out ? st.draft_out : out, 1,
                          {ws_.argmax_partials.get(), ws_.argmax_counters.as<unsigned int>()},
                          stream_);
            return 1;
        case KernelOp::TopKSample:
            launch_topk_sample(logits, rows, s.vocab, c.top_k, c.seed, st.iteration,
                               st.device_step ? ws_.step_iteration() : nullptr,
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
