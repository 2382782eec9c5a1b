#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "cuda_error.h"
#include "kernels/decode_config.h"
#include "kernels/iteration_plan.h"
#include "kernels/model_shape.h"

namespace tokenscope::kernels::cuda {

// Host times are CLOCK_MONOTONIC_RAW nanoseconds.
struct IterationTiming {
    std::int32_t index = 0;  // 0 = prefill
    bool prefill = false;
    std::int64_t begin_ns = 0;        // before the token-id upload is enqueued
    std::int64_t end_ns = 0;          // after the sampled ids reached the host: the emission time
    std::int32_t tokens_emitted = 0;  // per request
    std::int32_t accepted = 0;        // speculative: drafts kept (lockstep over the batch)
    // Launched as one CUDA graph: its kernels share the cudaGraphLaunch's correlation id
    // and no entry hooks ran (the entries were captured, not launched).
    bool graph = false;
    // Kernels each plan entry launched, in plan order: 1 for the workload's own
    // kernels, more for a library call that adds helpers (split-K reductions).
    std::vector<std::int32_t> kernels_per_entry;
};

struct DecodeResult {
    // [request][token]: the generated ids (beam search: the best beam's sequence), and
    // when each token reached the host (beam search: when its step's ids did).
    std::vector<std::vector<std::int32_t>> tokens;
    std::vector<std::vector<std::int64_t>> emission_ns;
    std::vector<IterationTiming> iterations;
    // [sequence][vocab] fp32: the logits each sequence's last emitted token was chosen from.
    std::vector<float> final_logits;
    std::int64_t final_logit_rows = 0;
    std::int64_t run_begin_ns = 0;
    std::int64_t run_end_ns = 0;
    // With CUDA graphs: decode iterations launched as one graph each, and how many
    // times the executable graph had to be instantiated (1 when every later
    // iteration's capture could update it in place).
    std::int32_t graph_launches = 0;
    std::int32_t graph_instantiations = 0;
};

// What a tracer hooks into. Called on the thread that called run().
struct RunnerHooks {
    // Before the iteration's first CUDA call; plan.kernels is exactly what will launch.
    std::function<void(const IterationPlan& plan, std::int64_t begin_ns)> iteration_begin;
    // After the emission; plan.tokens_emitted and plan.accepted are the real ones.
    std::function<void(const IterationPlan& plan, const IterationTiming& timing)> iteration_end;
    // Around the launches of plan.kernels[entry] when they are made eagerly (never while
    // a graph is captured): a tracer tags the CUDA calls in between (the cuda backend
    // with CUPTI external correlation ids) to find each kernel's plan entry.
    std::function<void(std::size_t entry)> entry_begin;
    std::function<void()> entry_end;
};

// The built-in decode workload on one GPU: weights from the seed (equal to the CPU
// reference's), one compute stream for the kernels of DecodeSchedule's plans in order
// and one copy stream for the token-id upload and the sampled-id download. NVTX ranges:
// "request N" (start/end), "prefill", "decode step N", "layer L" / "draft layer L".
// Throws std::invalid_argument for a bad shape or config, CudaError for any CUDA
// failure (with the runtime's error string).
class CudaDecodeRunner {
  public:
    CudaDecodeRunner(const ModelShape& shape, const DecodeConfig& config, int device = 0);
    ~CudaDecodeRunner();
    CudaDecodeRunner(const CudaDecodeRunner&) = delete;
    CudaDecodeRunner& operator=(const CudaDecodeRunner&) = delete;

    // Decode iterations as CUDA graphs: each iteration's kernels are recorded by stream
    // capture and launched with one cudaGraphLaunch. The executable graph is
    // instantiated once and updated in place from each later capture
    // (cudaGraphExecUpdate: the context length and sampler slot differ per step, the
    // kernels do not), as llama.cpp does. Prefill runs eagerly. Off by default.
    void set_cuda_graphs(bool on);
    // Prompts to use instead of default_prompts: batch rows of prompt_len ids in 0..vocab-1.
    void set_prompts(std::vector<std::vector<std::int32_t>> prompts);
    // Runs the whole decode once; may be called again (the KV cache is rebuilt by prefill).
    DecodeResult run(const RunnerHooks& hooks = {});
    // What computes the projections and the LM head, for reports and run descriptions.
    std::string kernels_description() const;

    // Seeded prompts, the CPU reference's: request by request, SplitMix64(seed ^ kPromptStream)
    // draws % vocab (kernels/cpu/reference_decoder.h).
    static std::vector<std::vector<std::int32_t>> default_prompts(const ModelShape& shape,
                                                                  const DecodeConfig& config);
    // Visible CUDA devices; 0 (never an exception) without a driver or device.
    static int device_count();
    static constexpr std::uint64_t kPromptStream = 0x9e0a7b1c2d3e4f50ull;
    static std::string device_name(int device);

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace tokenscope::kernels::cuda
