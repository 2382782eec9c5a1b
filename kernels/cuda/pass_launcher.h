#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <functional>
#include <vector>

#include "decode_schedule.h"
#include "device_model.h"
#include "device_ops.h"
#include "device_workspace.h"

namespace tokenscope::kernels::cuda {

// Enqueues one iteration's kernels on the compute stream: for every pass, exactly the
// KernelSpecs PassBuilder lists, in order, one launch each, with an NVTX range per
// layer ("layer 3", "draft layer 0").
class PassLauncher {
  public:
    PassLauncher(const DecodeSchedule& schedule, const DeviceModel& model,
                 DeviceWorkspace& workspace, cudaStream_t stream);

    // Called around each plan entry's launches (eager launches only).
    struct EntryHooks {
        const std::function<void(std::size_t)>* begin = nullptr;
        const std::function<void()>* end = nullptr;
    };
    // checked: check_launch after each kernel (false while a stream is being
    // captured, where TOKENSCOPE_CUDA_DEBUG's synchronize is not allowed). Returns the
    // kernels each plan entry launched, in plan order.
    std::vector<std::int32_t> launch(const ScheduledIteration& iteration, bool checked,
                                     const EntryHooks& hooks);
    std::vector<std::int32_t> launch(const ScheduledIteration& iteration, bool checked = true) {
        return launch(iteration, checked, EntryHooks{});
    }

  private:
    struct PassState {
        const PassSpec* pass = nullptr;
        std::int32_t iteration = 0;
        const std::int32_t* ids = nullptr;  // the pass's input ids
        std::int64_t seq_stride = 1;
        std::int64_t pos_stride = 1;
        std::int32_t* draft_out = nullptr;  // draft argmax target (speculative)
    };
    PassState state_for(const ScheduledIteration& it, std::size_t pass_index) const;
    // Each returns how many kernels it launched.
    int launch_kernel(const KernelSpec& k, const PassState& st);
    int launch_layer_kernel(const KernelSpec& k, const PassState& st);
    int launch_head_kernel(const KernelSpec& k, const PassState& st);
    AttentionShape attention_shape(const PassSpec& p) const;

    const DecodeSchedule& schedule_;
    const DeviceModel& model_;
    DeviceWorkspace& ws_;
    cudaStream_t stream_;
};

}  // namespace tokenscope::kernels::cuda
