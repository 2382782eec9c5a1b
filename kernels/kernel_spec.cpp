#include "kernel_spec.h"

#include <array>

namespace tokenscope::kernels {
namespace {

constexpr std::size_t kOps = static_cast<std::size_t>(KernelOp::SpecVerify) + 1;

// Names stay static so a plan of millions of launches carries no strings.
constexpr std::array<std::string_view, kOps> kNames = {
    "embedding",        "attn_rms_norm", "qkv_proj",    "rope",        "attention",
    "o_proj",           "mlp_rms_norm",  "mlp_gate_up", "silu_mul",    "mlp_down",
    "final_rms_norm",   "lm_head",       "argmax",      "topk_sample", "beam_topk",
    "kv_cache_reorder", "spec_verify"};
constexpr std::array<std::string_view, kOps> kDraftNames = {
    "draft_embedding",  "draft_attn_rms_norm", "draft_qkv_proj",       "draft_rope",
    "draft_attention",  "draft_o_proj",        "draft_mlp_rms_norm",   "draft_mlp_gate_up",
    "draft_silu_mul",   "draft_mlp_down",      "draft_final_rms_norm", "draft_lm_head",
    "draft_argmax",     "draft_topk_sample",   "draft_beam_topk",      "draft_kv_cache_reorder",
    "draft_spec_verify"};

}  // namespace

std::string_view kernel_op_name(KernelOp op, bool draft) {
    auto i = static_cast<std::size_t>(op);
    if (i >= kOps) return "?";
    return draft ? kDraftNames[i] : kNames[i];
}

std::string_view KernelSpec::name() const {
    return kernel_op_name(op, draft);
}

}  // namespace tokenscope::kernels
