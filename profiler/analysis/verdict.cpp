#include "verdict.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <tuple>
#include <utility>
#include <vector>

#include "coverage.h"
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

// Per kernel (by activity index; INT64_MIN for the rest): the latest end of the work
// (kernels, copies, memsets) that started before it on its own stream, i.e. the time
// it waits behind its stream's queue.
std::vector<std::int64_t> queue_ends(const trace::RunData& run, const trace::StopToken& stop) {
    struct Work {
        std::uint16_t lane;
        std::int64_t start, end;
        std::uint32_t activity;
    };
    std::vector<Work> work;
    const auto& acts = run.activities;
    trace::for_index_stoppable(acts.size(), stop, [&](std::size_t i) {
        const Activity& a = acts[i];
        if (a.kind == ActivityKind::Kernel || a.kind == ActivityKind::Memcpy ||
            a.kind == ActivityKind::Memset)
            work.push_back({a.lane, a.start_ns, a.end_ns, static_cast<std::uint32_t>(i)});
    });
    std::sort(work.begin(), work.end(), [](const Work& x, const Work& y) {
        return x.lane != y.lane ? x.lane < y.lane : x.start < y.start;
    });
    stop.throw_if_stopped();
    std::vector<std::int64_t> ends(acts.size(), INT64_MIN);
    std::int64_t busy_until = INT64_MIN;
    for (std::size_t i = 0; i < work.size(); ++i) {
        if (i == 0 || work[i].lane != work[i - 1].lane) busy_until = INT64_MIN;
        ends[work[i].activity] = busy_until;
        busy_until = std::max(busy_until, work[i].end);
    }
    return ends;
}

// Kernel start minus the later of its API call's start (same correlation id) and
// the end of the work queued before it on its stream. A plain reading is "kernel start
// minus its API call start"; on a real capture the host runs ahead of a busy GPU, so
// that raw gap measures the queue (a GPU-bound run) rather than a slow launch. Only
// the part of the wait the stream's own queue does not explain is the CPU's.
// One call may launch many kernels (a cudaGraphLaunch): only the first of them waits
// for the host; the others wait for their predecessors in the graph, so their delay
// is 0. Measuring each from the one call would grow with its position in the graph
// and read a CUDA-graph decode as CPU-bound.
std::optional<double> launch_delay_p95(const trace::RunData& run, const trace::StopToken& stop) {
    std::vector<std::pair<std::uint32_t, std::int64_t>> calls;
    struct Launched {
        std::uint32_t correlation;
        std::int64_t start;
        std::uint32_t activity;
    };
    std::vector<Launched> kernels;
    const auto& acts = run.activities;
    trace::for_index_stoppable(acts.size(), stop, [&](std::size_t i) {
        const Activity& a = acts[i];
        if (a.correlation == 0) return;
        if (a.kind == ActivityKind::Api) calls.emplace_back(a.correlation, a.start_ns);
        if (a.kind == ActivityKind::Kernel)
            kernels.push_back({a.correlation, a.start_ns, static_cast<std::uint32_t>(i)});
    });
    if (!std::is_sorted(calls.begin(), calls.end())) std::sort(calls.begin(), calls.end());
    std::sort(kernels.begin(), kernels.end(), [](const Launched& x, const Launched& y) {
        return std::tie(x.correlation, x.start) < std::tie(y.correlation, y.start);
    });
    const auto queued = queue_ends(run, stop);
    std::vector<double> delays;
    for (std::size_t i = 0; i < kernels.size(); ++i) {
        if (i % trace::kStopCheckEvery == 0) stop.throw_if_stopped();
        const Launched& k = kernels[i];
        auto it =
            std::lower_bound(calls.begin(), calls.end(), std::make_pair(k.correlation, INT64_MIN));
        if (it == calls.end() || it->first != k.correlation) continue;
        if (i > 0 && kernels[i - 1].correlation == k.correlation) {
            delays.push_back(0.0);  // launched by the same call as an earlier kernel
            continue;
        }
        const std::int64_t ready = std::max(it->second, queued[k.activity]);
        delays.push_back(static_cast<double>(std::max<std::int64_t>(0, k.start - ready)));
    }
    if (delays.empty()) return std::nullopt;
    return percentile(delays, 95);
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
                     const std::vector<StepAttribution>& atts, const VerdictOptions& o,
                     const trace::StopToken& stop) {
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
               rule("launch_delay_p95_ns", launch_delay_p95(run, stop), o.launch_delay_p95_ns),
               rule("nvlink_fraction", nvlink_fraction(run, cov, stop), o.nvlink_fraction),
               rule("gpu_share", gpu, o.gpu_share),
               // Not among the GPU rules: a host-only run (the cpu backend) would
               // otherwise read "mixed" while 99% of its time is host compute.
               rule("cpu_share", cpu, o.cpu_share)};
    decide(v, s, kind_of(run.info));
    return r;
}

}  // namespace

RunAssessment assess_run(const trace::RunData& run,
                         const std::vector<StepAttribution>& attributions,
                         const VerdictOptions& verdict_options,
                         const AttributionOptions& attribution_options,
                         const trace::StopToken& stop) {
    return assess(run, Coverage(run, attribution_options, stop), attributions, verdict_options,
                  stop);
}

RunAssessment assess_run(const trace::RunData& run, const VerdictOptions& verdict_options,
                         const AttributionOptions& attribution_options,
                         const trace::StopToken& stop) {
    Coverage cov(run, attribution_options, stop);
    return assess(run, cov, cov.attribute(run.steps), verdict_options, stop);
}

}  // namespace tokenscope::analysis
