// Causal attention over the KV cache, for prefill (many queries) and decode (one
// query, keys split along the sequence flash-decoding style) with one kernel.
#include <algorithm>
#include <cstdint>

#include "device_math.cuh"
#include "device_ops.h"
#include "dtype_dispatch.cuh"

namespace tokenscope::kernels::cuda {
namespace {

using i64 = long long;
constexpr int kWarps = 4;
constexpr i64 kKeysPerSplit = 256;

// Online softmax of one warp over keys begin + warp, begin + warp + kWarps, ...:
// running max m, normaliser l, and the weighted V sum in acc (head_dim floats).
template <typename T>
__device__ void warp_attend(const float* q, const T* keys, const T* values, i64 begin, i64 end,
                            i64 d, float scale, float& m, float& l, float* acc) {
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    for (i64 key = begin + warp; key < end; key += kWarps) {
        float dot = 0.0f;
        for (i64 e = lane; e < d; e += 32) dot += q[e] * to_float(keys[key * d + e]);
        const float score = warp_sum(dot) * scale;
        const float m_new = fmaxf(m, score);
        const float corr = expf(m - m_new);  // 0 on the first key (m = -inf)
        const float p = expf(score - m_new);
        l = l * corr + p;
        for (i64 e = lane; e < d; e += 32)
            acc[e] = acc[e] * corr + p * to_float(values[key * d + e]);
        m = m_new;
    }
}

// Combines the warps' partial softmaxes (m, l, acc rows of d) into output element e.
__device__ float combine_warps(const float* ms, const float* ls, const float* acc, i64 d, i64 e) {
    float big = -INFINITY;
    for (int w = 0; w < kWarps; ++w) big = fmaxf(big, ms[w]);
    if (big == -INFINITY) return 0.0f;  // no keys at all (cannot happen for causal queries)
    float l = 0.0f, o = 0.0f;
    for (int w = 0; w < kWarps; ++w) {
        const float scale = expf(ms[w] - big);
        l += ls[w] * scale;
        o += acc[w * d + e] * scale;
    }
    return o / l;
}

// grid.x = query * heads + head, grid.y = split. Shared memory: q (d), acc (kWarps x d),
// m and l per warp.
template <typename T>
__global__ void attention_kernel(const T* q, const T* k_cache, const T* v_cache, T* out,
                                 AttentionShape sh, int splits, float* partials,
                                 unsigned int* counters) {
    extern __shared__ float smem[];
    const i64 d = sh.head_dim;
    float* qs = smem;
    float* acc = qs + d;
    float* ms = acc + kWarps * d;
    float* ls = ms + kWarps;
    __shared__ bool last_block;

    const i64 query = blockIdx.x / sh.heads, head = blockIdx.x % sh.heads;
    const i64 s = query / sh.positions, j = query % sh.positions;
    const i64 kv_head = head / (sh.heads / sh.kv_heads);
    const i64 keys = sh.cached + j + 1;  // causal: itself and everything before
    const i64 chunk = (keys + splits - 1) / splits;
    const i64 begin = min(keys, static_cast<i64>(blockIdx.y) * chunk);
    const i64 end = min(keys, begin + chunk);

    for (i64 e = threadIdx.x; e < d; e += blockDim.x)
        qs[e] = to_float(q[(query * sh.heads + head) * d + e]);
    for (i64 e = threadIdx.x; e < kWarps * d; e += blockDim.x) acc[e] = 0.0f;
    __syncthreads();

    const i64 cache_off = (s * sh.kv_heads + kv_head) * sh.capacity * d;
    float m = -INFINITY, l = 0.0f;
    const int warp = threadIdx.x / 32;
    warp_attend(qs, k_cache + cache_off, v_cache + cache_off, begin, end, d,
                rsqrtf(static_cast<float>(d)), m, l, acc + warp * d);
    if (threadIdx.x % 32 == 0) {
        ms[warp] = m;
        ls[warp] = l;
    }
    __syncthreads();

    const i64 slot = query * sh.heads + head;
    if (splits == 1) {
        for (i64 e = threadIdx.x; e < d; e += blockDim.x)
            out[slot * d + e] = from_float<T>(combine_warps(ms, ls, acc, d, e));
        return;
    }
    // Split: publish this block's partial, then the last block of the slot reduces.
    float* mine = partials + (slot * splits + blockIdx.y) * (d + 2);
    float big = -INFINITY;
    for (int w = 0; w < kWarps; ++w) big = fmaxf(big, ms[w]);
    for (i64 e = threadIdx.x; e < d + 2; e += blockDim.x) {
        float v = 0.0f;
        for (int w = 0; w < kWarps; ++w) {
            const float scale = big == -INFINITY ? 0.0f : expf(ms[w] - big);
            v += (e == 0 ? 0.0f : e == 1 ? ls[w] : acc[w * d + e - 2]) * scale;
        }
        mine[e] = e == 0 ? big : v;
    }
    __threadfence();
    __syncthreads();
    if (threadIdx.x == 0) last_block = atomicAdd(&counters[slot], 1u) == splits - 1u;
    __syncthreads();
    if (!last_block) return;
    __threadfence();
    const float* all = partials + slot * splits * (d + 2);
    for (i64 e = threadIdx.x; e < d; e += blockDim.x) {
        float big_all = -INFINITY;
        for (int i = 0; i < splits; ++i) big_all = fmaxf(big_all, __ldcg(all + i * (d + 2)));
        float lsum = 0.0f, o = 0.0f;
        for (int i = 0; i < splits; ++i) {
            const float mi = __ldcg(all + i * (d + 2));
            const float w = mi == -INFINITY ? 0.0f : expf(mi - big_all);
            lsum += __ldcg(all + i * (d + 2) + 1) * w;
            o += __ldcg(all + i * (d + 2) + 2 + e) * w;
        }
        out[slot * d + e] = from_float<T>(o / lsum);
    }
    if (threadIdx.x == 0) counters[slot] = 0;  // ready for the next launch
}

}  // namespace

int attention_splits(const AttentionShape& shape) {
    if (shape.positions > 1) return 1;  // prefill and verification have queries enough
    const i64 keys = shape.cached + 1;
    return static_cast<int>(
        std::clamp<i64>((keys + kKeysPerSplit - 1) / kKeysPerSplit, 1, kMaxAttentionSplits));
}

void launch_attention(DType dtype, const void* q, const void* k_cache, const void* v_cache,
                      void* out, const AttentionShape& shape, int splits, float* partials,
                      unsigned int* counters, cudaStream_t stream) {
    const dim3 grid(static_cast<unsigned>(shape.sequences * shape.positions * shape.heads),
                    static_cast<unsigned>(splits));
    const std::size_t smem =
        static_cast<std::size_t>((1 + kWarps) * shape.head_dim + 2 * kWarps) * sizeof(float);
    dispatch_dtype(dtype, [&](auto tag) {
        using T = typename decltype(tag)::type;
        attention_kernel<T><<<grid, kWarps * 32, smem, stream>>>(
            static_cast<const T*>(q), static_cast<const T*>(k_cache),
            static_cast<const T*>(v_cache), static_cast<T*>(out), shape, splits, partials,
            counters);
    });
}

}  // namespace tokenscope::kernels::cuda
