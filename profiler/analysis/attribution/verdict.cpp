#include "verdict.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <tuple>
#include <utility>
#include <vector>

#include "analysis/run_kind.h"
#include "coverage.h"
#include "coverage_figures.h"
#include "launch_delay.h"
#include "launch_delay_stream.h"

namespace tokenscope::analysis {
namespace {

constexpr std::size_t idx(Category c) {
    return static_cast<std::size_t>(c);
}

StepSummary summarize_steps(const std::vector<StepAttribution>& atts,
                            const trace::StopToken& stop) {
    StepSummary s;
    s.steps = static_cast<std::int64_t>(atts.size());
    std::vector<double> per_step(atts.size());
    trace::for_each_stoppable(atts, stop, [&](const StepAttribution& a) {
        s.total_ns += std::max<std::int64_t>(0, a.end_ns - a.start_ns);
        for (std::size_t c = 0; c < kCategoryCount; ++c) {
            s.assigned_ns[c] += a.assigned[c];
            s.hidden_ns[c] += a.hidden[c];
        }
    });
    for (std::size_t c = 0; c < kCategoryCount; ++c) {
        stop.throw_if_stopped();
        if (s.total_ns > 0)
            s.share[c] = static_cast<double>(s.assigned_ns[c]) / static_cast<double>(s.total_ns);
        for (std::size_t i = 0; i < atts.size(); ++i)
            per_step[i] = static_cast<double>(atts[i].assigned[c]);
        s.p95_ns[c] = atts.empty() ? 0.0 : percentile(per_step, 95);
    }
    return s;
}

// Engines that schedule asynchronously overlap iteration N+1's CPU with iteration N's GPU
// (docs/engine-traces.md, Iteration windows): each step's attribution covers its own window,
// but the run's totals count each nanosecond once, over the union of the windows. Token
// steps of one batch share an interval on purpose and keep counting once each.
void count_overlapping_iterations_once(StepSummary& s, const CoverageFigures& f) {
    if (!f.iterations) return;
    const UnionAttribution& u = *f.iterations;
    s.total_ns = u.total_ns;
    s.assigned_ns = u.assigned;
    s.hidden_ns = u.hidden;
    for (std::size_t c = 0; c < kCategoryCount; ++c)
        s.share[c] = u.total_ns > 0
                         ? static_cast<double>(u.assigned[c]) / static_cast<double>(u.total_ns)
                         : 0.0;
}

std::vector<PhaseSummary> summarize_phases(const std::vector<trace::Step>& steps,
                                           const std::vector<StepAttribution>& atts) {
    std::array<PhaseSummary, 3> acc{};
    std::size_t n = std::min(steps.size(), atts.size());
    for (std::size_t i = 0; i < n; ++i) {
        auto& p = acc[static_cast<std::size_t>(steps[i].phase)];
        ++p.count;
        p.mean_ns += static_cast<double>(steps[i].duration_ns());
        for (std::size_t c = 0; c < kCategoryCount; ++c)
            p.mean_category_ns[c] += static_cast<double>(atts[i].assigned[c]);
    }
    std::vector<PhaseSummary> out;
    for (std::size_t k = 0; k < acc.size(); ++k) {
        auto p = acc[k];
        if (p.count == 0) continue;
        p.phase = static_cast<trace::Phase>(k);
        auto count = static_cast<double>(p.count);
        p.mean_ns /= count;
        for (double& v : p.mean_category_ns) v /= count;
        out.push_back(p);
    }
    return out;
}

FloorSummary summarize_floor(const std::vector<trace::Step>& steps) {
    std::vector<double> distance, ratio;
    for (const auto& s : steps) {
        if (s.floor_ns <= 0) continue;
        distance.push_back(static_cast<double>(s.duration_ns() - s.floor_ns));
        ratio.push_back(static_cast<double>(s.duration_ns()) / static_cast<double>(s.floor_ns));
    }
    return FloorSummary{summarize(distance), summarize(ratio)};
}

std::optional<double> nvlink_fraction(const trace::RunData& run, const CoverageFigures& f) {
    const double peak = run.info.gpu.nvlink_bandwidth;
    if (peak <= 0 || f.nvlink_active_ns <= 0) return std::nullopt;
    // Scaled before dividing so that a value exactly at a threshold compares exactly.
    return f.p2p_bytes * 1e9 / (static_cast<double>(f.nvlink_active_ns) * peak);
}

std::optional<double> achieved_bandwidth_fraction(const trace::RunData& run,
                                                  const CoverageFigures& f) {
    const double peak = run.info.gpu.peak_bandwidth;
    if (peak <= 0 || f.gpu_busy_ns <= 0 || !f.kernel_bytes) return std::nullopt;
    return f.gpu_work_bytes * 1e9 / (static_cast<double>(f.gpu_busy_ns) * peak);
}

RuleResult rule(const char* name, std::optional<double> value, double threshold) {
    RuleResult r{name, value.value_or(0.0), threshold, value.has_value(), false};
    r.fired = r.available && r.value > threshold;
    return r;
}

std::string percent(double fraction) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f%%", fraction * 100.0);
    return buf;
}

// Scheduling-bound means the GPU idles between steps; what fills the gap
// depends on what was traced.
const char* scheduling_advice(RunKind kind) {
    switch (kind) {
        case RunKind::Serving:
            return "requests wait in the queue: more concurrency, a larger token budget or "
                   "chunked prefill";
        case RunKind::Trace:
            return "the GPU idles between steps: data loading, host synchronisation or the "
                   "Python loop (see the CPU threads in the gaps)";
        case RunKind::Decode:
            break;
    }
    return "request queue or async executor";
}

// The gpu-bound verdict's words: a memory-bound kernel mix far below the peak bandwidth is
// limited by latency or occupancy, which more bandwidth would not fix.
void decide_gpu(Verdict& v, const StepSummary& s, const VerdictOptions& o) {
    bool memory = s.share[idx(Category::GpuMemory)] > s.share[idx(Category::GpuCompute)];
    v.bound_by = memory ? "memory" : "compute";
    v.advice = v.bound_by + "-bound GPU work";
    if (!v.achieved_bandwidth_fraction) {
        v.advice += " (its kernels carry no byte counts: achieved bandwidth unknown)";
        return;
    }
    const double f = *v.achieved_bandwidth_fraction;
    v.advice += " at " + percent(f) + " of peak memory bandwidth";
    if (!memory) return;
    if (f < o.bandwidth_bound_fraction) {
        v.limited_by = "latency";
        v.advice +=
            ": far below the peak, so its kernels are latency- or occupancy-limited "
            "(small grids, dependent kernels, gaps between them), not bandwidth-bound; "
            "fuse kernels, batch more work per launch or raise occupancy";
    } else {
        v.limited_by = "bandwidth";
        v.advice +=
            ": bandwidth-bound; fewer bytes per token (quantised weights or KV cache) "
            "or a GPU with more bandwidth";
    }
}

void decide(Verdict& v, const StepSummary& s, RunKind kind, const VerdictOptions& o) {
    static constexpr std::array<const char*, 6> kPrimary = {"transfer-bound", "scheduling-bound",
                                                            "cpu-bound",      "nvlink-bound",
                                                            "gpu-bound",      "cpu-bound"};
    static constexpr std::array<const char*, 6> kAdvice = {
        "consider paged KV cache, FP8 communication",
        "request queue or async executor",
        "kernels wait for their launches: CUDA graphs, fewer and larger kernels",
        "NVLink saturated: reduce or overlap tensor-parallel communication",
        "",
        "host work dominates the steps: move it to the GPU or overlap it"};
    constexpr std::size_t kGpuRule = 4;
    for (std::size_t i = 0; i < v.rules.size(); ++i) {
        if (!v.rules[i].fired) continue;
        v.primary = kPrimary[i];
        if (i != kGpuRule) {
            v.advice = i == 1 ? scheduling_advice(kind) : kAdvice[i];
            return;
        }
        decide_gpu(v, s, o);
        return;
    }
    v.primary = "mixed";
    v.advice = "no single bound: see the per-category shares";
}

// No verdict for what cannot be judged: a load generator's results (requests and tokens,
// no activity at all), or a run without steps (no marker matched).
bool no_verdict(Verdict& v, const trace::RunData& run, const StepSummary& s,
                const CoverageFigures& f) {
    if (kind_of(run.info) == RunKind::Serving && !f.any_activity) {
        v.primary = "none";
        v.advice =
            "a load generator's results (requests and tokens, no GPU or host "
            "activity): open them together with the server's trace to see where the "
            "time went";
        return true;
    }
    if (s.steps == 0) {
        v.primary = "none";
        v.advice =
            "no steps: no marker in the trace matched an iteration preset; give a step "
            "pattern that matches the engine's iteration marker";
        return true;
    }
    return false;
}

RunAssessment assess(const trace::RunData& run, const std::vector<StepAttribution>& atts,
                     const CoverageFigures& f, const LaunchDelayP95& launch_delay,
                     const VerdictOptions& o, const trace::StopToken& stop) {
    RunAssessment r;
    r.summary = summarize_steps(atts, stop);
    count_overlapping_iterations_once(r.summary, f);
    r.phases = summarize_phases(run.steps, atts);
    stop.throw_if_stopped();
    r.floor = summarize_floor(run.steps);
    const auto& s = r.summary;
    std::optional<double> transfer, gpu, cpu;
    if (s.total_ns > 0) {
        transfer = s.share[idx(Category::Nvlink)] + s.share[idx(Category::Pcie)];
        gpu = s.share[idx(Category::GpuCompute)] + s.share[idx(Category::GpuMemory)];
        cpu = s.share[idx(Category::Cpu)];
    }
    std::optional<double> scheduling;
    if (s.steps > 0) scheduling = s.p95_ns[idx(Category::Scheduling)];
    auto& v = r.verdict;
    v.achieved_bandwidth_fraction = achieved_bandwidth_fraction(run, f);
    v.rules = {rule("transfer_share", transfer, o.transfer_share),
               rule("scheduling_p95_ns", scheduling, o.scheduling_p95_ns),
               rule("launch_delay_p95_ns", launch_delay.ns, o.launch_delay_p95_ns),
               rule("nvlink_fraction", nvlink_fraction(run, f), o.nvlink_fraction),
               rule("gpu_share", gpu, o.gpu_share),
               // Not among the GPU rules: a host-only run (the cpu backend) would
               // otherwise read "mixed" while 99% of its time is host compute.
               rule("cpu_share", cpu, o.cpu_share)};
    v.rules[2].relative_error = launch_delay.relative_error;
    if (!no_verdict(v, run, s, f)) decide(v, s, kind_of(run.info), o);
    return r;
}

}  // namespace

