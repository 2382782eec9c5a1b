#pragma once

#include <cstdint>

#include "rope_table.h"
#include "work_meter.h"

// The fp32 math of every kernel. Each function bills its work to the meter from the
// trip counts of the loops it runs. A token's result never depends on how many other
// tokens share the call (per-row summation order is fixed), so a prefill GEMM and a
// decode GEMV give bit-identical rows: the speculative target pass reproduces the
// draft's and greedy decoding's numbers exactly.
namespace tokenscope::kernels::cpu {

inline constexpr float kRmsEps = 1e-5f;

// y[r] = x[r] / sqrt(mean(x[r]^2) + eps) * w, for `rows` rows of n.
void rms_norm(const float* x, const float* w, float* y, std::int64_t rows, std::int64_t n,
              WorkMeter& meter);

// What a GEMM does with its product: store it (model dtype), add it to y (the
// residual add fused into the epilogue: the product is summed first, then added), or
// store it as fp32 logits (billed as 4-byte words).
enum class Epilogue : std::uint8_t { Store, AddResidual, StoreLogits };

// y (op)= x W for x [rows][in] and W [in][out].
void matmul(const float* x, const float* w, float* y, std::int64_t rows, std::int64_t in,
            std::int64_t out, Epilogue epilogue, WorkMeter& meter);

// Rotates `heads` consecutive head vectors of one token at position `pos` in place.
void rope(float* heads_data, std::int64_t heads, std::int64_t pos, const RopeTable& table,
          WorkMeter& meter);

// One query head over `count` keys and values ([count][d], contiguous):
// out = softmax(q . k_i / sqrt(d)) V. `scores` has room for count floats. Bills 4d FLOPs
// per query-key pair (the two GEMMs; the softmax's are left out, as in the planner).
void attend(const float* q, const float* keys, const float* values, std::int64_t count,
            std::int64_t d, float* out, float* scores, WorkMeter& meter);

// out[r][i] = silu(g) * u with g = gate_up[r][i], u = gate_up[r][ffn + i].
void silu_mul(const float* gate_up, float* out, std::int64_t rows, std::int64_t ffn,
              WorkMeter& meter);

// Fixed-order dot product (four interleaved partial sums, then their sum).
float dot(const float* a, const float* b, std::int64_t n);

}  // namespace tokenscope::kernels::cpu
