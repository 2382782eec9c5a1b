#pragma once

#include <functional>

#include "capture/backend.h"
#include "capture/driver_probe.h"

namespace tokenscope::capture {

// Runs the built-in workload on the GPU, traced, writing the run through `writer`
// (activities, steps, requests, diagnostics, info). It neither finishes nor abandons
// the run: CudaBackend does. Throws on failure.
using CudaRunner = void (*)(const CaptureConfig& config, store::RunWriter& writer,
                            const trace::ProgressFn& progress);

// tokenscope_cupti installs its runner (cupti::install_cuda_runner()); this library
// has no CUDA code, so without it the cuda backend reports "no CUDA support".
void set_cuda_runner(CudaRunner runner);
CudaRunner cuda_runner();

// The `cuda` backend (docs/capture.md, Backends): available when this build has CUDA support
// and the probe finds a driver and a GPU; run() delegates to the installed runner.
class CudaBackend : public Backend {
  public:
    using ProbeFn = std::function<DriverStatus()>;

    // Probes libcuda.so.1 by default; tests pass their own probe.
    explicit CudaBackend(ProbeFn probe = {});

    std::string_view name() const override { return "cuda"; }
    Availability available() const override;
    // Throws std::runtime_error with the availability reason when not available.
    void run(const CaptureConfig& config, store::RunWriter& writer,
             const trace::ProgressFn& progress) override;

  private:
    ProbeFn probe_;
};

}  // namespace tokenscope::capture