RunAssessment assess_run(const trace::RunData& run, const Coverage& coverage,
                         const std::vector<StepAttribution>& attributions,
                         const VerdictOptions& verdict_options, const trace::StopToken& stop) {
    return assess(run, attributions, coverage_figures(run, coverage, stop),
                  {launch_delay_p95(run, stop)}, verdict_options, stop);
}

RunAssessment assess_run(const trace::RunData& run, const Coverage& coverage,
                         const std::vector<StepAttribution>& attributions,
                         std::optional<double> launch_delay_p95_ns,
                         const VerdictOptions& verdict_options, const trace::StopToken& stop) {
    return assess(run, attributions, coverage_figures(run, coverage, stop), {launch_delay_p95_ns},
                  verdict_options, stop);
}

RunAssessment assess_run(const trace::RunData& run,
                         const std::vector<StepAttribution>& attributions,
                         const VerdictOptions& verdict_options,
                         const AttributionOptions& attribution_options,
                         const trace::StopToken& stop) {
    return assess(run, attributions,
                  coverage_figures(run, Coverage(run, attribution_options, stop), stop),
                  {launch_delay_p95(run, stop)}, verdict_options, stop);
}

RunAssessment assess_run(const trace::RunData& run,
                         const std::vector<StepAttribution>& attributions,
                         const CoverageFigures& figures, const LaunchDelayP95& launch_delay,
                         const VerdictOptions& verdict_options, const trace::StopToken& stop) {
    return assess(run, attributions, figures, launch_delay, verdict_options, stop);
}

}  // namespace tokenscope::analysis
