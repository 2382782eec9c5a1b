#pragma once

// How the attention kernels split their work (attention_kernels.cu); CUDA-free so that
// sizing code and tests can use it without the CUDA headers.
#include <cstdint>

#include "kernels/model_shape.h"

namespace tokenscope::kernels::cuda {

constexpr int kMaxAttentionSplits = 16;
// A decode split reads at least this many keys: fewer and the partials cost more than
// the keys they save waiting for.
constexpr std::int64_t kMinKeysPerSplit = 128;
// The decode kernel's block: 4 warps; 16-byte loads, so head_dim / 8 lanes per key.
constexpr int kDecodeAttentionThreads = 128;
constexpr int kMaxDecodeGroup = 8;  // query heads per KV head one block serves

// The tensor-core prefill kernel (prefill_attention.cu): blocks of kPrefillWarps warps,
// each warp kPrefillRowsPerWarp query rows, keys in tiles of kPrefillTileKeys.
constexpr int kPrefillWarps = 4;
constexpr int kPrefillRowsPerWarp = 16;
constexpr int kPrefillTileKeys = 64;

// Its shared memory (rows padded against bank conflicts): K and V tiles [64][d + 8] in
// 16-bit storage, and per warp an fp32 scratch [16][64 + 4], P's two 16-bit parts
// [16][64 + 8] and the fp32 output rows [16][d + 4].
constexpr int prefill_attention_shared_bytes(int head_dim) {
    const int rows = kPrefillRowsPerWarp, keys = kPrefillTileKeys;
    const int per_warp =
        rows * (keys + 4) * 4 + 2 * rows * (keys + 8) * 2 + rows * (head_dim + 4) * 4;
    return 2 * keys * (head_dim + 8) * 2 + kPrefillWarps * per_warp;
}

// Whether prefill and verification (more than one query per sequence) run on the
// tensor-core kernel: 16-bit storage and head_dim 64 or 128 (Llama 3.2 1B, 3.1 8B/70B).
// Elsewhere the general kernel runs.
bool prefill_attention_tensor_cores(DType dtype, std::int64_t positions, std::int64_t head_dim);

// Key ranges each (sequence, KV head) of a decode step is split into: enough blocks for
// about two per SM, at least kMinKeysPerSplit keys each, at most kMaxAttentionSplits.
// `keys` is the most keys the launch may see (a CUDA graph replayed over a growing
// context is launched once for the cache's capacity).
int decode_attention_splits(std::int64_t sequences, std::int64_t kv_heads, std::int64_t keys,
                            int sm_count);

// Whether the vectorised decode kernel handles the shape: one query per sequence, 16-bit
// storage, head_dim a multiple of 8 from 32 to 256, at most kMaxDecodeGroup query heads
// per KV head. Elsewhere the general kernel runs (prefill, verification, fp32).
bool decode_attention_vectorised(DType dtype, std::int64_t positions, std::int64_t heads,
                                 std::int64_t kv_heads, std::int64_t head_dim);

// Shared memory of the vectorised decode kernel: per key stream of the block (128 threads,
// head_dim / 8 lanes per stream) and query head of its group, a running max, a sum and
// head_dim accumulators, in fp32.
std::int64_t decode_attention_shared_bytes(std::int64_t group, std::int64_t head_dim);

// The group size the kernel is instantiated for: the smallest of 1, 2, 4, 8 that holds
// heads / kv_heads.
int decode_attention_group_slots(std::int64_t group);

}  // namespace tokenscope::kernels::cuda
