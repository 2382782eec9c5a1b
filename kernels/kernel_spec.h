#pragma once

#include <cstdint>
#include <string_view>

namespace tokenscope::kernels {

// Every kernel the workload launches. The MLP is three kernels (fused gate+up
// GEMM, SiLU*mul, down GEMM) as in unfused PyTorch / Hugging Face decoding.
enum class KernelOp : std::uint8_t {
    Embedding,
    AttnNorm,
    QkvProj,
    Rope,
    Attention,
    OProj,
    MlpNorm,
    MlpGateUp,
    SiluMul,
    MlpDown,
    FinalNorm,
    LmHead,
    Argmax,
    TopKSample,
    BeamTopK,
    KvReorder,
    SpecVerify,
};

// One kernel launch with its exact work for the iteration's batch and context.
struct KernelSpec {
    KernelOp op = KernelOp::Embedding;
    bool draft = false;       // launched by the speculative draft model
    std::int32_t layer = -1;  // block index; -1 outside the blocks
    std::uint64_t flops = 0;
    std::uint64_t bytes_read = 0;
    std::uint64_t bytes_written = 0;

    std::uint64_t bytes() const { return bytes_read + bytes_written; }
    // e.g. "qkv_proj", or "draft_qkv_proj" for the draft model's launch.
    std::string_view name() const;
    bool operator==(const KernelSpec&) const = default;
};

std::string_view kernel_op_name(KernelOp op, bool draft = false);

}  // namespace tokenscope::kernels
