// Causal prefill attention on tensor cores. The general attention kernel gives each
// (query, head) one block of scalar dot products: 8 x 512 prompt tokens of llama-1b
// spent 100 ms of a 116 ms prefill there on an H200 (1.4 TFLOP/s). This one is
// flash-attention shaped (FlashAttention-2's loop order, written with WMMA 16x16x16
// fragments and fp32 accumulation): a block takes 64 queries of one head, each of its
// 4 warps 16 of them; K and V come through shared memory 64 keys at a time; S = QK^T
// and PV are tensor-core products, the softmax is online per row. P goes into PV as two
// 16-bit parts (P = hi + lo, two products): FlashAttention rounds P once to 16 bits,
// which in fp16 moved tiny's greedy tokens away from the fp32 CPU reference on an H200;
// with the split P keeps about 16 bits more and the attention matches the fp32 kernel.
#include <mma.h>

#include <cstdint>

#include "attention_plan.h"
#include "cuda_check.h"
#include "device_math.cuh"
#include "device_ops.h"
#include "dtype_dispatch.cuh"

namespace tokenscope::kernels::cuda {
namespace {

using i64 = long long;
namespace wmma = nvcuda::wmma;

constexpr int kWords = 8;  // 16-bit values per 16-byte load

// Shared memory, rows padded against bank conflicts: the lanes of a warp walk rows 16
// apart, and unpadded rows of 64 or 128 elements all start in one bank (the first
// version spent 22 of a 37 ms llama-1b prefill in this kernel that way).
// K and V tiles [64][D + 8] in the storage type, then per warp an fp32 scratch
// [16][64 + 4] (S, then one 16-column tile of PV at a time), P's two parts [16][64 + 8]
// and the fp32 output rows [16][D + 4].
template <int D>
struct Layout {
    static constexpr int kKvLd = D + 8, kSLd = kPrefillTileKeys + 4, kPLd = kPrefillTileKeys + 8;
    static constexpr int kOLd = D + 4;
    static constexpr int kRows = kPrefillRowsPerWarp;
    static constexpr int kTile = kPrefillTileKeys * kKvLd;  // elements of K or V
    static constexpr int kWarpBytes = kRows * kSLd * 4 + 2 * kRows * kPLd * 2 + kRows * kOLd * 4;
    static constexpr int kBytes = 2 * kTile * 2 + kPrefillWarps * kWarpBytes;
};

// Copies rows [first, first + 64) of a [rows][D] matrix (row r at src + r * stride) into
// dst [64][ld], zeros for rows at or past `valid`.
template <typename T, int D>
__device__ void stage_rows(T* dst, int ld, const T* src, i64 stride, i64 first, i64 valid) {
    for (int i = threadIdx.x; i < kPrefillTileKeys * D / kWords; i += blockDim.x) {
        const int r = i / (D / kWords), c = (i % (D / kWords)) * kWords;
        uint4 v = make_uint4(0, 0, 0, 0);
        if (first + r < valid) v = *reinterpret_cast<const uint4*>(src + (first + r) * stride + c);
        *reinterpret_cast<uint4*>(dst + r * ld + c) = v;
    }
}

// grid = (query tiles, heads, sequences), kPrefillWarps * 32 threads. Lane pairs own a
// query row (`row`); the pair's lanes take alternate columns (`half`), so a warp's 32
// accesses to a padded row-major array fall in 16 or more banks.
template <typename T, int D>
__global__ void __launch_bounds__(kPrefillWarps * 32)
    prefill_attention_kernel(const T* q, const T* k_cache, const T* v_cache, T* out,
                             AttentionShape sh) {
    using L = Layout<D>;
    constexpr int kRows = L::kRows, kKeys = kPrefillTileKeys;
    extern __shared__ __align__(128) unsigned char smem[];
    T* ks = reinterpret_cast<T*>(smem);
    T* vs = ks + L::kTile;
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    unsigned char* mine = smem + 2 * L::kTile * sizeof(T) + warp * L::kWarpBytes;
    float* scratch = reinterpret_cast<float*>(mine);
    T* ps = reinterpret_cast<T*>(scratch + kRows * L::kSLd);  // P's high part
    T* ps_lo = ps + kRows * L::kPLd;                          // and its low part
    float* os = reinterpret_cast<float*>(ps_lo + kRows * L::kPLd);

    const i64 head = blockIdx.y, s = blockIdx.z, j0 = static_cast<i64>(blockIdx.x) * kKeys;
    const i64 kv_head = head / (sh.heads / sh.kv_heads);
    const i64 cached = sh.cached_dev != nullptr ? *sh.cached_dev : sh.cached;
    const i64 last_j = min(static_cast<i64>(sh.positions) - 1, j0 + kKeys - 1);
    const i64 keys = cached + last_j + 1;  // what the tile's last query sees
    const float scale = rsqrtf(static_cast<float>(D));

    // The Q tile goes through the K buffer into each warp's fragments.
    stage_rows<T, D>(ks, L::kKvLd, q + ((s * sh.positions) * sh.heads + head) * D, sh.heads * D, j0,
                     sh.positions);
    __syncthreads();
    wmma::fragment<wmma::matrix_a, 16, 16, 16, T, wmma::row_major> qa[D / 16];
#pragma unroll
    for (int kd = 0; kd < D / 16; ++kd)
        wmma::load_matrix_sync(qa[kd], ks + warp * kRows * L::kKvLd + kd * 16, L::kKvLd);
    for (int i = lane; i < kRows * L::kOLd; i += 32) os[i] = 0.0f;

    const int row = lane / 2, half = lane % 2;
    const i64 qj = j0 + warp * kRows + row;
    const bool live = qj < sh.positions;
    const i64 limit = cached + qj;  // the last key this query sees
    float m = -INFINITY, l = 0.0f;
    const i64 cache_off = (s * sh.kv_heads + kv_head) * sh.capacity * D;
    __syncthreads();  // every warp has its Q before K overwrites it

    for (i64 t0 = 0; t0 < keys; t0 += kKeys) {
        stage_rows<T, D>(ks, L::kKvLd, k_cache + cache_off, D, t0, keys);
        stage_rows<T, D>(vs, L::kKvLd, v_cache + cache_off, D, t0, keys);
        __syncthreads();
#pragma unroll
        for (int n = 0; n < kKeys / 16; ++n) {
            wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
            wmma::fill_fragment(acc, 0.0f);
#pragma unroll
            for (int kd = 0; kd < D / 16; ++kd) {
                wmma::fragment<wmma::matrix_b, 16, 16, 16, T, wmma::col_major> kb;
                wmma::load_matrix_sync(kb, ks + n * 16 * L::kKvLd + kd * 16, L::kKvLd);
                wmma::mma_sync(acc, qa[kd], kb, acc);
            }
            wmma::store_matrix_sync(scratch + n * 16, acc, L::kSLd, wmma::mem_row_major);
        }
        __syncwarp();

        float sv[kKeys / 2];
        float tmax = -INFINITY;
#pragma unroll
        for (int i = 0; i < kKeys / 2; ++i) {
            const int col = 2 * i + half;
            sv[i] = live && t0 + col <= limit ? scratch[row * L::kSLd + col] * scale : -INFINITY;
            tmax = fmaxf(tmax, sv[i]);
        }
        tmax = fmaxf(tmax, __shfl_xor_sync(0xffffffffu, tmax, 1));
        const float m_new = fmaxf(m, tmax);
        const float cr = m == -INFINITY ? 0.0f : expf(m - m_new);  // nothing to rescale yet
        float psum = 0.0f;
#pragma unroll
        for (int i = 0; i < kKeys / 2; ++i) {
            const int col = 2 * i + half;
            const float p = sv[i] == -INFINITY ? 0.0f : expf(sv[i] - m_new);
            psum += p;
            const T hi = from_float<T>(p);
            ps[row * L::kPLd + col] = hi;
            ps_lo[row * L::kPLd + col] = from_float<T>(p - to_float(hi));
        }
        psum += __shfl_xor_sync(0xffffffffu, psum, 1);
        l = l * cr + psum;
        m = m_new;
        __syncwarp();  // P complete, S read: the scratch takes PV tiles now

        // PV one 16-column tile at a time, each folded into O at once.
#pragma unroll
        for (int n = 0; n < D / 16; ++n) {
            wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
            wmma::fill_fragment(acc, 0.0f);
#pragma unroll
            for (int kk = 0; kk < kKeys / 16; ++kk) {
                wmma::fragment<wmma::matrix_a, 16, 16, 16, T, wmma::row_major> pa, pa_lo;
                wmma::fragment<wmma::matrix_b, 16, 16, 16, T, wmma::row_major> vb;
                wmma::load_matrix_sync(pa, ps + kk * 16, L::kPLd);
                wmma::load_matrix_sync(pa_lo, ps_lo + kk * 16, L::kPLd);
                wmma::load_matrix_sync(vb, vs + kk * 16 * L::kKvLd + n * 16, L::kKvLd);
                wmma::mma_sync(acc, pa, vb, acc);
                wmma::mma_sync(acc, pa_lo, vb, acc);
            }
            wmma::store_matrix_sync(scratch, acc, L::kSLd, wmma::mem_row_major);
            __syncwarp();
#pragma unroll
            for (int i = 0; i < 8; ++i) {
                const int c = 2 * i + half;
                float& o = os[row * L::kOLd + n * 16 + c];
                o = o * cr + scratch[row * L::kSLd + c];
            }
            __syncwarp();  // read before the next tile overwrites the scratch
        }
        __syncthreads();  // K and V are read by every warp before the next tile lands
    }

    if (!live) return;
    T* dst = out + ((s * sh.positions + qj) * sh.heads + head) * D;
    const float inv = l > 0.0f ? 1.0f / l : 0.0f;
    for (int i = 0; i < D / 2; ++i) {
        const int c = 2 * i + half;
        dst[c] = from_float<T>(os[row * L::kOLd + c] * inv);
    }
}

template <typename T, int D>
void launch_prefill(const T* q, const T* k, const T* v, T* out, const AttentionShape& sh,
                    cudaStream_t stream) {
    constexpr int kBytes = Layout<D>::kBytes;
    static_assert(kBytes == prefill_attention_shared_bytes(D));
    // Over the default 48 KiB for D = 128: opt in once, before the first launch (the
    // first prefill is eager, never inside a graph capture).
    static const cudaError_t opted = cudaFuncSetAttribute(
        prefill_attention_kernel<T, D>, cudaFuncAttributeMaxDynamicSharedMemorySize, kBytes);
    check_cuda(opted, "cudaFuncSetAttribute(prefill attention shared memory)");
    const dim3 grid(static_cast<unsigned>((sh.positions + kPrefillTileKeys - 1) / kPrefillTileKeys),
                    static_cast<unsigned>(sh.heads), static_cast<unsigned>(sh.sequences));
    prefill_attention_kernel<T, D><<<grid, kPrefillWarps * 32, kBytes, stream>>>(q, k, v, out, sh);
}

}  // namespace

void launch_prefill_attention(DType dtype, const void* q, const void* k_cache, const void* v_cache,
                              void* out, const AttentionShape& shape, cudaStream_t stream) {
    dispatch_dtype(dtype, [&](auto tag) {
        using T = typename decltype(tag)::type;
        if constexpr (sizeof(T) == 2) {
            const auto* qt = static_cast<const T*>(q);
            const auto* kt = static_cast<const T*>(k_cache);
            const auto* vt = static_cast<const T*>(v_cache);
            auto* ot = static_cast<T*>(out);
            if (shape.head_dim == 64) launch_prefill<T, 64>(qt, kt, vt, ot, shape, stream);
            if (shape.head_dim == 128) launch_prefill<T, 128>(qt, kt, vt, ot, shape, stream);
        }
    });
}

}  // namespace tokenscope::kernels::cuda
