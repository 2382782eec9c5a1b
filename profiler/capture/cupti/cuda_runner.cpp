#include "cuda_runner.h"

#include <stdexcept>

#include "capture/cuda_backend.h"

#ifdef TOKENSCOPE_HAVE_KERNELS_CUDA
#include <cupti.h>
#include <dlfcn.h>
#include <unistd.h>

#include <cstdlib>

#include "capture/model_workload.h"
#include "cuda_run_info.h"
#include "cupti_tracer.h"
#include "kernels/cuda/cuda_decode_runner.h"
#include "kernels/decode_planner.h"
#endif

namespace tokenscope::capture::cupti {
namespace {

#ifdef TOKENSCOPE_HAVE_KERNELS_CUDA
// NVTX reaches CUPTI only through NVTX_INJECTION64_PATH, read at the first NVTX call:
// point it at the libcupti this process already loaded, unless the user chose one.
void route_nvtx_to_cupti() {
    Dl_info info{};
    if (dladdr(reinterpret_cast<void*>(&cuptiGetVersion), &info) != 0 && info.dli_fname != nullptr)
        setenv("NVTX_INJECTION64_PATH", info.dli_fname, 0);
}

// Steps and requests from the tokens' emission times. They are written after the
// tracer stopped: while it runs, only its writer thread may touch the writer.
void write_steps(const kernels::cuda::DecodeResult& result, const kernels::DecodeConfig& decode,
                 store::RunWriter& writer) {
    const std::int64_t arrival =
        result.iterations.empty() ? result.run_begin_ns : result.iterations.front().begin_ns;
    for (std::size_t r = 0; r < result.emission_ns.size(); ++r) {
        const auto& emitted = result.emission_ns[r];
        for (std::size_t j = 0; j < emitted.size(); ++j) {
            trace::Step s;
            s.request = static_cast<std::int64_t>(r + 1);
            s.index = static_cast<std::int32_t>(j);
            s.phase = j == 0 ? trace::Phase::Prefill : trace::Phase::Decode;
            s.start_ns = j == 0 ? arrival : emitted[j - 1];
            s.end_ns = emitted[j];
            writer.add_step(s);
        }
        trace::Request req;
        req.id = static_cast<std::int64_t>(r + 1);
        req.arrival_ns = arrival;
        req.first_token_ns = emitted.empty() ? 0 : emitted.front();
        req.done_ns = emitted.empty() ? 0 : emitted.back();
        req.input_len = static_cast<std::int32_t>(decode.prompt_len);
        req.output_len = static_cast<std::int32_t>(emitted.size());
        writer.add_request(req);
    }
}

void run_with_kernels(const CaptureConfig& config, store::RunWriter& writer,
                      const trace::ProgressFn& progress) {
    const ModelRunSpec spec = resolve_model_run(config);
    route_nvtx_to_cupti();
    writer.update_info(cuda_run_info(spec, 0));
    // Weights are made before tracing starts: their init kernels are not the workload.
    kernels::cuda::CudaDecodeRunner runner(spec.shape, spec.decode, 0);
    const std::int32_t total = kernels::DecodePlanner(spec.shape, spec.decode).iteration_count();
    std::int32_t done = 0;
    kernels::cuda::RunnerHooks hooks;
    hooks.iteration_end = [&](const kernels::IterationPlan&,
                              const kernels::cuda::IterationTiming&) {
        ++done;
        if (progress && !progress(done, total)) throw trace::Cancelled();
    };
    TracerOptions options;
    options.decoder.steps_from_markers = false;  // steps are tokens, written below
    options.decoder.process_id = getpid();
    CuptiTracer tracer(options);
    tracer.start(writer);
    kernels::cuda::DecodeResult result;
    try {
        result = runner.run(hooks);
    } catch (...) {
        try {
            tracer.stop();  // the run's own failure is the one to report
        } catch (...) {
        }
        throw;
    }
    tracer.stop();
    write_steps(result, spec.decode, writer);
}
#endif

}  // namespace

void install_cuda_runner() {
    set_cuda_runner(&run_traced_workload);
}

bool cuda_workload_built() {
#ifdef TOKENSCOPE_HAVE_KERNELS_CUDA
    return true;
#else
    return false;
#endif
}

void run_traced_workload(const CaptureConfig& config, store::RunWriter& writer,
                         const trace::ProgressFn& progress) {
#ifdef TOKENSCOPE_HAVE_KERNELS_CUDA
    run_with_kernels(config, writer, progress);
#else
    (void)config;
    (void)writer;
    (void)progress;
    throw std::runtime_error("built-in CUDA workload not available in this build");
#endif
}

}  // namespace tokenscope::capture::cupti
