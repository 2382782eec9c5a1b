#pragma once

// Host entry points of the kernels (defined in the .cu files). Pointers are device
// pointers; activations, weights and the KV cache are in `dtype`, logits and beam
// scores fp32, token ids int32. Each launcher enqueues exactly one kernel on
// `stream` (none for an empty problem) so launches match the plan one to one.
#include <cuda_runtime.h>

#include <cstdint>

#include "attention_plan.h"
#include "gemv_plan.h"
#include "kernels/model_shape.h"
#include "weight_layout.h"

namespace tokenscope::kernels::cuda {

// Fills one tensor from the seed's stream, converted to dtype (exact: see counter_draw.h).
void launch_init_weights(DType dtype, void* dst, const TensorDraws& tensor, std::uint64_t seed,
                         cudaStream_t stream);

// out[s * positions + j] = table[ids[s * seq_stride + j * pos_stride]] (rows of `hidden`).
void launch_embedding(DType dtype, const std::int32_t* ids, std::int64_t seq_stride,
                      std::int64_t pos_stride, std::int64_t sequences, std::int64_t positions,
                      const void* table, std::int64_t vocab, std::int64_t hidden, void* out,
                      cudaStream_t stream);

// RMSNorm of the last `rows_out` of every group of `rows_in` rows (the head normalises
// only the rows it samples): y[g * rows_out + r] = norm(x[g * rows_in + rows_in - rows_out + r]).
void launch_rms_norm(DType dtype, const void* x, const void* weight, void* y, std::int64_t groups,
                     std::int64_t rows_in, std::int64_t rows_out, std::int64_t hidden, float eps,
                     cudaStream_t stream);

// Decode GEMV scratch: with few output columns (n = hidden) one block per column tile
// leaves most SMs idle, so k is split over gemv_splits(k, n) blocks; each writes fp32
// partials and the last block of a tile reduces them in the same kernel (one launch,
// as the plan counts). partials: kMaxGemvRows * splits * n floats; counters: one per
// 32-column tile, zero before the first use (the kernel leaves them zero).
struct GemvScratch {
    float* partials = nullptr;
    unsigned int* counters = nullptr;
};

// y[m][n] = sum_k x[m][k] w[k][n] (+ residual[m][n]); w is [k][n] row-major. y is fp32
// when y_fp32 (logits), else dtype. residual may alias y. A split-k GEMV kernel for
// m <= kMaxGemvRows (decode), a tiled GEMM otherwise (prefill).
void launch_matmul(DType dtype, const void* x, const void* w, void* y, bool y_fp32,
                   const void* residual, std::int64_t m, std::int64_t k, std::int64_t n,
                   const GemvScratch& scratch, cudaStream_t stream);

struct AttentionShape {
    std::int64_t sequences = 1;
    std::int64_t positions = 1;  // new query positions per sequence
    std::int64_t cached = 0;     // KV positions before them
    std::int64_t heads = 1;
    std::int64_t kv_heads = 1;
    std::int64_t head_dim = 64;
    std::int64_t capacity = 1;  // KV cache positions per sequence and head
    // Where a replayed CUDA graph keeps the live `cached` (device memory, written by the
    // iteration's upload); null: `cached` as given.
    const std::int32_t* cached_dev = nullptr;
};

// Rotates q and k of the fused qkv rows in place-free fashion: q goes to q_out
// [tokens][heads * head_dim], k and v into the layer's cache [seq][kv_head][pos][dim].
// cos/sin tables are [capacity][head_dim / 2].
void launch_rope(DType dtype, const void* qkv, void* q_out, void* k_cache, void* v_cache,
                 const AttentionShape& shape, const float* cos_table, const float* sin_table,
                 cudaStream_t stream);

// Causal attention of every new query over the cache (positions < cached + j + 1 for
// query j). `splits` > 1 splits the keys flash-decoding style: each block writes a
// partial softmax to `partials` and the last block of a slot reduces them, in the same
// kernel. Decode with 16-bit storage (decode_attention_vectorised) runs one block per
// (sequence, KV head, split) for the whole query-head group, with 16-byte loads.
// partials: queries * heads * splits * (head_dim + 2) floats; counters: queries * heads
// ints, zero before the first use (the kernel leaves them zero).
void launch_attention(DType dtype, const void* q, const void* k_cache, const void* v_cache,
                      void* out, const AttentionShape& shape, int splits, float* partials,
                      unsigned int* counters, cudaStream_t stream);
// The prefill_attention_tensor_cores shapes of launch_attention (it calls this for them).
void launch_prefill_attention(DType dtype, const void* q, const void* k_cache, const void* v_cache,
                              void* out, const AttentionShape& shape, cudaStream_t stream);

// What the runner passes as splits (attention_plan.h); with cached_dev set, for a launch
// that must serve every context up to the cache's capacity.
int attention_splits(const AttentionShape& shape, DType dtype, int sm_count);

// out[t][i] = silu(gu[t][i]) * gu[t][ffn + i].
void launch_silu_mul(DType dtype, const void* gate_up, void* out, std::int64_t tokens,
                     std::int64_t ffn, cudaStream_t stream);

// Greedy argmax scratch: a vocabulary row (128256 fp32 logits for Llama 3) read by one
// block took 57 us on an H200, so each row is split over kArgmaxChunks blocks and the
// last block of a row reduces their candidates. partials: rows * kArgmaxChunks * 16
// bytes; counters: one per row, zero before the first use (the kernel leaves them zero).
constexpr int kArgmaxChunks = 32;
struct ArgmaxScratch {
    void* partials = nullptr;
    unsigned int* counters = nullptr;
};

// Greedy: out[r * out_stride] = argmax of logits row r (first maximum). Without scratch,
// one block per row.
void launch_argmax(const float* logits, std::int64_t rows, std::int64_t vocab, std::int32_t* out,
                   std::int64_t out_stride, const ArgmaxScratch& scratch, cudaStream_t stream);

// Top-k sampling at temperature 1: softmax over the k largest logits, one seeded draw
// per row (sample_uniform(seed, row, iteration)). scratch: rows * k floats and ints.
// iteration_dev: where a replayed CUDA graph keeps the live iteration (null: `iteration`).
void launch_topk_sample(const float* logits, std::int64_t rows, std::int64_t vocab, std::int64_t k,
                        std::uint64_t seed, std::int64_t iteration,
                        const std::int32_t* iteration_dev, float* scratch_values,
                        std::int32_t* scratch_ids, std::int32_t* out, cudaStream_t stream);

// Beam search: per request, the `beams` best (beam score + log-softmax) candidates over
// beams x vocab; writes out_ids, out_parents (global sequence index) and out_scores
// (each requests * beams). lse_scratch: requests * beams floats.
void launch_beam_topk(const float* logits, std::int64_t requests, std::int64_t beams,
                      std::int64_t vocab, const float* scores_in, float* lse_scratch,
                      std::int32_t* out_ids, std::int32_t* out_parents, float* out_scores,
                      cudaStream_t stream);

// Speculative verification: per sequence, the argmax of each of rows = gamma + 1 logit
// rows into out_ids[s * rows + i], and out_accepted[s] = how many leading drafts
// (drafted[s * seq_stride + i * pos_stride], i < gamma) equal the target's argmax.
void launch_spec_verify(const float* logits, std::int64_t sequences, std::int64_t gamma,
                        std::int64_t vocab, const std::int32_t* drafted, std::int64_t seq_stride,
                        std::int64_t pos_stride, std::int32_t* out_ids, std::int32_t* out_accepted,
                        cudaStream_t stream);

// Beam search: dst sequence s takes positions 0..valid-1 of src sequence parents[s], for
// every layer's K and V. Cache layout [layer][k|v][seq][kv_head][capacity][head_dim].
void launch_kv_reorder(DType dtype, const void* src, void* dst, const std::int32_t* parents,
                       std::int64_t layers, std::int64_t sequences, std::int64_t kv_heads,
                       std::int64_t capacity, std::int64_t valid, std::int64_t head_dim,
                       cudaStream_t stream);

}  // namespace tokenscope::kernels::cuda
