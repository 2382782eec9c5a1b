#pragma once
// A serving run of any size (issue 24): tensor-parallel decoding on several GPUs, as an
// engine traced with CUPTI looks, written through the store's own streaming writer with
// bounded memory. bench/make_large_run writes big ones; tests write small ones and check
// the truths planted in it (LargeRunTruth).
//
// Per GPU (one rank each): a CPU launch thread, a compute stream, an NCCL stream and a
// copy engine. Each iteration: a vLLM V1 marker on every rank's thread, an input copy
// (H2D), `layers` layers of ten kernels and one all-reduce, the LM head and sampling, the
// sampled tokens back (D2H), a synchronise. Every 16th iteration is a prefill, launched
// eagerly (an API call and launch facts per kernel, kernels ~10x longer); the others are
// decodes replayed as one CUDA graph (one cudaGraphLaunch whose correlation id all its
// kernels share). The all-reduce of a layer ends on every GPU at once, when the last
// rank has arrived.
#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "store/run_writer.h"

namespace tokenscope::bench {

struct LargeRunOptions {
    std::uint64_t activities = 1'000'000;  // written exactly (the last iteration is cut)
    int gpus = 8;
    int layers = 80;
    std::uint64_t seed = 1;
};

// What the generator planted.
struct LargeRunTruth {
    std::uint64_t activities = 0;
    std::int64_t iterations = 0;  // steps written (the last may be cut short)
    // GEMMs on this GPU take straggler_factor times as long: it reaches every all-reduce
    // last, and the other ranks' all-reduce kernels wait for it.
    int straggler_gpu = 0;
    double straggler_factor = 1.3;
    // Iterations [slow_first, slow_last] run every kernel slow_factor times as long (a
    // throttled window); slow_begin_ns..slow_end_ns spans their steps.
    std::int64_t slow_first = 0, slow_last = 0;
    std::int64_t slow_begin_ns = 0, slow_end_ns = 0;
    double slow_factor = 1.5;
};

namespace large_run_detail {

enum Kernel { Norm, Qkv, Rope, Cache, Attn, OProj, Norm2, GateUp, Act, Down, AllReduce };
constexpr int kPerLayer = 11;
constexpr int kPrefillEvery = 16;

// Decode durations (ns) on a healthy GPU; a prefill multiplies them (kPrefillScale).
constexpr std::array<std::int64_t, kPerLayer> kDecodeNs = {
    3'100, 17'500, 2'600, 2'200, 12'000, 8'200, 3'000, 29'500, 4'100, 15'800, 9'000};
constexpr std::array<int, kPerLayer> kPrefillScale = {8, 12, 8, 8, 14, 12, 8, 12, 8, 12, 6};
constexpr bool is_gemm(int k) {
    return k == Qkv || k == OProj || k == GateUp || k == Down;
}

// Kernel names as CUPTI reports vLLM's on an H100 (cuBLAS, flash-attention, vLLM, NCCL).
inline const char* kernel_name(int k, bool prefill) {
    static const char* const kNames[kPerLayer] = {
        "void vllm::fused_add_rms_norm_kernel<c10::BFloat16, 8>(c10::BFloat16*, "
        "c10::BFloat16*, c10::BFloat16 const*, float, int, int)",
        "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize64x64x64_warpgroupsize1x1x1_"
        "execute_segment_k_off_kernel__5x_cublas",
        "void vllm::rotary_embedding_kernel<c10::BFloat16, true>(long const*, c10::BFloat16*, "
        "c10::BFloat16*, c10::BFloat16 const*, int, long, long, int, int, int)",
        "void vllm::reshape_and_cache_flash_kernel<__nv_bfloat16, __nv_bfloat16, "
        "(vllm::Fp8KVCacheDataType)0>(__nv_bfloat16 const*, __nv_bfloat16 const*, "
        "__nv_bfloat16*, __nv_bfloat16*, long const*, int, int, int, int, int, int, float "
        "const*, float const*)",
        "void flash_fwd_splitkv_kernel<Flash_fwd_kernel_traits<128, 64, 128, 4, false, false, "
        "cutlass::bfloat16_t, Flash_kernel_traits<128, 64, 128, 4, cutlass::bfloat16_t> >, "
        "false, false, false, false, true, false, false, false>(flash::Flash_fwd_params)",
        "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize64x128x64_warpgroupsize1x1x1_"
        "execute_segment_k_off_kernel__5x_cublas",
        "void vllm::rms_norm_kernel<c10::BFloat16>(c10::BFloat16*, c10::BFloat16 const*, "
        "c10::BFloat16 const*, float, int, int)",
        "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_"
        "execute_segment_k_on_kernel__5x_cublas",
        "void vllm::act_and_mul_kernel<c10::BFloat16, &(c10::BFloat16 "
        "vllm::silu_kernel<c10::BFloat16>(c10::BFloat16 const&)), true>(c10::BFloat16*, "
        "c10::BFloat16 const*, int)",
        "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize64x64x64_warpgroupsize1x1x1_"
        "execute_segment_k_on_kernel__5x_cublas",
        "ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)"};
    if (prefill && k == Attn)
        return "void flash_fwd_kernel<Flash_fwd_kernel_traits<128, 128, 64, 4, false, false, "
               "cutlass::bfloat16_t, Flash_kernel_traits<128, 128, 64, 4, cutlass::bfloat16_t> "
               ">, false, true, false, false, true, true, false, false>(flash::Flash_fwd_params)";
    return kNames[k];
}

}  // namespace large_run_detail

// Writes the run into `out` (lanes, strings, activities, launches, steps) and returns
// what it planted; the caller finishes the writer.
class LargeRunGenerator {
  public:
    LargeRunGenerator(store::RunWriter& out, const LargeRunOptions& options)
        : out_(out), opt_(options) {
        opt_.gpus = std::clamp(opt_.gpus, 1, 64);
        opt_.layers = std::max(opt_.layers, 1);
        rng_ = opt_.seed * 0x9E3779B97F4A7C15ULL + 0x2545F4914F6CDD1DULL;
        truth_.straggler_gpu = static_cast<int>(opt_.seed % static_cast<std::uint64_t>(opt_.gpus));
        // The slow window: iterations 60% to 70% of the way through the run.
        const auto iterations = static_cast<std::int64_t>(static_cast<double>(opt_.activities) /
                                                          estimated_per_iteration());
        truth_.slow_first = iterations * 6 / 10;
        truth_.slow_last = std::max(truth_.slow_first, iterations * 7 / 10 - 1);
    }

