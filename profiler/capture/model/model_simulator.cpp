#include "capture/model/model_simulator.h"

#include <algorithm>

#include "capture/activity_factory.h"
#include "capture/batch_requests.h"

namespace tokenscope::capture {
namespace {

using trace::Activity;
using trace::ActivityKind;

}  // namespace

ModelSimulator::ModelSimulator(const ModelRunSpec& spec, store::RunWriter& writer)
    : spec_(spec),
      writer_(writer),
      planner_(spec.shape, spec.decode),
      cost_(roofline_of(spec.gpu)),
      jitter_(spec.jitter, spec.decode.seed),
      kernel_name_(writer) {}

void ModelSimulator::add_lanes() {
    constexpr std::int64_t kPid = 1;
    host_lane_ = writer_.add_lane({trace::LaneKind::CpuThread, -1, kPid, 1, "main thread"});
    compute_lane_ =
        writer_.add_lane({trace::LaneKind::GpuStream, 0, kPid, 7, "stream 7 (compute)"});
    copy_lane_ =
        writer_.add_lane({trace::LaneKind::CopyEngine, 0, kPid, 8, "copy engine (stream 8)"});
    step_lane_ = writer_.add_lane({trace::LaneKind::StepTrack, -1, kPid, 0, "decode iterations"});
    launch_name_ = writer_.intern("cudaLaunchKernel");
    memcpy_name_ = writer_.intern("cudaMemcpyAsync");
    sync_name_ = writer_.intern("cudaStreamSynchronize");
    h2d_name_ = writer_.intern("Memcpy HtoD");
    d2h_name_ = writer_.intern("Memcpy DtoH");
}

void ModelSimulator::run(const trace::ProgressFn& progress) {
    add_lanes();
    writer_.add_diagnostic(
        {"model_run", trace::Severity::Info, 1.0,
         "produced by the cost model on a GPU preset (" + spec_.gpu.name +
             "), not measured: kernel time = max(FLOPs / peak, bytes / bandwidth) + overhead, "
             "with modelled jitter"});
    const std::int32_t total = planner_.iteration_count();
    for (std::int32_t i = 0; i < total; ++i) {
        const auto plan = planner_.iteration(i);
        const auto times = simulate(plan);
        add_steps(plan, times);
        writer_.poll();
        if (progress && !progress(i + 1, total)) throw trace::Cancelled();
    }
    add_requests();
}

ModelSimulator::IterationTimes ModelSimulator::simulate(const kernels::IterationPlan& plan) {
    IterationTimes t;
    t.start_ns = host_ns_;
    const auto launches = static_cast<std::int64_t>(plan.kernels.size());
    const std::int64_t hiccup_at = jitter_.hiccup_position(launches);
    const std::int64_t uploaded = copy(trace::CopyKind::H2D, plan.h2d_bytes, 0);
    for (std::int64_t k = 0; k < launches; ++k) {
        if (k == hiccup_at) host_ns_ += jitter_.hiccup_ns();
        launch(plan.kernels[static_cast<std::size_t>(k)], k == 0 ? uploaded : 0);
    }
    const std::int64_t downloaded = copy(trace::CopyKind::D2H, plan.d2h_bytes, compute_free_ns_);
    t.emission_ns = synchronize(downloaded);
    const char* name = plan.prefill ? "prefill"
                       : planner_.config().strategy == kernels::Strategy::Speculative
                           ? "speculative decode"
                           : "decode";
    writer_.add_activity(make_activity(ActivityKind::Range, step_lane_, writer_.intern(name),
                                       t.start_ns, t.emission_ns));
    host_ns_ = t.emission_ns + jitter_.api(spec_.host.scheduler_gap_ns);
    return t;
}

std::int64_t ModelSimulator::copy(trace::CopyKind kind, std::uint64_t bytes,
                                  std::int64_t ready_ns) {
    const std::uint32_t corr = ++correlation_;
    const std::int64_t api_start = host_ns_;
    host_ns_ += jitter_.api(spec_.host.memcpy_api_ns);
    auto api = make_activity(ActivityKind::Api, host_lane_, memcpy_name_, api_start, host_ns_);
    api.correlation = corr;
    writer_.add_activity(api);
    const std::int64_t start =
        std::max({api_start + spec_.host.launch_latency_ns, copy_free_ns_, ready_ns});
    copy_free_ns_ = start + jitter_.kernel(cost_.copy_ns(bytes));
    auto c =
        make_activity(ActivityKind::Memcpy, copy_lane_,
                      kind == trace::CopyKind::H2D ? h2d_name_ : d2h_name_, start, copy_free_ns_);
    c.copy = kind;
    c.bytes = bytes;
    c.correlation = corr;
    writer_.add_activity(c);
    return copy_free_ns_;
}

void ModelSimulator::launch(const kernels::KernelSpec& kernel, std::int64_t ready_ns) {
    const std::uint32_t corr = ++correlation_;
    const std::int64_t api_start = host_ns_;
    host_ns_ += jitter_.api(spec_.host.launch_api_ns);
    auto api = make_activity(ActivityKind::Api, host_lane_, launch_name_, api_start, host_ns_);
    api.correlation = corr;
    writer_.add_activity(api);
    const std::int64_t start =
        std::max({api_start + spec_.host.launch_latency_ns, compute_free_ns_, ready_ns});
    compute_free_ns_ = start + jitter_.kernel(cost_.kernel_ns(kernel));
    auto k = make_activity(ActivityKind::Kernel, compute_lane_, kernel_name_(kernel), start,
                           compute_free_ns_);
    k.flops = static_cast<float>(kernel.flops);
    k.bytes = kernel.bytes();
    k.correlation = corr;
    writer_.add_activity(k);
}

std::int64_t ModelSimulator::synchronize(std::int64_t done_ns) {
    const std::int64_t start = host_ns_;
    const std::int64_t end = std::max(done_ns, start + jitter_.api(spec_.host.sync_min_ns));
    auto s = make_activity(ActivityKind::Sync, host_lane_, sync_name_, start, end);
    s.correlation = ++correlation_;
    writer_.add_activity(s);
    host_ns_ = end;
    return end;
}

void ModelSimulator::add_steps(const kernels::IterationPlan& plan, const IterationTimes& t) {
    // Decode steps run from the previous emission, so the inter-iteration gap counts;
    // tokens a speculative iteration emits after its first one come out at the same
    // instant: zero duration, and no floor (0), as nothing was spent on them alone.
    const std::int64_t floor = cost_.floor_ns(plan);
    const std::int64_t start = plan.prefill ? t.start_ns : last_emission_ns_;
    for (std::int64_t r = 1; r <= planner_.config().batch; ++r) {
        for (std::int32_t j = 0; j < plan.tokens_emitted; ++j) {
            trace::Step s;
            s.request = r;
            s.index = tokens_done_ + j;
            s.phase = s.index == 0 ? trace::Phase::Prefill : trace::Phase::Decode;
            s.start_ns = j == 0 ? start : t.emission_ns;
            s.end_ns = t.emission_ns;
            s.floor_ns = j == 0 ? floor : 0;
            writer_.add_step(s);
        }
    }
    if (plan.prefill) first_token_ns_ = t.emission_ns;
    tokens_done_ += plan.tokens_emitted;
    last_emission_ns_ = t.emission_ns;
}

void ModelSimulator::add_requests() {
    add_batch_requests(writer_, planner_.config(), kRunStartNs, first_token_ns_, last_emission_ns_);
}

}  // namespace tokenscope::capture
