#pragma once

// Small device helpers shared by the kernel files: storage conversions (fp32
// accumulation everywhere) and block-wide reductions.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cmath>
#include <cstdint>

namespace tokenscope::kernels::cuda {

__device__ __forceinline__ float to_float(float v) {
    return v;
}
__device__ __forceinline__ float to_float(__half v) {
    return __half2float(v);
}
__device__ __forceinline__ float to_float(__nv_bfloat16 v) {
    return __bfloat162float(v);
}

template <typename T>
__device__ __forceinline__ T from_float(float v);
template <>
__device__ __forceinline__ float from_float<float>(float v) {
    return v;
}
template <>
__device__ __forceinline__ __half from_float<__half>(float v) {
    return __float2half_rn(v);
}
template <>
__device__ __forceinline__ __nv_bfloat16 from_float<__nv_bfloat16>(float v) {
    return __float2bfloat16_rn(v);
}

// Eight 16-bit values of one 16-byte word (a vectorised load), as floats, and back.
template <typename T>
__device__ __forceinline__ void unpack8(const uint4& v, float (&f)[8]) {
    static_assert(sizeof(T) == 2, "16-bit storage only");
    T t[8];
    memcpy(t, &v, sizeof v);
#pragma unroll
    for (int i = 0; i < 8; ++i) f[i] = to_float(t[i]);
}
template <typename T>
__device__ __forceinline__ uint4 pack8(const float (&f)[8]) {
    static_assert(sizeof(T) == 2, "16-bit storage only");
    T t[8];
#pragma unroll
    for (int i = 0; i < 8; ++i) t[i] = from_float<T>(f[i]);
    uint4 v;
    memcpy(&v, t, sizeof v);
    return v;
}

__device__ __forceinline__ float warp_sum(float v) {
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

__device__ __forceinline__ float warp_max(float v) {
    for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
    return v;
}

// Sum over the block; every thread gets the result. blockDim.x must be a multiple
// of 32 and at most 1024. `scratch` holds 32 floats.
__device__ __forceinline__ float block_sum(float v, float* scratch) {
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    v = warp_sum(v);
    __syncthreads();  // scratch may still be read by a previous call
    if (lane == 0) scratch[warp] = v;
    __syncthreads();
    const int warps = blockDim.x / 32;
    v = lane < warps ? scratch[lane] : 0.0f;
    return warp_sum(v);
}

__device__ __forceinline__ float block_max(float v, float* scratch) {
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    v = warp_max(v);
    __syncthreads();
    if (lane == 0) scratch[warp] = v;
    __syncthreads();
    const int warps = blockDim.x / 32;
    v = lane < warps ? scratch[lane] : -INFINITY;
    return warp_max(v);
}

// A candidate of a selection: larger value first, then smaller index, so ties are
// broken the same way as the CPU reference (the first maximum wins). idx < 0 = none.
struct Candidate {
    float value;
    std::int64_t idx;
};

__device__ __forceinline__ bool better(const Candidate& a, const Candidate& b) {
    if (a.idx < 0) return false;
    if (b.idx < 0) return true;
    return a.value > b.value || (a.value == b.value && a.idx < b.idx);
}

// True when `c` comes strictly after `prev` in the selection order: used to pick
// the next best of what is left without marking anything.
__device__ __forceinline__ bool after(const Candidate& c, const Candidate& prev) {
    if (prev.idx < 0) return true;
    return c.value < prev.value || (c.value == prev.value && c.idx > prev.idx);
}

__device__ __forceinline__ float sanitize(float v) {
    return isnan(v) ? -INFINITY : v;
}

__device__ __forceinline__ Candidate warp_best(Candidate c) {
    for (int o = 16; o > 0; o >>= 1) {
        Candidate other{__shfl_xor_sync(0xffffffffu, c.value, o),
                        __shfl_xor_sync(0xffffffffu, c.idx, o)};
        if (better(other, c)) c = other;
    }
    return c;
}

// Best candidate of the block; every thread gets it. `scratch` holds 32 Candidates.
__device__ __forceinline__ Candidate block_best(Candidate c, Candidate* scratch) {
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    c = warp_best(c);
    __syncthreads();
    if (lane == 0) scratch[warp] = c;
    __syncthreads();
    const int warps = blockDim.x / 32;
    c = lane < warps ? scratch[lane] : Candidate{-INFINITY, -1};
    return warp_best(c);
}

}  // namespace tokenscope::kernels::cuda