    LargeRunTruth run() {
        add_lanes_and_names();
        for (std::int64_t i = 0; written_ < opt_.activities; ++i) iteration(i);
        truth_.activities = written_;
        return truth_;
    }

  private:
    struct Rank {
        std::uint16_t cpu, compute, nccl, copy;
        std::int64_t cpu_t = 0;  // where the launch thread is
        std::int64_t gpu_t = 0;  // where the compute stream is free
        std::uint32_t corr = 0;
        std::uint32_t graph_corr = 0;  // this iteration's cudaGraphLaunch; 0 = eager
        std::int64_t arrival = 0;      // at this layer's all-reduce
        std::uint32_t ar_corr = 0;
    };

    double estimated_per_iteration() const {
        const double kernels = opt_.layers * large_run_detail::kPerLayer + 2;
        const double decode = (kernels + 8) * opt_.gpus;
        const double prefill = (2 * kernels + 7) * opt_.gpus;
        const int n = large_run_detail::kPrefillEvery;
        return (prefill + (n - 1) * decode) / n;
    }

    std::uint64_t next() {  // xorshift64*: cheap, and good enough for jitter
        rng_ ^= rng_ >> 12;
        rng_ ^= rng_ << 25;
        rng_ ^= rng_ >> 27;
        return rng_ * 0x2545F4914F6CDD1DULL;
    }
    // `ns` with a jitter of -8% to +7%.
    std::int64_t jitter(std::int64_t ns) {
        return ns * (92 + static_cast<std::int64_t>(next() >> 60)) / 100;
    }

