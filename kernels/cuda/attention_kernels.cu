// Causal attention over the KV cache. Decode (one query per sequence, 16-bit storage):
// a split-KV flash-decoding kernel with 16-byte loads, one block per (sequence, KV
// head, key range) serving every query head of the KV head's group, so K and V are read
// once per step as the plan counts. Prefill and verification in 16-bit storage: the
// tensor-core kernel of prefill_attention.cu. fp32 and other head sizes: a general
// kernel, one block per (query, head). Both split the keys flash-decoding style, publish fp32
// partial softmaxes and let the last block of a slot reduce them, in one launch.
#include <algorithm>
#include <cstdint>

#include "attention_plan.h"
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
    const i64 cached = sh.cached_dev != nullptr ? *sh.cached_dev : sh.cached;
    const i64 keys = cached + j + 1;  // causal: itself and everything before
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

// --- decode: split-KV, 16-byte loads, GQA groups ---------------------------------------

constexpr int kDecodeUnroll = 2;  // keys in flight per stream and step

// grid.x = sequence * kv_heads + kv_head, grid.y = split; 128 threads. A key is read by
// L = head_dim / 8 lanes (one 16-byte load each of K and V); a warp holds 32 / L key
// streams, the block 4 times that. Every stream keeps, per query head g of the group,
// the running max m, the normaliser l and its lanes' 8 accumulators; the block combines
// its streams in shared memory, then the splits combine as in attention_kernel.
template <typename T, int L, int G>
__global__ void __launch_bounds__(kDecodeAttentionThreads)
    decode_attention_kernel(const T* q, const T* k_cache, const T* v_cache, T* out,
                            AttentionShape sh, int group, int splits, float* partials,
                            unsigned int* counters) {
    constexpr int kStreamsPerWarp = 32 / L;
    constexpr int kStreams = kDecodeAttentionThreads / 32 * kStreamsPerWarp;
    constexpr int d = L * 8;
    extern __shared__ float smem[];
    float* sm_m = smem;                   // [kStreams][G]
    float* sm_l = sm_m + kStreams * G;    // [kStreams][G]
    float* sm_acc = sm_l + kStreams * G;  // [kStreams][G][d]
    __shared__ bool last_block;

    const i64 s = blockIdx.x / sh.kv_heads, kvh = blockIdx.x % sh.kv_heads;
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const int sub = lane / L, li = lane % L;
    const int stream = warp * kStreamsPerWarp + sub;
    const i64 cached = sh.cached_dev != nullptr ? *sh.cached_dev : sh.cached;
    const i64 keys = cached + 1;
    const i64 chunk = (keys + splits - 1) / splits;
    const i64 begin = min(keys, static_cast<i64>(blockIdx.y) * chunk);
    const i64 end = min(keys, begin + chunk);
    const float scale = rsqrtf(static_cast<float>(d));

    // q of the group's heads, this lane's 8 elements, pre-scaled.
    float qf[G][8];
    const i64 head0 = kvh * group;
#pragma unroll
    for (int g = 0; g < G; ++g) {
        if (g < group) {
            const uint4 v =
                *reinterpret_cast<const uint4*>(q + ((s * sh.heads + head0 + g) * d) + li * 8);
            unpack8<T>(v, qf[g]);
#pragma unroll
            for (int e = 0; e < 8; ++e) qf[g][e] *= scale;
        } else {
#pragma unroll
            for (int e = 0; e < 8; ++e) qf[g][e] = 0.0f;
        }
    }
    float m[G], l[G], acc[G][8];
#pragma unroll
    for (int g = 0; g < G; ++g) {
        m[g] = -INFINITY;
        l[g] = 0.0f;
#pragma unroll
        for (int e = 0; e < 8; ++e) acc[g][e] = 0.0f;
    }

    const i64 cache_off = (s * sh.kv_heads + kvh) * sh.capacity * d;
    const uint4* kp = reinterpret_cast<const uint4*>(k_cache + cache_off) + li;
    const uint4* vp = reinterpret_cast<const uint4*>(v_cache + cache_off) + li;
    // Warp-uniform trip count (the shuffles need every lane); each stream's keys are
    // k0 + sub + u * kStreams, so a step of the block covers kStreams * kDecodeUnroll keys.
    for (i64 k0 = begin + warp * kStreamsPerWarp; k0 < end; k0 += kStreams * kDecodeUnroll) {
        uint4 kv[kDecodeUnroll], vv[kDecodeUnroll];
        bool valid[kDecodeUnroll];
#pragma unroll
        for (int u = 0; u < kDecodeUnroll; ++u) {
            const i64 key = k0 + sub + u * kStreams;
            valid[u] = key < end;
            if (valid[u]) {
                kv[u] = __ldg(kp + key * L);
                vv[u] = __ldg(vp + key * L);
            } else {
                kv[u] = vv[u] = make_uint4(0, 0, 0, 0);
            }
        }
#pragma unroll
        for (int u = 0; u < kDecodeUnroll; ++u) {
            float kf[8], vf[8];
            unpack8<T>(kv[u], kf);
            unpack8<T>(vv[u], vf);
#pragma unroll
            for (int g = 0; g < G; ++g) {
                float dot = 0.0f;
#pragma unroll
                for (int e = 0; e < 8; ++e) dot += qf[g][e] * kf[e];
#pragma unroll
                for (int o = L / 2; o > 0; o /= 2) dot += __shfl_xor_sync(0xffffffffu, dot, o);
                if (!valid[u] || g >= group) continue;
                const float m_new = fmaxf(m[g], dot);
                const float corr = expf(m[g] - m_new);  // 0 on the first key (m = -inf)
                const float p = expf(dot - m_new);
                l[g] = l[g] * corr + p;
#pragma unroll
                for (int e = 0; e < 8; ++e) acc[g][e] = acc[g][e] * corr + p * vf[e];
                m[g] = m_new;
            }
        }
    }

    // The block's streams into shared memory, then one thread per (head, element).
#pragma unroll
    for (int g = 0; g < G; ++g) {
        if (li == 0) {
            sm_m[stream * G + g] = m[g];
            sm_l[stream * G + g] = l[g];
        }
#pragma unroll
        for (int e = 0; e < 8; ++e) sm_acc[(stream * G + g) * d + li * 8 + e] = acc[g][e];
    }
    __syncthreads();
    const i64 slot0 = s * sh.heads + head0;  // the group's first (sequence, head) slot
    for (int i = threadIdx.x; i < group * d; i += blockDim.x) {
        const int g = i / d, e = i % d;
        float big = -INFINITY;
        for (int t = 0; t < kStreams; ++t) big = fmaxf(big, sm_m[t * G + g]);
        float lsum = 0.0f, o = 0.0f;
        if (big != -INFINITY) {
            for (int t = 0; t < kStreams; ++t) {
                const float w = sm_m[t * G + g] == -INFINITY ? 0.0f : expf(sm_m[t * G + g] - big);
                lsum += sm_l[t * G + g] * w;
                o += sm_acc[(t * G + g) * d + e] * w;
            }
        }
        if (splits == 1) {
            out[(slot0 + g) * d + e] = from_float<T>(lsum > 0.0f ? o / lsum : 0.0f);
            continue;
        }
        float* mine = partials + ((slot0 + g) * splits + blockIdx.y) * (d + 2);
        if (e == 0) {
            mine[0] = big;
            mine[1] = lsum;
        }
        mine[2 + e] = o;
    }
    if (splits == 1) return;
    __threadfence();
    __syncthreads();
    unsigned int* counter = counters + blockIdx.x;
    if (threadIdx.x == 0) last_block = atomicAdd(counter, 1u) == splits - 1u;
    __syncthreads();
    if (!last_block) return;
    __threadfence();
    for (int i = threadIdx.x; i < group * d; i += blockDim.x) {
        const int g = i / d, e = i % d;
        const float* all = partials + (slot0 + g) * splits * (d + 2);
        float big = -INFINITY;
        for (int t = 0; t < splits; ++t) big = fmaxf(big, __ldcg(all + t * (d + 2)));
        float lsum = 0.0f, o = 0.0f;
        for (int t = 0; t < splits; ++t) {
            const float mt = __ldcg(all + t * (d + 2));
            const float w = mt == -INFINITY ? 0.0f : expf(mt - big);
            lsum += __ldcg(all + t * (d + 2) + 1) * w;
            o += __ldcg(all + t * (d + 2) + 2 + e) * w;
        }
        out[(slot0 + g) * d + e] = from_float<T>(lsum > 0.0f ? o / lsum : 0.0f);
    }
    if (threadIdx.x == 0) *counter = 0;  // ready for the next launch
}

