#include "verdict.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <tuple>
#include <utility>
#include <vector>

#include "coverage.h"
#include "launch_delay.h"
#include "run_kind.h"

namespace tokenscope::analysis {
namespace {

using trace::Activity;
using trace::ActivityKind;
using trace::CopyKind;

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

std::optional<double> nvlink_fraction(const trace::RunData& run, const Coverage& cov,
                                      const trace::StopToken& stop) {
    double peak = run.info.gpu.nvlink_bandwidth;
    std::int64_t active = cov.active_ns(category_bit(Category::Nvlink));
    if (peak <= 0 || active <= 0) return std::nullopt;
    double bytes = 0;
    trace::for_each_stoppable(run.activities, stop, [&](const Activity& a) {
        if (a.kind == ActivityKind::Memcpy && a.copy == CopyKind::P2P)
            bytes += static_cast<double>(a.bytes);
    });
    // Scaled before dividing so that a value exactly at a threshold compares exactly.
    return bytes * 1e9 / (static_cast<double>(active) * peak);
}

std::optional<double> achieved_bandwidth_fraction(const trace::RunData& run, const Coverage& cov,
                                                  const trace::StopToken& stop) {
    double peak = run.info.gpu.peak_bandwidth;
    std::int64_t busy =
        cov.active_ns(category_bit(Category::GpuCompute) | category_bit(Category::GpuMemory));
    if (peak <= 0 || busy <= 0) return std::nullopt;
    double bytes = 0;
    bool kernel_bytes = false;
    trace::for_each_stoppable(run.activities, stop, [&](const Activity& a) {
        bool gpu_work = a.kind == ActivityKind::Kernel || a.kind == ActivityKind::Memset ||
                        (a.kind == ActivityKind::Memcpy && a.copy == CopyKind::D2D);
        if (gpu_work) bytes += static_cast<double>(a.bytes);
        kernel_bytes |= a.kind == ActivityKind::Kernel && a.bytes > 0;
    });
    if (!kernel_bytes) return std::nullopt;
    return bytes * 1e9 / (static_cast<double>(busy) * peak);
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

void decide(Verdict& v, const StepSummary& s, RunKind kind) {
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
        bool memory = s.share[idx(Category::GpuMemory)] > s.share[idx(Category::GpuCompute)];
        v.bound_by = memory ? "memory" : "compute";
        v.advice = v.bound_by + "-bound GPU work";
        if (v.achieved_bandwidth_fraction)
            v.advice +=
                " at " + percent(*v.achieved_bandwidth_fraction) + " of peak memory bandwidth";
        else
            v.advice += " (its kernels carry no byte counts: achieved bandwidth unknown)";
        return;
    }
    v.primary = "mixed";
    v.advice = "no single bound: see the per-category shares";
}

RunAssessment assess(const trace::RunData& run, const Coverage& cov,
                     const std::vector<StepAttribution>& atts, std::optional<double> launch_delay,
                     const VerdictOptions& o, const trace::StopToken& stop) {
    RunAssessment r;
    r.summary = summarize_steps(atts, stop);
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
    v.achieved_bandwidth_fraction = achieved_bandwidth_fraction(run, cov, stop);
    v.rules = {rule("transfer_share", transfer, o.transfer_share),
               rule("scheduling_p95_ns", scheduling, o.scheduling_p95_ns),
               rule("launch_delay_p95_ns", launch_delay, o.launch_delay_p95_ns),
               rule("nvlink_fraction", nvlink_fraction(run, cov, stop), o.nvlink_fraction),
               rule("gpu_share", gpu, o.gpu_share),
               // Not among the GPU rules: a host-only run (the cpu backend) would
               // otherwise read "mixed" while 99% of its time is host compute.
               rule("cpu_share", cpu, o.cpu_share)};
    decide(v, s, kind_of(run.info));
    return r;
}

}  // namespace

RunAssessment assess_run(const trace::RunData& run, const Coverage& coverage,
                         const std::vector<StepAttribution>& attributions,
                         const VerdictOptions& verdict_options, const trace::StopToken& stop) {
    return assess(run, coverage, attributions, launch_delay_p95(run, stop), verdict_options, stop);
}

RunAssessment assess_run(const trace::RunData& run, const Coverage& coverage,
                         const std::vector<StepAttribution>& attributions,
                         std::optional<double> launch_delay_p95_ns,
                         const VerdictOptions& verdict_options, const trace::StopToken& stop) {
    return assess(run, coverage, attributions, launch_delay_p95_ns, verdict_options, stop);
}

RunAssessment assess_run(const trace::RunData& run,
                         const std::vector<StepAttribution>& attributions,
                         const VerdictOptions& verdict_options,
                         const AttributionOptions& attribution_options,
                         const trace::StopToken& stop) {
    return assess(run, Coverage(run, attribution_options, stop), attributions,
                  launch_delay_p95(run, stop), verdict_options, stop);
}

}  // namespace tokenscope::analysis