    void add_lanes_and_names();
    bool emit(std::uint16_t lane, trace::ActivityKind kind, std::uint32_t name, std::int64_t start,
              std::int64_t end, std::uint32_t corr, std::uint64_t bytes = 0,
              trace::CopyKind copy = trace::CopyKind::None);
    std::uint32_t launch(Rank& r, int kernel, std::int64_t& earliest);
    bool begin_iteration(std::int64_t start, bool prefill);
    bool layer(bool prefill, double slow);
    bool end_iteration(bool prefill, double slow, std::int64_t& end, std::int64_t& marker_end);
    void iteration(std::int64_t i);

    store::RunWriter& out_;
    LargeRunOptions opt_;
    LargeRunTruth truth_;
    std::uint64_t rng_;
    std::uint64_t written_ = 0;
    std::vector<Rank> ranks_;
    std::array<std::uint32_t, large_run_detail::kPerLayer> decode_names_{}, prefill_names_{};
    std::uint32_t lm_head_ = 0, sample_ = 0, launch_ = 0, graph_launch_ = 0, memcpy_ = 0, sync_ = 0,
                  h2d_ = 0, d2h_ = 0, prefill_marker_ = 0, decode_marker_ = 0;
    std::int64_t now_ = 1'000'000;  // the next iteration's start on every rank
};

inline void LargeRunGenerator::add_lanes_and_names() {
    using namespace large_run_detail;
    for (int g = 0; g < opt_.gpus; ++g) {
        const std::int64_t pid = 4100 + g;
        Rank r{};
        r.cpu = out_.add_lane(
            {trace::LaneKind::CpuThread, -1, pid, pid, "VllmWorker TP" + std::to_string(g), g});
        r.compute = out_.add_lane({trace::LaneKind::GpuStream, g, pid, 7, "stream 7", g});
        r.nccl = out_.add_lane({trace::LaneKind::GpuStream, g, pid, 13, "stream 13", g});
        r.copy = out_.add_lane({trace::LaneKind::CopyEngine, g, pid, 0, "copy engine 0", g});
        r.corr = static_cast<std::uint32_t>(g) << 27;  // ranks' ids apart, as processes' are
        ranks_.push_back(r);
    }
    for (int k = 0; k < kPerLayer; ++k) {
        decode_names_[k] = out_.intern(kernel_name(k, false));
        prefill_names_[k] = out_.intern(kernel_name(k, true));
    }
    lm_head_ = out_.intern(
        "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x256x64_warpgroupsize2x1x1_"
        "execute_segment_k_off_kernel__5x_cublas");
    sample_ = out_.intern(
        "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, "
        "at::native::ArgMaxOps<float>, unsigned int, long, 4> >(at::native::ReduceOp<float, "
        "at::native::ArgMaxOps<float>, unsigned int, long, 4>)");
    launch_ = out_.intern("cudaLaunchKernel");
    graph_launch_ = out_.intern("cudaGraphLaunch");
    memcpy_ = out_.intern("cudaMemcpyAsync");
    sync_ = out_.intern("cudaStreamSynchronize");
    h2d_ = out_.intern("Memcpy HtoD (Pinned -> Device)");
    d2h_ = out_.intern("Memcpy DtoH (Device -> Pinned)");
    // vLLM V1's markers: 8 new requests of 2048 prompt tokens beside 56 decoding ones.
    prefill_marker_ = out_.intern("execute_context_8(16384)_generation_56(56)");
    decode_marker_ = out_.intern("execute_context_0(0)_generation_64(64)");
}

// False once the run has all its activities: the callers stop there.
inline bool LargeRunGenerator::emit(std::uint16_t lane, trace::ActivityKind kind,
                                    std::uint32_t name, std::int64_t start, std::int64_t end,
                                    std::uint32_t corr, std::uint64_t bytes, trace::CopyKind copy) {
    if (written_ >= opt_.activities) return false;
    trace::Activity a;
    a.start_ns = start, a.end_ns = end, a.bytes = bytes, a.name = name;
    a.correlation = corr, a.lane = lane, a.kind = kind, a.copy = copy;
    out_.add_activity(a);
    return ++written_ < opt_.activities;
}

// A rank's launch of one kernel: in a graph replay nothing (the kernel carries the
// graph launch's id), else an API call with the kernel's launch facts. `earliest`
// becomes the earliest the kernel can start.
inline std::uint32_t LargeRunGenerator::launch(Rank& r, int kernel, std::int64_t& earliest) {
    if (r.graph_corr != 0) return r.graph_corr;
    const std::uint32_t corr = ++r.corr;
    const std::int64_t end = r.cpu_t + jitter(3'000);
    emit(r.cpu, trace::ActivityKind::Api, launch_, r.cpu_t, end, corr);
    earliest = std::max(earliest, r.cpu_t + 4'000);
    r.cpu_t = end + 900;
    trace::KernelLaunch facts;
    facts.correlation = corr;
    facts.grid = {132u * static_cast<std::uint32_t>(1 + kernel % 3), 1, 1};
    facts.block = {128u << (kernel % 2), 1, 1};
    facts.shared_bytes = kernel % 2 == 0 ? 49'152 : 0;
    facts.registers_per_thread = 128;
    out_.add_launch(facts);
    return corr;
}

// The input ids go up (the compute stream waits for them); a decode launches its graph.
inline bool LargeRunGenerator::begin_iteration(std::int64_t start, bool prefill) {
    for (Rank& r : ranks_) {
        const std::int64_t t = start + jitter(20'000);
        const std::uint32_t corr = ++r.corr;
        if (!emit(r.cpu, trace::ActivityKind::Api, memcpy_, t, t + 6'000, corr) ||
            !emit(r.copy, trace::ActivityKind::Memcpy, h2d_, t + 4'000, t + 9'000, corr, 65'536,
                  trace::CopyKind::H2D))
            return false;
        r.gpu_t = std::max(r.gpu_t, t + 10'000);
        r.cpu_t = t + 7'000;
        r.graph_corr = 0;
        if (!prefill) {
            r.graph_corr = ++r.corr;
            if (!emit(r.cpu, trace::ActivityKind::Api, graph_launch_, r.cpu_t, r.cpu_t + 24'000,
                      r.graph_corr))
                return false;
            r.cpu_t += 25'000;
        }
    }
    return true;
}

// One layer on every rank: ten kernels each, then the all-reduce, which ends on every
// GPU when the last rank has reached it.
inline bool LargeRunGenerator::layer(bool prefill, double slow) {
    using namespace large_run_detail;
    std::int64_t last_arrival = 0;
    for (std::size_t g = 0; g < ranks_.size(); ++g) {
        Rank& r = ranks_[g];
        const bool straggler = static_cast<int>(g) == truth_.straggler_gpu;
        for (int k = 0; k < AllReduce; ++k) {
            std::int64_t start = r.gpu_t;
            const std::uint32_t corr = launch(r, k, start);
            double ns =
                static_cast<double>(jitter(kDecodeNs[k] * (prefill ? kPrefillScale[k] : 1)));
            ns *= slow * (straggler && is_gemm(k) ? truth_.straggler_factor : 1.0);
            const auto end = start + static_cast<std::int64_t>(ns);
            const auto name = prefill ? prefill_names_[k] : decode_names_[k];
            if (!emit(r.compute, trace::ActivityKind::Kernel, name, start, end, corr)) return false;
            r.gpu_t = end + 1'200;
        }
        r.arrival = r.gpu_t;
        r.ar_corr = launch(r, AllReduce, r.arrival);
        last_arrival = std::max(last_arrival, r.arrival);
    }
    const std::int64_t ar_ns = kDecodeNs[AllReduce] * (prefill ? kPrefillScale[AllReduce] : 1);
    const std::int64_t ar_end = last_arrival + jitter(ar_ns);
    for (Rank& r : ranks_) {
        if (!emit(r.nccl, trace::ActivityKind::Kernel, decode_names_[AllReduce], r.arrival, ar_end,
                  r.ar_corr))
            return false;
        r.gpu_t = ar_end + 1'500;
    }
    return true;
}

// The LM head and sampling, the sampled tokens back, the thread's wait for them.
inline bool LargeRunGenerator::end_iteration(bool prefill, double slow, std::int64_t& end,
                                             std::int64_t& marker_end) {
    for (Rank& r : ranks_) {
        std::int64_t t0 = r.gpu_t;
        std::uint32_t corr = launch(r, 1, t0);
        const auto head = static_cast<std::int64_t>(
            static_cast<double>(jitter(prefill ? 210'000 : 38'000)) * slow);
        if (!emit(r.compute, trace::ActivityKind::Kernel, lm_head_, t0, t0 + head, corr))
            return false;
        t0 += head + 1'000;
        r.graph_corr = 0;  // sampling runs outside the graph
        corr = launch(r, 4, t0);
        const auto sample = static_cast<std::int64_t>(static_cast<double>(jitter(6'000)) * slow);
        if (!emit(r.compute, trace::ActivityKind::Kernel, sample_, t0, t0 + sample, corr))
            return false;
        r.gpu_t = t0 + sample + 1'000;
        const std::int64_t t = r.cpu_t;
        corr = ++r.corr;
        if (!emit(r.cpu, trace::ActivityKind::Api, memcpy_, t, t + 5'000, corr) ||
            !emit(r.copy, trace::ActivityKind::Memcpy, d2h_, r.gpu_t, r.gpu_t + 3'000, corr, 512,
                  trace::CopyKind::D2H))
            return false;
        r.gpu_t += 3'000;
        const std::int64_t sync_end = std::max(t + 6'000, r.gpu_t) + 2'000;
        if (!emit(r.cpu, trace::ActivityKind::Sync, sync_, t + 5'500, sync_end, 0)) return false;
        r.cpu_t = sync_end;
        marker_end = std::max(marker_end, sync_end + 3'000);
        end = std::max(end, r.gpu_t);
    }
    return true;
}

inline void LargeRunGenerator::iteration(std::int64_t i) {
    const bool prefill = i % large_run_detail::kPrefillEvery == 0;
    const bool in_slow = i >= truth_.slow_first && i <= truth_.slow_last;
    const double slow = in_slow ? truth_.slow_factor : 1.0;
    const std::int64_t start = now_;
    bool more = begin_iteration(start, prefill);
    for (int l = 0; l < opt_.layers && more; ++l) more = layer(prefill, slow);
    std::int64_t end = start, marker_end = start;
    more = more && end_iteration(prefill, slow, end, marker_end);
    if (!more) {  // the run has all its activities: the cut iteration ends with its last
        for (const Rank& r : ranks_) end = std::max({end, r.gpu_t, r.cpu_t});
        marker_end = end;
    }
    // Markers go last, when their end is known (the writer sorts each lane's chunk).
    for (const Rank& r : ranks_)
        emit(r.cpu, trace::ActivityKind::Range, prefill ? prefill_marker_ : decode_marker_, start,
             marker_end, 0);
    trace::Step step;
    step.index = static_cast<std::int32_t>(i);
    step.phase = prefill ? trace::Phase::Prefill : trace::Phase::Decode;
    step.start_ns = start;
    step.end_ns = std::max(end, marker_end);
    step.marker_end_ns = marker_end;
    step.batch = prefill ? trace::BatchComposition{8, 16384, 56, 56, 16384, 56 * 2304}
                         : trace::BatchComposition{0, 0, 64, 64, 0, 64 * 2304};
    out_.add_step(step);
    truth_.iterations = i + 1;
    if (i == truth_.slow_first) truth_.slow_begin_ns = step.start_ns;
    if (i == truth_.slow_last) truth_.slow_end_ns = step.end_ns;
    now_ = step.end_ns + jitter(300'000);  // the scheduler's gap before the next iteration
}

}  // namespace tokenscope::bench
