#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "decode_schedule.h"
#include "device_model.h"
#include "device_ops.h"
#include "device_workspace.h"
#include "matmul_engine.h"

namespace tokenscope::kernels::cuda {

// Enqueues one iteration's kernels on the compute stream: for every pass, exactly the
// KernelSpecs PassBuilder lists, in order, with an NVTX range per layer ("layer 3",
// "draft layer 0"). Each entry is one launch of ours, or one MatmulEngine call for the
// projections and the LM head (a cuBLASLt call may launch a helper kernel as well).
class PassLauncher {
  public:
    PassLauncher(const DecodeSchedule& schedule, const DeviceModel& model,
                 DeviceWorkspace& workspace, MatmulEngine& matmuls, cudaStream_t stream);

    // Called around each plan entry's launches (eager launches only).
    struct EntryHooks {
        const std::function<void(std::size_t)>* begin = nullptr;
        const std::function<void()>* end = nullptr;
    };
    struct Options {
        // check_launch after each kernel (false while a stream is being captured, where
        // TOKENSCOPE_CUDA_DEBUG's synchronize is not allowed).
        bool checked = true;
        EntryHooks hooks;
        // The kernels read the context length and the iteration from the workspace's
        // step state (uploaded with the token ids), and the attention is split for the
        // cache's capacity: what one CUDA graph, captured once, needs to replay every
        // decode step of its parity. Greedy and top-k decode only.
        bool device_step = false;
    };
    // Returns the kernels each plan entry launched, in plan order.
    std::vector<std::int32_t> launch(const ScheduledIteration& iteration, const Options& options);
    std::vector<std::int32_t> launch(const ScheduledIteration& iteration) {
        return launch(iteration, Options{});
    }
    // Chooses the algorithm of every product of the iteration and counts its kernels
    // (MatmulEngine::prepare); launches nothing. Before tracing and any capture.
    void prepare(const ScheduledIteration& iteration);

  private:
    struct PassState {
        const PassSpec* pass = nullptr;
        std::int32_t iteration = 0;
        const std::int32_t* ids = nullptr;  // the pass's input ids
        std::int64_t seq_stride = 1;
        std::int64_t pos_stride = 1;
        std::int32_t* draft_out = nullptr;  // draft argmax target (speculative)
        bool device_step = false;
    };
    PassState state_for(const ScheduledIteration& it, std::size_t pass_index) const;
    std::optional<MatmulCall> matmul_call(const KernelSpec& k, const PassState& st) const;
    // Each returns how many kernels it launched.
    int launch_kernel(const KernelSpec& k, const PassState& st);
    int launch_layer_kernel(const KernelSpec& k, const PassState& st);
    int launch_head_kernel(const KernelSpec& k, const PassState& st);
    AttentionShape attention_shape(const PassState& st) const;

    const DecodeSchedule& schedule_;
    const DeviceModel& model_;
    DeviceWorkspace& ws_;
    MatmulEngine& matmuls_;
    cudaStream_t stream_;
    int sm_count_ = 1;
};

}  // namespace tokenscope::kernels::cuda
