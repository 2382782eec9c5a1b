#include "cuda_runner.h"

#include <stdexcept>

#include "capture/cuda/cuda_backend.h"

#ifdef TOKENSCOPE_HAVE_KERNELS_CUDA
#include <cupti.h>
#include <dlfcn.h>
#include <unistd.h>

#include <cstdlib>
#include <nlohmann/json.hpp>

#include "capture/model/model_workload.h"
#include "capture/nvml_sampler.h"
#include "cuda_run_info.h"
#include "cupti_tracer.h"
#include "kernel_plan_matcher.h"
#include "kernels/cuda/cuda_decode_runner.h"
#include "kernels/decode_planner.h"
#include "pm_sampler.h"
#include "record_layouts.h"
#include "token_steps.h"
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
                 const std::vector<IterationTokens>& iterations, store::RunWriter& writer) {
    const std::int64_t arrival =
        result.iterations.empty() ? result.run_begin_ns : result.iterations.front().begin_ns;
    for (const auto& s : token_steps(result.emission_ns, arrival, iterations)) writer.add_step(s);
    for (std::size_t r = 0; r < result.emission_ns.size(); ++r) {
        const auto& emitted = result.emission_ns[r];
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

// External correlation ids for the plan entries: entry i of the iteration under way
// is first + i. Ids are never reused within a run.
struct EntryTags {
    std::uint64_t next = 1;
    std::uint64_t first = 0;
};

// The runner's hooks: progress, the iteration windows the plan matcher names kernels
// by (with each entry's kernel count and, for eager launches, the tag of its CUDA
// calls), and each iteration's floor.
kernels::cuda::RunnerHooks traced_hooks(const ModelRunSpec& spec, const trace::GpuInfo& gpu,
                                        const trace::ProgressFn& progress,
                                        KernelPlanMatcher& matcher, EntryTags& tags,
                                        std::vector<IterationTokens>& iterations) {
    const std::int32_t total = kernels::DecodePlanner(spec.shape, spec.decode).iteration_count();
    kernels::cuda::RunnerHooks hooks;
    hooks.iteration_begin = [&tags](const kernels::IterationPlan& plan, std::int64_t) {
        tags.first = tags.next;
        tags.next += plan.kernels.size();
    };
    hooks.entry_begin = [&tags](std::size_t entry) {
        cuptiActivityPushExternalCorrelationId(kPlanEntryTagKind, tags.first + entry);
    };
    hooks.entry_end = [] { cuptiActivityPopExternalCorrelationId(kPlanEntryTagKind, nullptr); };
    hooks.iteration_end = [&, gpu, total](const kernels::IterationPlan& plan,
                                          const kernels::cuda::IterationTiming& t) {
        matcher.add_iteration(plan, t.begin_ns, t.end_ns,
                              {t.graph ? 0 : tags.first, t.kernels_per_entry});
        iterations.push_back({plan.tokens_emitted, iteration_floor_ns(plan, gpu)});
        if (progress && !progress(static_cast<std::int32_t>(iterations.size()), total))
            throw trace::Cancelled();
    };
    return hooks;
}

// The workload JSON says whether decode ran as CUDA graphs (the trace looks different)
// and, once the runner is made, what computes the projections (cuBLASLt or ours).
trace::RunInfo with_workload(trace::RunInfo info, bool cuda_graphs, const std::string& kernels) {
    nlohmann::json j = nlohmann::json::parse(info.workload_json, nullptr, false);
    if (j.is_object()) {
        j["cuda_graphs"] = cuda_graphs;
        if (!kernels.empty()) j["kernels"] = kernels;
        info.workload_json = j.dump();
    }
    return info;
}

void run_with_kernels(const CaptureConfig& config, store::RunWriter& writer,
                      const trace::ProgressFn& progress) {
    const ModelRunSpec spec = resolve_model_run(config);
    route_nvtx_to_cupti();
    trace::RunInfo info = with_workload(cuda_run_info(spec, 0), config.cuda_graphs, "");
    writer.update_info(info);
    // Weights are made, and the library's algorithms chosen, before tracing starts: their
    // kernels are not the workload.
    kernels::cuda::CudaDecodeRunner runner(spec.shape, spec.decode, 0);
    runner.set_cuda_graphs(config.cuda_graphs);
    info = with_workload(cuda_run_info(spec, 0), config.cuda_graphs, runner.kernels_description());
    writer.update_info(info);
    KernelPlanMatcher matcher;
    EntryTags tags;
    std::vector<IterationTokens> iterations;
    const auto hooks = traced_hooks(spec, info.gpu, progress, matcher, tags, iterations);
    NvmlSampler nvml;
    nvml.start();  // without NVML it queues an info diagnostic; the run goes on
    TracerOptions options;
    options.decoder.steps_from_markers = false;  // steps are tokens, written below
    options.decoder.process_id = getpid();
    options.decoder.plan_matcher = &matcher;
    options.external_correlation = true;  // the entry tags of the hooks above
    PmSampler pm;
    if (config.pm_sampling)
        if (std::string why = pm.start(0); !why.empty())
            writer.add_diagnostic({"pm_sampling_unavailable", trace::Severity::Info, 1.0,
                                   "CUPTI PM sampling unavailable: " + why});
    if (!pm.summary().empty())
        writer.add_diagnostic({"pm_sampling_metrics", trace::Severity::Info, 1.0, pm.summary()});
    options.on_writer_tick = [&nvml, &pm](store::RunWriter& w) {
        nvml.drain(w);
        pm.poll(w);
    };
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
    nvml.stop();
    nvml.drain(writer);
    pm.stop(writer);
    write_steps(result, spec.decode, iterations, writer);
    if (config.cuda_graphs)
        writer.add_diagnostic(
            {"cuda_graph_launches", trace::Severity::Info,
             static_cast<double>(result.graph_launches),
             "decode iterations launched as CUDA graphs (one cudaGraphLaunch each), " +
                 std::to_string(result.graph_instantiations) +
                 " executable graph(s) instantiated in this run: greedy and top-k decode "
                 "capture one graph per parity once and replay it, the step read from device "
                 "memory; other strategies capture every iteration and update the graph in "
                 "place; prefill ran eagerly"});
}

std::vector<std::vector<std::int64_t>> run_plain(const CaptureConfig& config) {
    const ModelRunSpec spec = resolve_model_run(config);
    kernels::cuda::CudaDecodeRunner runner(spec.shape, spec.decode, 0);
    runner.set_cuda_graphs(config.cuda_graphs);
    return runner.run().emission_ns;
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

std::vector<std::vector<std::int64_t>> run_untraced_workload(const CaptureConfig& config) {
#ifdef TOKENSCOPE_HAVE_KERNELS_CUDA
    return run_plain(config);
#else
    (void)config;
    throw std::runtime_error("built-in CUDA workload not available in this build");
#endif
}

}  // namespace tokenscope::capture::cupti
