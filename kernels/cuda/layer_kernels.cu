// Per-token kernels of a block: weight fill, embedding gather, RMSNorm, the matrix
// products, RoPE and SiLU*mul. Clear before fast: fp32 accumulation, grid-stride loops.
#include <algorithm>
#include <cstdint>

#include "counter_draw.h"
#include "device_math.cuh"
#include "device_ops.h"
#include "dtype_dispatch.cuh"
#include "gemv_kernels.cuh"

namespace tokenscope::kernels::cuda {
namespace {

using i64 = long long;

template <typename T>
__global__ void init_weights_kernel(T* dst, i64 n, std::uint64_t seed, std::uint64_t first,
                                    DrawKind kind, float step) {
    for (i64 i = blockIdx.x * static_cast<i64>(blockDim.x) + threadIdx.x; i < n;
         i += static_cast<i64>(gridDim.x) * blockDim.x)
        dst[i] = from_float<T>(weight_from_draw(
            splitmix_draw(seed, first + static_cast<std::uint64_t>(i)), kind, step));
}

template <typename T>
__global__ void embedding_kernel(const std::int32_t* ids, i64 seq_stride, i64 pos_stride,
                                 i64 positions, const T* table, i64 vocab, i64 hidden, T* out) {
    const i64 token = blockIdx.x;
    const i64 s = token / positions, j = token % positions;
    const std::int32_t id = ids[s * seq_stride + j * pos_stride];
    const bool valid = id >= 0 && id < vocab;  // a bad id shows as NaN, never a fault
    for (i64 e = threadIdx.x; e < hidden; e += blockDim.x)
        out[token * hidden + e] = valid ? table[id * hidden + e] : from_float<T>(NAN);
}

template <typename T>
__global__ void rms_norm_kernel(const T* x, const T* w, T* y, i64 rows_in, i64 rows_out, i64 hidden,
                                float eps) {
    __shared__ float scratch[32];
    const i64 out_row = blockIdx.x;
    const i64 g = out_row / rows_out, r = out_row % rows_out;
    const T* in = x + (g * rows_in + rows_in - rows_out + r) * hidden;
    float sq = 0.0f;
    for (i64 e = threadIdx.x; e < hidden; e += blockDim.x) {
        const float v = to_float(in[e]);
        sq += v * v;
    }
    const float total = block_sum(sq, scratch);
    const float inv = 1.0f / sqrtf(total / static_cast<float>(hidden) + eps);
    for (i64 e = threadIdx.x; e < hidden; e += blockDim.x)
        y[out_row * hidden + e] = from_float<T>(to_float(in[e]) * inv * to_float(w[e]));
}

bool aligned16(const void* p) {
    return reinterpret_cast<std::uintptr_t>(p) % 16 == 0;
}

// RMSNorm with 16-byte loads and stores (16-bit storage, hidden a multiple of 8).
template <typename T>
__global__ void rms_norm_vec_kernel(const T* x, const T* w, T* y, i64 rows_in, i64 rows_out,
                                    i64 hidden, float eps) {
    __shared__ float scratch[32];
    const i64 out_row = blockIdx.x;
    const i64 g = out_row / rows_out, r = out_row % rows_out;
    const auto* in =
        reinterpret_cast<const uint4*>(x + (g * rows_in + rows_in - rows_out + r) * hidden);
    const auto* wv = reinterpret_cast<const uint4*>(w);
    auto* outv = reinterpret_cast<uint4*>(y + out_row * hidden);
    const i64 chunks = hidden / 8;
    float sq = 0.0f;
    for (i64 c = threadIdx.x; c < chunks; c += blockDim.x) {
        float f[8];
        unpack8<T>(in[c], f);
#pragma unroll
        for (int i = 0; i < 8; ++i) sq += f[i] * f[i];
    }
    const float total = block_sum(sq, scratch);
    const float inv = 1.0f / sqrtf(total / static_cast<float>(hidden) + eps);
    for (i64 c = threadIdx.x; c < chunks; c += blockDim.x) {
        float f[8], wf[8];
        unpack8<T>(in[c], f);
        unpack8<T>(wv[c], wf);
#pragma unroll
        for (int i = 0; i < 8; ++i) f[i] = f[i] * inv * wf[i];
        outv[c] = pack8<T>(f);
    }
}

// SwiGLU, silu(gate) * up, eight elements per thread with 16-byte loads (ffn % 8 == 0).
template <typename T>
__global__ void silu_mul_vec_kernel(const T* gu, T* out, i64 tokens, i64 ffn) {
    const i64 chunks = ffn / 8;
    for (i64 i = blockIdx.x * static_cast<i64>(blockDim.x) + threadIdx.x; i < tokens * chunks;
         i += static_cast<i64>(gridDim.x) * blockDim.x) {
        const i64 t = i / chunks, c = i % chunks;
        const auto* row = reinterpret_cast<const uint4*>(gu + t * 2 * ffn);
        float g[8], u[8];
        unpack8<T>(row[c], g);
        unpack8<T>(row[chunks + c], u);
#pragma unroll
        for (int e = 0; e < 8; ++e) g[e] = g[e] / (1.0f + expf(-g[e])) * u[e];
        reinterpret_cast<uint4*>(out)[i] = pack8<T>(g);
    }
}

constexpr int kGemmTile = 64;     // outputs per block side
constexpr int kGemmDepth = 16;    // k per shared-memory stage
constexpr int kGemmThreads = 16;  // per block side; each thread owns 4 x 4 outputs
constexpr int kGemmPerThread = kGemmTile / kGemmThreads;

// Prefill: 64 x 64 output tiles, fp32 in shared memory, each thread accumulating a
// 4 x 4 register block so that one shared load feeds several FMAs. A thread's rows
// and columns are 16 apart, so a warp reads consecutive banks and stores coalesced.
template <typename T, typename Out>
__global__ void __launch_bounds__(kGemmThreads* kGemmThreads)
    gemm_kernel(const T* x, const T* w, Out* y, const Out* residual, i64 m, i64 k, i64 n) {
    __shared__ float xs[kGemmDepth]
                       [kGemmTile + 1];  // +1: the transposing stores hit distinct banks
    __shared__ float ws[kGemmDepth][kGemmTile];
    const int tid = threadIdx.x;
    const int tr = tid / kGemmThreads, tc = tid % kGemmThreads;
    const i64 row0 = blockIdx.y * static_cast<i64>(kGemmTile);
    const i64 col0 = blockIdx.x * static_cast<i64>(kGemmTile);
    float acc[kGemmPerThread][kGemmPerThread] = {};
    for (i64 k0 = 0; k0 < k; k0 += kGemmDepth) {
        for (int i = tid; i < kGemmTile * kGemmDepth; i += blockDim.x) {
            const int r = i / kGemmDepth, kk = i % kGemmDepth;  // x is [m][k]: k fastest
            const i64 gr = row0 + r, gk = k0 + kk;
            xs[kk][r] = gr < m && gk < k ? to_float(x[gr * k + gk]) : 0.0f;
        }
        for (int i = tid; i < kGemmTile * kGemmDepth; i += blockDim.x) {
            const int kk = i / kGemmTile, c = i % kGemmTile;  // w is [k][n]: n fastest
            const i64 gk = k0 + kk, gc = col0 + c;
            ws[kk][c] = gk < k && gc < n ? to_float(w[gk * n + gc]) : 0.0f;
        }
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < kGemmDepth; ++kk) {
            float a[kGemmPerThread], b[kGemmPerThread];
#pragma unroll
            for (int i = 0; i < kGemmPerThread; ++i) {
                a[i] = xs[kk][tr + i * kGemmThreads];
                b[i] = ws[kk][tc + i * kGemmThreads];
            }
#pragma unroll
            for (int i = 0; i < kGemmPerThread; ++i)
#pragma unroll
                for (int j = 0; j < kGemmPerThread; ++j) acc[i][j] += a[i] * b[j];
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < kGemmPerThread; ++i) {
        const i64 row = row0 + tr + i * kGemmThreads;
        if (row >= m) continue;
#pragma unroll
        for (int j = 0; j < kGemmPerThread; ++j) {
            const i64 col = col0 + tc + j * kGemmThreads;
            if (col >= n) continue;
            float v = acc[i][j];
            if (residual) v += to_float(residual[row * n + col]);
            y[row * n + col] = from_float<Out>(v);
        }
    }
}

// grid = (tokens, ceil(width / blockDim.x)): one element of the token's fused qkv row
// per thread. 32-bit index arithmetic: with one block per token and 64-bit divisions
// this kernel took 7 us a layer for 8 decode tokens on an H200.
template <typename T>
__global__ void rope_kernel(const T* qkv, T* q_out, T* k_cache, T* v_cache, AttentionShape sh,
                            const float* cos_table, const float* sin_table) {
    const i64 token = blockIdx.x;
    const int d = static_cast<int>(sh.head_dim), half = d / 2;
    const int q_width = static_cast<int>(sh.heads) * d,
              kv_width = static_cast<int>(sh.kv_heads) * d;
    const int idx = static_cast<int>(blockIdx.y * blockDim.x + threadIdx.x);
    if (idx >= q_width + 2 * kv_width) return;
    const i64 s = token / sh.positions, j = token % sh.positions;
    const i64 pos = (sh.cached_dev != nullptr ? *sh.cached_dev : sh.cached) + j;
    const T* in = qkv + token * (q_width + 2 * kv_width);
    const int e = idx % d;
    float v = to_float(in[idx]);
    if (idx < q_width + kv_width) {  // q and k rotate; v passes through
        const int i = e < half ? e : e - half;
        const float c = cos_table[pos * half + i], sn = sin_table[pos * half + i];
        v = e < half ? v * c - to_float(in[idx + half]) * sn
                     : v * c + to_float(in[idx - half]) * sn;
    }
    if (idx < q_width) {
        q_out[token * q_width + idx] = from_float<T>(v);
        return;
    }
    const bool is_k = idx < q_width + kv_width;
    const int head = (idx - q_width - (is_k ? 0 : kv_width)) / d;
    T* cache = is_k ? k_cache : v_cache;
    cache[((s * sh.kv_heads + head) * sh.capacity + pos) * d + e] = from_float<T>(v);
}

template <typename T>
__global__ void silu_mul_kernel(const T* gu, T* out, i64 tokens, i64 ffn) {
    for (i64 i = blockIdx.x * static_cast<i64>(blockDim.x) + threadIdx.x; i < tokens * ffn;
         i += static_cast<i64>(gridDim.x) * blockDim.x) {
        const i64 t = i / ffn, c = i % ffn;
        const float g = to_float(gu[t * 2 * ffn + c]);
        const float u = to_float(gu[t * 2 * ffn + ffn + c]);
        out[i] = from_float<T>(g / (1.0f + expf(-g)) * u);
    }
}

template <typename T, typename Out>
void matmul_typed(const T* x, const T* w, Out* y, const Out* residual, i64 m, i64 k, i64 n,
                  const GemvScratch& scratch, cudaStream_t stream) {
    if (m <= kMaxGemvRows) {
        const bool split = scratch.partials && scratch.counters;
        const i64 splits = split ? gemv_splits(k, n) : 1;
        if (n % gemv::kPackColumns == 0 && reinterpret_cast<std::uintptr_t>(w) % 16 == 0) {
            const dim3 grid(static_cast<unsigned>((n + gemv::kPackTile - 1) / gemv::kPackTile),
                            static_cast<unsigned>(splits));
            gemv::gemv_pack_kernel<T, Out>
                <<<grid, gemv::kPackThreads * gemv::kPackSlices, 0, stream>>>(
                    x, w, y, residual, m, k, n, static_cast<int>(splits), scratch.partials,
                    scratch.counters);
            return;
        }
        // Fewer splits over more, narrower tiles: within what the scratch was sized for.
        const i64 tiles = (n + kGemvTileColumns - 1) / kGemvTileColumns;
        const i64 narrow = split ? std::max<i64>(1, std::min<i64>(splits, 512 / tiles)) : 1;
        gemv::gemv_scalar_kernel<T, Out>
            <<<dim3(static_cast<unsigned>(tiles), static_cast<unsigned>(narrow)),
               dim3(kGemvTileColumns, gemv::kScalarSlices), 0, stream>>>(
                x, w, y, residual, m, k, n, static_cast<int>(narrow), scratch.partials,
                scratch.counters);
        return;
    }
    const dim3 grid(static_cast<unsigned>((n + kGemmTile - 1) / kGemmTile),
                    static_cast<unsigned>((m + kGemmTile - 1) / kGemmTile));
    gemm_kernel<T, Out>
        <<<grid, kGemmThreads * kGemmThreads, 0, stream>>>(x, w, y, residual, m, k, n);
}

}  // namespace

void launch_init_weights(DType dtype, void* dst, const TensorDraws& t, std::uint64_t seed,
                         cudaStream_t stream) {
    const auto n = static_cast<i64>(t.elements());
    dispatch_dtype(dtype, [&](auto tag) {
        using T = typename decltype(tag)::type;
        init_weights_kernel<T><<<grid_for(n, 256), 256, 0, stream>>>(static_cast<T*>(dst), n, seed,
                                                                     t.first_draw, t.kind, t.step);
    });
}

void launch_embedding(DType dtype, const std::int32_t* ids, std::int64_t seq_stride,
                      std::int64_t pos_stride, std::int64_t sequences, std::int64_t positions,
                      const void* table, std::int64_t vocab, std::int64_t hidden, void* out,
                      cudaStream_t stream) {
    dispatch_dtype(dtype, [&](auto tag) {
        using T = typename decltype(tag)::type;
        embedding_kernel<T><<<static_cast<unsigned>(sequences * positions), 256, 0, stream>>>(
            ids, seq_stride, pos_stride, positions, static_cast<const T*>(table), vocab, hidden,
            static_cast<T*>(out));
    });
}

void launch_rms_norm(DType dtype, const void* x, const void* weight, void* y, std::int64_t groups,
                     std::int64_t rows_in, std::int64_t rows_out, std::int64_t hidden, float eps,
                     cudaStream_t stream) {
    dispatch_dtype(dtype, [&](auto tag) {
        using T = typename decltype(tag)::type;
        if constexpr (sizeof(T) == 2) {
            if (hidden % 8 == 0 && aligned16(x) && aligned16(weight) && aligned16(y)) {
                rms_norm_vec_kernel<T>
                    <<<static_cast<unsigned>(groups * rows_out), 256, 0, stream>>>(
                        static_cast<const T*>(x), static_cast<const T*>(weight), static_cast<T*>(y),
                        rows_in, rows_out, hidden, eps);
                return;
            }
        }
        rms_norm_kernel<T><<<static_cast<unsigned>(groups * rows_out), 256, 0, stream>>>(
            static_cast<const T*>(x), static_cast<const T*>(weight), static_cast<T*>(y), rows_in,
            rows_out, hidden, eps);
    });
}

// Enough blocks for about four per SM of an H100/H200, each with at least 256 rows of k;
// sized for the vector kernel's 64-column tiles (the scalar one uses no more).
std::int64_t gemv_splits(std::int64_t k, std::int64_t n) {
    constexpr std::int64_t kTargetBlocks = 512, kMinRows = 256, kMaxSplits = 32;
    const std::int64_t tiles = (n + gemv::kPackTile - 1) / gemv::kPackTile;
    std::int64_t s = (kTargetBlocks + tiles - 1) / tiles;
    s = std::min({s, k / kMinRows, kMaxSplits});
    return std::max<std::int64_t>(s, 1);
}

std::int64_t gemv_partial_floats(std::int64_t k, std::int64_t n) {
    const std::int64_t s = gemv_splits(k, n);
    return s > 1 ? kMaxGemvRows * s * n : 0;
}

void launch_matmul(DType dtype, const void* x, const void* w, void* y, bool y_fp32,
                   const void* residual, std::int64_t m, std::int64_t k, std::int64_t n,
                   const GemvScratch& scratch, cudaStream_t stream) {
    dispatch_dtype(dtype, [&](auto tag) {
        using T = typename decltype(tag)::type;
        const auto* xt = static_cast<const T*>(x);
        const auto* wt = static_cast<const T*>(w);
        if (y_fp32)
            matmul_typed<T, float>(xt, wt, static_cast<float*>(y),
                                   static_cast<const float*>(residual), m, k, n, scratch, stream);
        else
            matmul_typed<T, T>(xt, wt, static_cast<T*>(y), static_cast<const T*>(residual), m, k, n,
                               scratch, stream);
    });
}

void launch_rope(DType dtype, const void* qkv, void* q_out, void* k_cache, void* v_cache,
                 const AttentionShape& shape, const float* cos_table, const float* sin_table,
                 cudaStream_t stream) {
    dispatch_dtype(dtype, [&](auto tag) {
        using T = typename decltype(tag)::type;
        const auto width = (shape.heads + 2 * shape.kv_heads) * shape.head_dim;
        const dim3 grid(static_cast<unsigned>(shape.sequences * shape.positions),
                        static_cast<unsigned>((width + 255) / 256));
        rope_kernel<T><<<grid, 256, 0, stream>>>(static_cast<const T*>(qkv), static_cast<T*>(q_out),
                                                 static_cast<T*>(k_cache), static_cast<T*>(v_cache),
                                                 shape, cos_table, sin_table);
    });
}

void launch_silu_mul(DType dtype, const void* gate_up, void* out, std::int64_t tokens,
                     std::int64_t ffn, cudaStream_t stream) {
    dispatch_dtype(dtype, [&](auto tag) {
        using T = typename decltype(tag)::type;
        if constexpr (sizeof(T) == 2) {
            if (ffn % 8 == 0 && aligned16(gate_up) && aligned16(out)) {
                silu_mul_vec_kernel<T><<<grid_for(tokens * ffn / 8, 256), 256, 0, stream>>>(
                    static_cast<const T*>(gate_up), static_cast<T*>(out), tokens, ffn);
                return;
            }
        }
        silu_mul_kernel<T><<<grid_for(tokens * ffn, 256), 256, 0, stream>>>(
            static_cast<const T*>(gate_up), static_cast<T*>(out), tokens, ffn);
    });
}

}  // namespace tokenscope::kernels::cuda
