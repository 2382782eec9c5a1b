#include "capture/cuda/cuda_backend.h"

#include "capture/failed_run.h"

#include <atomic>
#include <stdexcept>
#include <utility>

namespace tokenscope::capture {
namespace {

std::atomic<CudaRunner> g_runner{nullptr};

}  // namespace

void set_cuda_runner(CudaRunner runner) {
    g_runner.store(runner);
}

CudaRunner cuda_runner() {
    return g_runner.load();
}

CudaBackend::CudaBackend(ProbeFn probe) : probe_(std::move(probe)) {
    if (!probe_) probe_ = [] { return DriverProbe().probe(); };
}

Availability CudaBackend::available() const {
    // The driver first: on a machine without one that is the reason that matters,
    // whether or not this process was built with the CUDA runner.
    const DriverStatus status = probe_();
    if (!status.ok) return {false, status.reason};
    if (cuda_runner() == nullptr)
        return {false,
                "this build has no CUDA support (built without the CUDA toolkit); use "
                "--backend cpu or --backend model"};
    return {true, {}};
}

void CudaBackend::run(const CaptureConfig& config, store::RunWriter& writer,
                      const trace::ProgressFn& progress) {
    try {
        const Availability a = available();
        if (!a.ok) throw std::runtime_error(a.reason);
        cuda_runner()(config, writer, progress);
        writer.finish();
    } catch (...) {
        end_failed_run(writer, std::current_exception());
        throw;
    }
}

}  // namespace tokenscope::capture
