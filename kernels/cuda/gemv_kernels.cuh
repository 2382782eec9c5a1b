#pragma once

// Decode GEMV kernels (m <= kMaxGemvRows tokens), included by layer_kernels.cu.
// Decode is bound by reading the weights once, so both kernels aim at bytes in
// flight: the k range is split over blockIdx.y as well as over thread rows, each
// split publishes fp32 partials and the last block of a column tile to arrive reduces
// them, adds the residual and writes y, all in one launch (the plan counts one kernel).
#include <cstdint>

#include "device_math.cuh"
#include "device_ops.h"

namespace tokenscope::kernels::cuda::gemv {

using i64 = long long;

// Last-block reduction of the published partials of one column tile [col0, col0 + width).
template <typename Out>
__device__ void reduce_splits(Out* y, const Out* residual, i64 m, i64 n, i64 col0, int width,
                              int splits, const float* partials, unsigned int* counter) {
    __shared__ bool last_block;
    __threadfence();
    __syncthreads();
    const int lane = threadIdx.y * blockDim.x + threadIdx.x;
    const int threads = blockDim.x * blockDim.y;
    if (lane == 0) last_block = atomicAdd(counter, 1u) == static_cast<unsigned>(splits) - 1u;
    __syncthreads();
    if (!last_block) return;
    __threadfence();
    for (i64 i = lane; i < m * width; i += threads) {
        const i64 t = i / width, col = col0 + i % width;
        if (col >= n) continue;
        float sum = 0.0f;
        for (int s = 0; s < splits; ++s) sum += __ldcg(partials + (s * m + t) * n + col);
        if (residual) sum += to_float(residual[t * n + col]);
        y[t * n + col] = from_float<Out>(sum);
    }
    if (lane == 0) *counter = 0;  // ready for the next launch
}

constexpr int kPackColumns = 8;  // columns per thread: one 16-byte load of fp16/bf16
constexpr int kPackThreads = 8;  // threads across a tile: 128 contiguous bytes per k row
constexpr int kPackSlices = 32;  // thread rows over the block's k range
constexpr int kPackTile = kPackColumns * kPackThreads;
constexpr int kPackUnroll = 4;  // 16-byte loads in flight per thread

template <typename T>
struct alignas(16) Pack {
    T v[kPackColumns];
};

// Vector path: n % 8 == 0 and w 16-byte aligned. 256 threads, 64 columns per block.
template <typename T, typename Out>
__global__ void __launch_bounds__(kPackThreads* kPackSlices)
    gemv_pack_kernel(const T* x, const T* w, Out* y, const Out* residual, i64 m, i64 k, i64 n,
                     int splits, float* partials, unsigned int* counters) {
    __shared__ float red[kPackSlices][kPackTile];
    const int tx = threadIdx.x % kPackThreads, ty = threadIdx.x / kPackThreads;
    const i64 tile0 = blockIdx.x * static_cast<i64>(kPackTile);
    const i64 col0 = tile0 + tx * kPackColumns;
    const i64 chunk = (k + splits - 1) / splits;
    const i64 k_end = min(k, (blockIdx.y + 1) * chunk);
    float acc[kMaxGemvRows][kPackColumns] = {};
    auto accumulate = [&](const Pack<T>& p, i64 kk) {
#pragma unroll
        for (int t = 0; t < kMaxGemvRows; ++t) {
            if (t >= m) break;
            const float xv = to_float(x[t * k + kk]);
#pragma unroll
            for (int c = 0; c < kPackColumns; ++c) acc[t][c] += xv * to_float(p.v[c]);
        }
    };
    if (col0 < n) {
        const auto* wp = reinterpret_cast<const Pack<T>*>(w + col0);
        const i64 row_packs = n / kPackColumns;
        i64 kk = blockIdx.y * chunk + ty;
        for (; kk + (kPackUnroll - 1) * kPackSlices < k_end; kk += kPackUnroll * kPackSlices) {
            Pack<T> p[kPackUnroll];
#pragma unroll
            for (int u = 0; u < kPackUnroll; ++u) p[u] = wp[(kk + u * kPackSlices) * row_packs];
#pragma unroll
            for (int u = 0; u < kPackUnroll; ++u) accumulate(p[u], kk + u * kPackSlices);
        }
        for (; kk < k_end; kk += kPackSlices) accumulate(wp[kk * row_packs], kk);
    }
#pragma unroll
    for (int t = 0; t < kMaxGemvRows; ++t) {
        if (t >= m) break;  // m is the same for the whole block
#pragma unroll
        for (int c = 0; c < kPackColumns; ++c) red[ty][tx * kPackColumns + c] = acc[t][c];
        __syncthreads();
        const i64 col = tile0 + threadIdx.x;
        if (threadIdx.x < kPackTile && col < n) {
            float sum = 0.0f;
            for (int s = 0; s < kPackSlices; ++s) sum += red[s][threadIdx.x];
            if (splits == 1) {
                if (residual) sum += to_float(residual[t * n + col]);
                y[t * n + col] = from_float<Out>(sum);
            } else {
                partials[(blockIdx.y * m + t) * n + col] = sum;
            }
        }
        __syncthreads();
    }
    if (splits > 1)
        reduce_splits(y, residual, m, n, tile0, kPackTile, splits, partials, counters + blockIdx.x);
}

constexpr int kScalarSlices = 8;

// Any n and alignment: 32 columns per block, one 2-byte weight per thread and row.
template <typename T, typename Out>
__global__ void gemv_scalar_kernel(const T* x, const T* w, Out* y, const Out* residual, i64 m,
                                   i64 k, i64 n, int splits, float* partials,
                                   unsigned int* counters) {
    __shared__ float partial[kScalarSlices][kMaxGemvRows][kGemvTileColumns];
    const i64 tile0 = blockIdx.x * static_cast<i64>(kGemvTileColumns);
    const i64 col = tile0 + threadIdx.x;
    const i64 chunk = (k + splits - 1) / splits;
    const i64 k_end = min(k, (blockIdx.y + 1) * chunk);
    float acc[kMaxGemvRows] = {};
    if (col < n) {
        for (i64 kk = blockIdx.y * chunk + threadIdx.y; kk < k_end; kk += kScalarSlices) {
            const float wv = to_float(w[kk * n + col]);
            for (int t = 0; t < kMaxGemvRows; ++t)
                if (t < m) acc[t] += to_float(x[t * k + kk]) * wv;
        }
    }
    for (int t = 0; t < kMaxGemvRows; ++t) partial[threadIdx.y][t][threadIdx.x] = acc[t];
    __syncthreads();
    if (col < n) {
        for (i64 t = threadIdx.y; t < m; t += kScalarSlices) {
            float sum = 0.0f;
            for (int s = 0; s < kScalarSlices; ++s) sum += partial[s][t][threadIdx.x];
            if (splits == 1) {
                if (residual) sum += to_float(residual[t * n + col]);
                y[t * n + col] = from_float<Out>(sum);
            } else {
                partials[(blockIdx.y * m + t) * n + col] = sum;
            }
        }
    }
    if (splits > 1)
        reduce_splits(y, residual, m, n, tile0, kGemvTileColumns, splits, partials,
                      counters + blockIdx.x);
}

}  // namespace tokenscope::kernels::cuda::gemv
