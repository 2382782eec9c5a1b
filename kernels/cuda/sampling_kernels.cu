// Samplers over fp32 logits (greedy, top-k, beam, speculative verification) and the
// beam search KV cache gather. One block per row or request: simple selection loops.
#include <cstdint>

#include "counter_draw.h"
#include "device_math.cuh"
#include "device_ops.h"
#include "dtype_dispatch.cuh"

namespace tokenscope::kernels::cuda {
namespace {

using i64 = long long;
constexpr int kThreads = 256;
// Greedy decode reads a whole vocabulary row per sequence with one block each: the
// most threads a block has, for the most loads in flight.
constexpr int kArgmaxThreads = 1024;

// The best logit of a row that comes after `prev` in the selection order.
__device__ Candidate row_best(const float* row, i64 vocab, Candidate prev, Candidate* scratch) {
    Candidate best{-INFINITY, -1};
    for (i64 v = threadIdx.x; v < vocab; v += blockDim.x) {
        const Candidate c{sanitize(row[v]), v};
        if (after(c, prev) && better(c, best)) best = c;
    }
    return block_best(best, scratch);
}

__global__ void argmax_kernel(const float* logits, i64 vocab, std::int32_t* out, i64 stride) {
    __shared__ Candidate scratch[32];
    const Candidate best =
        row_best(logits + blockIdx.x * vocab, vocab, Candidate{INFINITY, -1}, scratch);
    if (threadIdx.x == 0) out[blockIdx.x * stride] = static_cast<std::int32_t>(best.idx);
}

// grid = (rows, kArgmaxChunks). Each block finds the best of its slice of the row; the
// last block of the row to finish reduces the slices' candidates.
__global__ void __launch_bounds__(kThreads)
    argmax_split_kernel(const float* logits, i64 vocab, std::int32_t* out, i64 stride,
                        Candidate* partials, unsigned int* counters) {
    __shared__ Candidate scratch[32];
    __shared__ bool last_block;
    const i64 row = blockIdx.x;
    const i64 per = (vocab + gridDim.y - 1) / gridDim.y;
    const i64 begin = min(vocab, static_cast<i64>(blockIdx.y) * per);
    const i64 end = min(vocab, begin + per);
    const float* r = logits + row * vocab;
    Candidate best{-INFINITY, -1};
#pragma unroll 4
    for (i64 v = begin + threadIdx.x; v < end; v += blockDim.x) {
        const Candidate c{sanitize(r[v]), v};
        if (better(c, best)) best = c;
    }
    best = block_best(best, scratch);
    if (threadIdx.x == 0) {
        partials[row * gridDim.y + blockIdx.y] = best;
        __threadfence();
        last_block = atomicAdd(&counters[row], 1u) == gridDim.y - 1u;
    }
    __syncthreads();
    if (!last_block || threadIdx.x >= 32) return;
    __threadfence();
    const volatile Candidate* all = partials + row * gridDim.y;
    Candidate c{-INFINITY, -1};
    for (unsigned i = threadIdx.x; i < gridDim.y; i += 32) {
        const Candidate o{all[i].value, all[i].idx};
        if (better(o, c)) c = o;
    }
    c = warp_best(c);
    if (threadIdx.x == 0) {
        out[row * stride] = static_cast<std::int32_t>(c.idx);
        counters[row] = 0;  // ready for the next launch
    }
}

__global__ void topk_kernel(const float* logits, i64 vocab, i64 k, std::uint64_t seed,
                            i64 iteration, const std::int32_t* iteration_dev, float* values,
                            std::int32_t* ids, std::int32_t* out) {
    if (iteration_dev != nullptr) iteration = *iteration_dev;
    __shared__ Candidate scratch[32];
    const i64 row = blockIdx.x;
    Candidate prev{INFINITY, -1};
    for (i64 i = 0; i < k; ++i) {
        prev = row_best(logits + row * vocab, vocab, prev, scratch);
        if (threadIdx.x == 0) {
            values[row * k + i] = prev.value;
            ids[row * k + i] = static_cast<std::int32_t>(prev.idx);
        }
    }
    if (threadIdx.x != 0) return;
    // Softmax over the k kept logits (the first is the largest), then one draw.
    const float top = values[row * k];
    double total = 0.0;
    for (i64 i = 0; i < k; ++i) total += exp(static_cast<double>(values[row * k + i] - top));
    const double target = sample_uniform(seed, static_cast<std::uint64_t>(row),
                                         static_cast<std::uint64_t>(iteration)) *
                          total;
    double cumulative = 0.0;
    std::int32_t chosen = ids[row * k + k - 1];
    for (i64 i = 0; i < k; ++i) {
        cumulative += exp(static_cast<double>(values[row * k + i] - top));
        if (cumulative > target) {
            chosen = ids[row * k + i];
            break;
        }
    }
    out[row] = chosen;
}

__global__ void beam_topk_kernel(const float* logits, i64 beams, i64 vocab, const float* scores_in,
                                 float* lse, std::int32_t* out_ids, std::int32_t* out_parents,
                                 float* out_scores) {
    __shared__ float fscratch[32];
    __shared__ Candidate scratch[32];
    const i64 req = blockIdx.x, first = req * beams;
    for (i64 b = 0; b < beams; ++b) {  // log-softmax normaliser of every beam's row
        const float* row = logits + (first + b) * vocab;
        float mx = -INFINITY;
        for (i64 v = threadIdx.x; v < vocab; v += blockDim.x) mx = fmaxf(mx, sanitize(row[v]));
        mx = block_max(mx, fscratch);
        float sum = 0.0f;
        for (i64 v = threadIdx.x; v < vocab; v += blockDim.x) sum += expf(sanitize(row[v]) - mx);
        sum = block_sum(sum, fscratch);
        if (threadIdx.x == 0) lse[first + b] = mx + logf(sum);
    }
    __syncthreads();
    Candidate prev{INFINITY, -1};
    for (i64 i = 0; i < beams; ++i) {
        Candidate best{-INFINITY, -1};
        for (i64 f = threadIdx.x; f < beams * vocab; f += blockDim.x) {
            const i64 b = f / vocab;
            const float score = scores_in[first + b] +
                                sanitize(logits[(first + b) * vocab + f % vocab]) - lse[first + b];
            const Candidate c{sanitize(score), f};
            if (after(c, prev) && better(c, best)) best = c;
        }
        prev = block_best(best, scratch);
        if (threadIdx.x == 0) {
            out_ids[first + i] = static_cast<std::int32_t>(prev.idx % vocab);
            out_parents[first + i] = static_cast<std::int32_t>(first + prev.idx / vocab);
            out_scores[first + i] = prev.value;
        }
    }
}

__global__ void spec_verify_kernel(const float* logits, i64 gamma, i64 vocab,
                                   const std::int32_t* drafted, i64 seq_stride, i64 pos_stride,
                                   std::int32_t* out_ids, std::int32_t* out_accepted) {
    __shared__ Candidate scratch[32];
    const i64 s = blockIdx.x, rows = gamma + 1;
    std::int32_t accepted = 0;
    bool agreeing = true;
    for (i64 i = 0; i < rows; ++i) {
        const Candidate best =
            row_best(logits + (s * rows + i) * vocab, vocab, Candidate{INFINITY, -1}, scratch);
        if (threadIdx.x != 0) continue;
        out_ids[s * rows + i] = static_cast<std::int32_t>(best.idx);
        if (agreeing && i < gamma && best.idx == drafted[s * seq_stride + i * pos_stride])
            ++accepted;
        else
            agreeing = false;
    }
    if (threadIdx.x == 0) out_accepted[s] = accepted;
}

template <typename T>
__global__ void kv_reorder_kernel(const T* src, T* dst, const std::int32_t* parents, i64 planes,
                                  i64 sequences, i64 kv_heads, i64 capacity, i64 valid, i64 d) {
    const i64 total = planes * sequences * kv_heads * valid * d;
    for (i64 i = blockIdx.x * static_cast<i64>(blockDim.x) + threadIdx.x; i < total;
         i += static_cast<i64>(gridDim.x) * blockDim.x) {
        const i64 e = i % d;
        i64 rest = i / d;
        const i64 p = rest % valid;
        rest /= valid;
        const i64 h = rest % kv_heads;
        rest /= kv_heads;
        const i64 s = rest % sequences;
        const i64 plane = rest / sequences;  // layer * 2 + (k or v)
        const i64 from = parents[s];
        dst[(((plane * sequences + s) * kv_heads + h) * capacity + p) * d + e] =
            src[(((plane * sequences + from) * kv_heads + h) * capacity + p) * d + e];
    }
}

}  // namespace

void launch_argmax(const float* logits, std::int64_t rows, std::int64_t vocab, std::int32_t* out,
                   std::int64_t out_stride, const ArgmaxScratch& scratch, cudaStream_t stream) {
    if (scratch.partials != nullptr && scratch.counters != nullptr) {
        static_assert(sizeof(Candidate) == 16, "ArgmaxScratch sizes partials at 16 bytes");
        const dim3 grid(static_cast<unsigned>(rows), kArgmaxChunks);
        argmax_split_kernel<<<grid, kThreads, 0, stream>>>(
            logits, vocab, out, out_stride, static_cast<Candidate*>(scratch.partials),
            scratch.counters);
        return;
    }
    argmax_kernel<<<static_cast<unsigned>(rows), kArgmaxThreads, 0, stream>>>(logits, vocab, out,
                                                                              out_stride);
}

void launch_topk_sample(const float* logits, std::int64_t rows, std::int64_t vocab, std::int64_t k,
                        std::uint64_t seed, std::int64_t iteration,
                        const std::int32_t* iteration_dev, float* scratch_values,
                        std::int32_t* scratch_ids, std::int32_t* out, cudaStream_t stream) {
    topk_kernel<<<static_cast<unsigned>(rows), kThreads, 0, stream>>>(
        logits, vocab, k, seed, iteration, iteration_dev, scratch_values, scratch_ids, out);
}

void launch_beam_topk(const float* logits, std::int64_t requests, std::int64_t beams,
                      std::int64_t vocab, const float* scores_in, float* lse_scratch,
                      std::int32_t* out_ids, std::int32_t* out_parents, float* out_scores,
                      cudaStream_t stream) {
    beam_topk_kernel<<<static_cast<unsigned>(requests), kThreads, 0, stream>>>(
        logits, beams, vocab, scores_in, lse_scratch, out_ids, out_parents, out_scores);
}

void launch_spec_verify(const float* logits, std::int64_t sequences, std::int64_t gamma,
                        std::int64_t vocab, const std::int32_t* drafted, std::int64_t seq_stride,
                        std::int64_t pos_stride, std::int32_t* out_ids, std::int32_t* out_accepted,
                        cudaStream_t stream) {
    spec_verify_kernel<<<static_cast<unsigned>(sequences), kThreads, 0, stream>>>(
        logits, gamma, vocab, drafted, seq_stride, pos_stride, out_ids, out_accepted);
}

void launch_kv_reorder(DType dtype, const void* src, void* dst, const std::int32_t* parents,
                       std::int64_t layers, std::int64_t sequences, std::int64_t kv_heads,
                       std::int64_t capacity, std::int64_t valid, std::int64_t head_dim,
                       cudaStream_t stream) {
    const i64 total = 2 * layers * sequences * kv_heads * valid * head_dim;
    dispatch_dtype(dtype, [&](auto tag) {
        using T = typename decltype(tag)::type;
        kv_reorder_kernel<T><<<grid_for(total, 256), 256, 0, stream>>>(
            static_cast<const T*>(src), static_cast<T*>(dst), parents, 2 * layers, sequences,
            kv_heads, capacity, valid, head_dim);
    });
}

}  // namespace tokenscope::kernels::cuda