template <typename T, int L>
void launch_decode_lanes(const T* q, const T* k, const T* v, T* out, const AttentionShape& sh,
                         int splits, float* partials, unsigned int* counters, cudaStream_t stream) {
    const int group = static_cast<int>(sh.heads / sh.kv_heads);
    const dim3 grid(static_cast<unsigned>(sh.sequences * sh.kv_heads),
                    static_cast<unsigned>(splits));
    const int slots = decode_attention_group_slots(group);
    const auto smem = static_cast<std::size_t>(decode_attention_shared_bytes(slots, L * 8));
    switch (slots) {
        case 1:
            decode_attention_kernel<T, L, 1><<<grid, kDecodeAttentionThreads, smem, stream>>>(
                q, k, v, out, sh, group, splits, partials, counters);
            return;
        case 2:
            decode_attention_kernel<T, L, 2><<<grid, kDecodeAttentionThreads, smem, stream>>>(
                q, k, v, out, sh, group, splits, partials, counters);
            return;
        case 4:
            decode_attention_kernel<T, L, 4><<<grid, kDecodeAttentionThreads, smem, stream>>>(
                q, k, v, out, sh, group, splits, partials, counters);
            return;
        default:
            decode_attention_kernel<T, L, kMaxDecodeGroup>
                <<<grid, kDecodeAttentionThreads, smem, stream>>>(q, k, v, out, sh, group, splits,
                                                                  partials, counters);
    }
}

