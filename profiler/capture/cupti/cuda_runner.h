#pragma once

#include <cstdint>
#include <vector>

#include "capture/capture_config.h"
#include "store/run_writer.h"
#include "trace/progress.h"

namespace tokenscope::capture::cupti {

// Makes the `cuda` backend run the built-in workload traced with CUPTI: call once
// at start-up in programs built with CUDA (tokenscope-cli does).
void install_cuda_runner();

// Whether kernels/cuda's workload was built into this library (a CUDA compiler was found).
bool cuda_workload_built();

// The runner itself (a CudaRunner): writes the run; CudaBackend finishes or abandons
// it. Starts a CuptiTracer around kernels::cuda::CudaDecodeRunner and writes one
// step per token from the emission times. Without kernels/cuda in the build it
// throws std::runtime_error("built-in CUDA workload not available in this build").
void run_traced_workload(const CaptureConfig& config, store::RunWriter& writer,
                         const trace::ProgressFn& progress);

// The same workload without CUPTI (the baseline of the tracing overhead): returns
// [request][token] emission times, CLOCK_MONOTONIC_RAW ns. Throws CudaError for a
// CUDA failure and std::runtime_error as above without kernels/cuda.
std::vector<std::vector<std::int64_t>> run_untraced_workload(const CaptureConfig& config);

}  // namespace tokenscope::capture::cupti
