// Heatmap speed on a synthetic 10M-activity decode run (target: well under 1 s per
// heatmap): kernel-duration rows (top 20 of 200 names) by time and by step windows,
// step latency by phase, and the per-name statistics the diff uses.
// Usage: heatmap_bench [activities]. Prints the median of 5 repetitions.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "analysis/compare/diff.h"
#include "analysis/heatmap/heatmap.h"

using namespace tokenscope;
using Clock = std::chrono::steady_clock;

namespace {

// Kernels back to back on 4 streams (names drawn from 200, skewed), one step per
// 2,000 kernels, requests of 64 tokens.
trace::RunData synthetic_run(std::size_t activities) {
    trace::RunData run;
    for (int s = 0; s < 4; ++s)
        run.lanes.push_back({trace::LaneKind::GpuStream, 0, 1, s, "stream " + std::to_string(s)});
    std::vector<std::uint32_t> names;
    for (int k = 0; k < 200; ++k)
        names.push_back(run.strings.intern("kernel_" + std::to_string(k)));
    std::mt19937 rng(1);
    std::int64_t t = 0, step_start = 0;
    run.activities.reserve(activities);
    for (std::size_t i = 0; i < activities; ++i) {
        trace::Activity a;
        a.kind = trace::ActivityKind::Kernel;
        a.lane = static_cast<std::uint16_t>(i % 4);
        a.name = names[std::min<std::uint32_t>(rng() % 200, rng() % 200)];
        a.start_ns = t;
        a.end_ns = t + 200 + rng() % 3000;
        t += 250;
        run.activities.push_back(a);
        if (i % 2000 == 1999) {
            const auto n = static_cast<std::int64_t>(run.steps.size());
            run.steps.push_back({1 + n / 64, static_cast<std::int32_t>(n % 64),
                                 n % 64 == 0 ? trace::Phase::Prefill : trace::Phase::Decode,
                                 step_start, t, 0});
            step_start = t;
        }
    }
    return run;
}

double median_ms(int reps, const std::function<void()>& fn) {
    std::vector<double> ms;
    for (int r = 0; r < reps; ++r) {
        const auto t0 = Clock::now();
        fn();
        ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
    }
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
}

void bench_heatmap(const trace::RunData& run, const char* label, analysis::HeatmapSpec spec) {
    analysis::Heatmap map;
    const double ms = median_ms(5, [&] { map = analysis::compute_heatmap(run, spec); });
    std::printf("%-34s %8.1f ms  (%zu rows x %zu columns)\n", label, ms, map.row_count(),
                map.column_count());
}

}  // namespace

int main(int argc, char** argv) {
    const std::size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 10'000'000;
    const auto t0 = Clock::now();
    const trace::RunData run = synthetic_run(n);
    std::printf("synthetic run: %zu activities, %zu steps (built in %.0f ms)\n",
                run.activities.size(), run.steps.size(),
                std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
    analysis::HeatmapSpec spec;
    spec.rows = analysis::HeatmapRows::Kernel;
    spec.metric = analysis::HeatmapMetric::KernelDuration;
    spec.window_size = 10'000'000;  // 10 ms
    bench_heatmap(run, "kernel top-20, 10 ms windows", spec);
    spec.window = analysis::WindowKind::Steps;
    spec.window_size = 16;
    bench_heatmap(run, "kernel top-20, 16-step windows", spec);
    spec.rows = analysis::HeatmapRows::Lane;
    bench_heatmap(run, "kernel by lane, 16-step windows", spec);
    spec.rows = analysis::HeatmapRows::Phase;
    spec.metric = analysis::HeatmapMetric::StepLatency;
    bench_heatmap(run, "step latency by phase", spec);
    const double ms = median_ms(5, [&] {
        auto stats = analysis::name_stats(run, trace::ActivityKind::Kernel);
        if (stats.empty()) std::abort();
    });
    std::printf("%-34s %8.1f ms\n", "per-kernel stats (diff)", ms);
    return 0;
}