template <typename T>
void launch_decode(const T* q, const T* k, const T* v, T* out, const AttentionShape& sh, int splits,
                   float* partials, unsigned int* counters, cudaStream_t stream) {
    switch (sh.head_dim / 8) {
        case 4:
            return launch_decode_lanes<T, 4>(q, k, v, out, sh, splits, partials, counters, stream);
        case 8:
            return launch_decode_lanes<T, 8>(q, k, v, out, sh, splits, partials, counters, stream);
        case 16:
            return launch_decode_lanes<T, 16>(q, k, v, out, sh, splits, partials, counters, stream);
        default:
            return launch_decode_lanes<T, 32>(q, k, v, out, sh, splits, partials, counters, stream);
    }
}

}  // namespace

int attention_splits(const AttentionShape& shape, DType dtype, int sm_count) {
    if (shape.positions > 1) return 1;  // prefill and verification have queries enough
    // A graph replayed over a growing context is launched once, for the most keys.
    const i64 keys = shape.cached_dev != nullptr ? shape.capacity : shape.cached + 1;
    if (decode_attention_vectorised(dtype, shape.positions, shape.heads, shape.kv_heads,
                                    shape.head_dim))
        return decode_attention_splits(shape.sequences, shape.kv_heads, keys, sm_count);
    return static_cast<int>(
        std::clamp<i64>((keys + kKeysPerSplit - 1) / kKeysPerSplit, 1, kMaxAttentionSplits));
}

void launch_attention(DType dtype, const void* q, const void* k_cache, const void* v_cache,
                      void* out, const AttentionShape& shape, int splits, float* partials,
                      unsigned int* counters, cudaStream_t stream) {
    if (prefill_attention_tensor_cores(dtype, shape.positions, shape.head_dim)) {
        launch_prefill_attention(dtype, q, k_cache, v_cache, out, shape, stream);
        return;
    }
    if (decode_attention_vectorised(dtype, shape.positions, shape.heads, shape.kv_heads,
                                    shape.head_dim)) {
        dispatch_dtype(dtype, [&](auto tag) {
            using T = typename decltype(tag)::type;
            if constexpr (sizeof(T) == 2)
                launch_decode<T>(static_cast<const T*>(q), static_cast<const T*>(k_cache),
                                 static_cast<const T*>(v_cache), static_cast<T*>(out), shape,
                                 splits, partials, counters, stream);
        });
        return;
    }
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
