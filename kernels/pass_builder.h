#pragma once

#include <cstdint>
#include <vector>

#include "decode_config.h"
#include "kernel_spec.h"
#include "model_shape.h"

namespace tokenscope::kernels {

enum class Sampler : std::uint8_t { None, Argmax, TopK, BeamTopK, SpecVerify };

// The sampler a decode strategy ends each target pass with (speculative decoding's
// verifier samples greedily: its acceptance test needs the argmax). The one mapping
// for the planner, the CUDA schedule and the CPU reference.
Sampler sampler_of(Strategy strategy);

// One forward pass of a model over `positions` new positions of each sequence,
// appended after `cached` positions already in the KV cache.
struct PassSpec {
    std::int64_t layers = 0;
    bool draft = false;
    std::int64_t sequences = 1;
    std::int64_t cached = 0;
    std::int64_t positions = 1;
    std::int64_t logit_rows = 1;  // rows per sequence that need logits; 0 = no head at all
    Sampler sampler = Sampler::Argmax;
    std::int64_t top_k = 1;    // TopK sampler
    std::int64_t drafted = 0;  // SpecVerify: draft tokens being checked per sequence
    bool reorder_kv = false;   // beam search gathers the cache by parent beam
};

// Work formulas per kernel. Conventions (the units every count follows):
// - a GEMM of M x K by K x N is 2*M*N*K FLOPs and reads both operands once, writes M x N;
// - activations and weights are in the model dtype, token ids int32, logits fp32
//   (sampling needs them exact), beam scores fp32;
// - elementwise FLOPs: RMSNorm 4 per element (square, sum, scale, weight), RoPE 3 per
//   rotated element (a pair is 4 mul + 2 add), SiLU*mul 5 (negate, exp, add, divide,
//   multiply), a residual add 1;
// - attention counts its two GEMMs (QK^T and PV, 2*head_dim each per query-key pair)
//   over the causal pairs only; the softmax's few FLOPs per score are left out.
class PassBuilder {
  public:
    explicit PassBuilder(const ModelShape& shape) : shape_(shape) {}

    void append(const PassSpec& pass, std::vector<KernelSpec>& out) const;
    // Bytes the pass's sampler writes: exactly what the host copies back afterwards.
    std::uint64_t sampler_output_bytes(const PassSpec& pass) const;

  private:
    void append_layer(const PassSpec& pass, std::int32_t layer, std::vector<KernelSpec>& out) const;
    void append_head(const PassSpec& pass, std::vector<KernelSpec>& out) const;
    KernelSpec sampler_kernel(const PassSpec& pass) const;

    ModelShape shape_;
};

}  // namespace tokenscope::kernels
