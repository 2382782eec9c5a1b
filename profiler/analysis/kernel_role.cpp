#include "kernel_role.h"

#include <string>

#include "trace/collective.h"
#include "trace/kernel_signature.h"

namespace tokenscope::analysis {
namespace {

// Where each word comes from: the kernels of the fixtures (../shared/fixtures) and of
// the engines' public code (vLLM csrc/ and its Triton attention, SGLang's sgl-kernel and
// Triton attention, FlashInfer, TensorRT-LLM, PyTorch ATen, cuBLAS/cuDNN, hipBLASLt's
// Tensile, CK, aiter, Triton's triton_kernels, Inductor). Matched in the lower-cased
// name up to its parameter list (trace::signature_head): template arguments included, since
// ATen names its op there (vectorized_elementwise_kernel<4, silu_kernel...>), parameter
// types not, since they name anything (fft2d_r2c_32x32<...>(..., reduced_divisor)).

// FlashAttention (flash_fwd_kernel, flash::FlashAttnFwdSm90), FlashInfer
// (BatchDecodeWithPagedKVCacheKernel; not "flashinfer" alone, its sampling and norm
// kernels share the namespace), paged attention, TensorRT-LLM's fmha and XQA, MLA.
constexpr std::string_view kAttention[] = {
    "attention", "attn", "flash_", "flash::", "fmha",     "mha_",    "_mha",    "mla_",
    "_mla",      "xqa",  "sdpa",   "pagedkv", "paged_kv", "kvcache", "kv_cache"};

// The rest of an attention layer: KV-cache writes (reshape_and_cache_flash_kernel; SGLang's
// store_kvcache is kvcache above), FlashInfer's index and merge kernels, SGLang's Triton
// decode attention (_fwd_grouped_kernel_stage1, _fwd_kernel_stage2).
constexpr std::string_view kAttentionParts[] = {
    "reshape_and_cache",         "kv_indices",       "mergestates", "merge_states",
    "_fwd_grouped_kernel_stage", "_fwd_kernel_stage"};

// cuBLAS (sm90_xmma_gemm, nvjet_*, splitKreduce_kernel and cuBLASLt's epilogue::impl::
// globalKernel: a GEMM's split-K and epilogue steps), CUTLASS (its kernels say gemm; not
// "cutlass" alone, other kernels take cutlass types as template arguments),
// Tensile/hipBLASLt (Cijk_*), Marlin, Triton MoE GEMMs (fused_moe_kernel, _matmul_ogs),
// Inductor GEMM templates (triton_tem_*), and cuDNN convolutions (implicit GEMM,
// winograd, *scudnn*, dgrad/wgrad engines and their offset helpers). Tokenscope's own
// decode names its kernels after the plan (kernels/kernel_spec.cpp: qkv_proj, o_proj,
// mlp_gate_up, mlp_down, lm_head): its H200 capture read 57 % "Other" without them.
constexpr std::string_view kGemm[] = {
    "_proj",      "mlp_gate_up", "mlp_down", "lm_head",     "epilogue::impl", "gemm",
    "gemv",       "matmul",      "cijk_",    "cublas",      "xmma",           "nvjet",
    "hipblaslt",  "rocblas",     "marlin",   "splitk",      "fused_moe",      "bmm",
    "triton_tem", "scudnn",      "winograd", "convolution", "convolve",       "conv1d",
    "conv2d",     "conv3d",      "fprop",    "dgrad",       "wgrad",          "cask_cudnn"};

// vLLM's and SGLang's samplers (torch argmax, exponential_, multinomial), FlashInfer's
// TopKTopPSamplingFromProbKernel / TopPRenormProbKernel / TopKMaskLogitsKernel, penalties.
constexpr std::string_view kSampling[] = {"sampling",    "sampler", "argmax",     "multinomial",
                                          "exponential", "gumbel",  "penalt",     "top_p",
                                          "topk_topp",   "min_p",   "renormprob", "logit"};

// Before normalisation: MoE routing (vLLM's topkGatingSoftmax) is glue, not a norm.
constexpr std::string_view kRouting[] = {"gating", "routing"};

// vLLM's fused_add_rms_norm, aiter's add_rmsnorm_quant, CK's Rmsnorm2dFwd, ATen's
// layer norm (RowwiseMoments), cuDNN batch norm (bn_fw_*, bn_bw_*), softmax.
constexpr std::string_view kNormalization[] = {
    "rmsnorm",   "rms_norm",   "layernorm",    "layer_norm",    "groupnorm",      "group_norm",
    "batchnorm", "batch_norm", "instancenorm", "instance_norm", "l2norm",         "l2_norm",
    "qknorm",    "qk_norm",    "bn_fw",        "bn_bw",         "rowwisemoments", "softmax"};

// ATen's direct_copy / *_copy_kernel_cuda / CatArrayBatchedCopy, Inductor's _to_copy,
// memset-like routing buffers, layout conversions.
constexpr std::string_view kCopy[] = {"copy",      "memcpy",     "memset",
                                      "transpose", "nchwtonhwc", "nhwctonchw",
                                      "permute",   "contiguous", "concat"};

// ATen's elementwise/reduce/index kernels, Inductor's triton_poi/red/per, activations
// (sgl act_and_mul_kernel, silu), rotary embedding, MoE routing (triton_kernels'
// _topk_forward, _sum_bitmatrix_rows, moe_align_block_size), quantisation, scans
// (rocprim), SGLang's resolve_future_token_ids_kernel.
constexpr std::string_view kElementwise[] = {"elementwise",   "vectorized", "unrolled",
                                             "pointwise",     "triton_poi", "triton_red",
                                             "triton_per",    "activation", "act_and_mul",
                                             "silu",          "gelu",       "relu",
                                             "swiglu",        "sigmoid",    "tanh",
                                             "rotary",        "rope",       "embedding",
                                             "index",         "gather",     "scatter",
                                             "reduce",        "fill",       "arange",
                                             "clamp",         "topk",       "bitmatrix",
                                             "moe_align",     "moe_sum",    "scan",
                                             "sort",          "cumsum",     "multi_tensor_apply",
                                             "dropout",       "quant",      "scale",
                                             "resolve_future"};

template <std::size_t N>
bool names_any(const std::string& text, const std::string_view (&words)[N]) {
    for (std::string_view w : words)
        if (text.find(w) != std::string::npos) return true;
    return false;
}

std::string lower_ascii(std::string_view s) {
    std::string out(s);
    for (char& c : out)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return out;
}

// vLLM's Triton unified attention splits long sequences and reduces the segments in a
// kernel with this generic name (vllm/attention/ops/triton_unified_attention.py).
bool is_attention_reduction(const std::string& text) {
    return text == "reduce_segments";
}

}  // namespace

std::string_view to_string(KernelRole role) {
    switch (role) {
        case KernelRole::Gemm:
            return "gemm";
        case KernelRole::Attention:
            return "attention";
        case KernelRole::Communication:
            return "communication";
        case KernelRole::Normalization:
            return "normalization";
        case KernelRole::Elementwise:
            return "elementwise";
        case KernelRole::Sampling:
            return "sampling";
        case KernelRole::Copy:
            return "copy";
        case KernelRole::Other:
            return "other";
    }
    return "other";
}

std::string_view display_name(KernelRole role) {
    switch (role) {
        case KernelRole::Gemm:
            return "GEMM";
        case KernelRole::Attention:
            return "Attention";
        case KernelRole::Communication:
            return "Communication";
        case KernelRole::Normalization:
            return "Normalisation";
        case KernelRole::Elementwise:
            return "Activation / elementwise";
        case KernelRole::Sampling:
            return "Sampling";
        case KernelRole::Copy:
            return "Copy";
        case KernelRole::Other:
            return "Other";
    }
    return "Other";
}

std::optional<KernelRole> kernel_role_from_string(std::string_view key) {
    for (KernelRole r : kKernelRoles)
        if (to_string(r) == key) return r;
    return std::nullopt;
}

KernelRole kernel_role(std::string_view name) {
    if (trace::is_collective_kernel(name)) return KernelRole::Communication;
    const std::string text = lower_ascii(trace::signature_head(name));
    // A norm named for where it sits ("attn_rms_norm", the built-in decode's) is a norm.
    constexpr std::string_view kNamedNorms[] = {"rms_norm", "rmsnorm", "layer_norm", "layernorm"};
    if (names_any(text, kNamedNorms)) return KernelRole::Normalization;
    if (names_any(text, kAttention) || names_any(text, kAttentionParts) ||
        is_attention_reduction(text))
        return KernelRole::Attention;
    if (names_any(text, kGemm)) return KernelRole::Gemm;
    if (names_any(text, kSampling)) return KernelRole::Sampling;
    if (names_any(text, kRouting)) return KernelRole::Elementwise;
    if (names_any(text, kNormalization)) return KernelRole::Normalization;
    if (names_any(text, kCopy)) return KernelRole::Copy;
    if (names_any(text, kElementwise)) return KernelRole::Elementwise;
    return KernelRole::Other;
}

KernelRoles::KernelRoles(const trace::RunData& run) : run_(run), cache_(run.strings.size(), 0) {}

KernelRole KernelRoles::of_name(std::uint32_t name) {
    if (name >= cache_.size()) cache_.resize(std::size_t{name} + 1, 0);
    if (cache_[name] == 0)
        cache_[name] =
            static_cast<std::uint8_t>(1 + static_cast<int>(kernel_role(run_.strings.str(name))));
    return static_cast<KernelRole>(cache_[name] - 1);
}

std::optional<KernelRole> KernelRoles::of(const trace::Activity& a) {
    using trace::ActivityKind;
    if (a.kind == ActivityKind::Memcpy || a.kind == ActivityKind::Memset) return KernelRole::Copy;
    if (a.kind != ActivityKind::Kernel) return std::nullopt;
    if (a.lane < run_.lanes.size() && run_.lanes[a.lane].kind == trace::LaneKind::CpuThread)
        return std::nullopt;
    return of_name(a.name);
}

}  // namespace tokenscope::analysis
