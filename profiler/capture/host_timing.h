#pragma once

#include <cstdint>

namespace tokenscope::capture {

// The host side of the model backend, before jitter: a CUDA runtime on a modern
// server CPU spends a few microseconds per call, and a launched kernel reaches the
// GPU a few microseconds after its call began.
struct HostTiming {
    std::int64_t launch_api_ns = 2500;      // cudaLaunchKernel
    std::int64_t memcpy_api_ns = 3000;      // cudaMemcpyAsync
    std::int64_t launch_latency_ns = 4000;  // call start -> earliest kernel or copy start
    std::int64_t sync_min_ns = 1000;        // cudaStreamSynchronize on an idle stream
    // Host work between an emission and the next iteration's first call (detokenize,
    // stop checks, batch bookkeeping): untraced, so it shows as scheduling.
    std::int64_t scheduler_gap_ns = 6000;
};

}  // namespace tokenscope::capture
