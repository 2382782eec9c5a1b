// Attribution and percentile speed on a synthetic run shaped like a long decode capture:
// 10M activities, ~30,000 steps in batches of up to 8 (a batch shares one interval).
// Prints medians of several repetitions and the extra memory attribution took.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <vector>

#include "analysis/attribution/attribution.h"
#include "analysis/attribution/run_analysis.h"
#include "analysis/attribution/verdict.h"
#include "analysis/metrics/distribution.h"
#include "analysis/metrics/metrics.h"

using namespace tokenscope;
using Clock = std::chrono::steady_clock;

namespace {

trace::Activity make(std::uint16_t lane, trace::ActivityKind kind, std::int64_t start,
                     std::int64_t end, std::uint32_t name = 0) {
    trace::Activity a;
    a.lane = lane;
    a.kind = kind;
    a.start_ns = start;
    a.end_ns = end;
    a.name = name;
    return a;
}

// Per iteration: launches on the driving thread, kernels on four streams, a few copies,
// other threads' calls; every lane's list is generated in start order.
trace::RunData synthetic_run(std::size_t target_activities) {
    trace::RunData run;
    run.info.gpu.peak_bandwidth = 4.8e12;
    run.info.gpu.peak_flops = 989e12;
    using trace::LaneKind;
    for (auto k :
         {LaneKind::CpuThread, LaneKind::CpuThread, LaneKind::GpuStream, LaneKind::GpuStream,
          LaneKind::GpuStream, LaneKind::GpuStream, LaneKind::CopyEngine, LaneKind::StepTrack})
        run.lanes.push_back(trace::Lane{k, -1, 1, 0, ""});
    std::uint32_t names[] = {run.strings.intern("gemv_fp16"), run.strings.intern("rms_norm"),
                             run.strings.intern("flash_decode"), run.strings.intern("custom_op")};
    const std::size_t per_iter = 2600, iterations = target_activities / per_iter;
    std::vector<std::vector<trace::Activity>> lanes(run.lanes.size());
    std::mt19937 rng(1);
    std::int64_t t = 0;
    for (std::size_t it = 0; it < iterations; ++it) {
        std::int64_t begin = t;
        for (int k = 0; k < 1000; ++k, t += 40) {
            lanes[0].push_back(make(0, trace::ActivityKind::Api, t, t + 30));
            auto s = static_cast<std::uint16_t>(2 + k % 4);
            std::int64_t ks = t + 35 + static_cast<std::int64_t>(rng() % 20);
            auto kern =
                make(s, trace::ActivityKind::Kernel, ks, ks + 100 + rng() % 60, names[k % 4]);
            if (k % 3 == 0) kern.flops = 1000, kern.bytes = 1000;
            lanes[s].push_back(kern);
        }
        for (int k = 0; k < 300; ++k) {
            std::int64_t cs = begin + k * 130;
            auto copy = make(6, trace::ActivityKind::Memcpy, cs, cs + 90);
            copy.copy = k % 2 ? trace::CopyKind::H2D : trace::CopyKind::P2P;
            lanes[6].push_back(copy);
            lanes[1].push_back(make(1, trace::ActivityKind::Api, cs, cs + 50));
        }
        lanes[7].push_back(make(7, trace::ActivityKind::Range, begin, t));
        int batch = it % 4 == 0 ? 7 : 8;
        for (int r = 0; r < batch; ++r) {
            trace::Step st;
            st.request = r;
            st.index = static_cast<std::int32_t>(it);
            st.start_ns = begin;
            st.end_ns = t + 500;
            run.steps.push_back(st);
        }
        t += 2000;
    }
    for (auto& l : lanes) run.activities.insert(run.activities.end(), l.begin(), l.end());
    return run;
}

double seconds_since(Clock::time_point t0) {
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

// VmHWM, resettable through clear_refs so the generator's own peak does not hide ours.
long peak_rss_mb() {
    std::FILE* f = std::fopen("/proc/self/status", "r");
    if (!f) return -1;
    char line[256];
    long kb = -1;
    while (std::fgets(line, sizeof line, f))
        if (std::sscanf(line, "VmHWM: %ld kB", &kb) == 1) break;
    std::fclose(f);
    return kb / 1024;
}

long current_rss_mb() {
    std::FILE* f = std::fopen("/proc/self/status", "r");
    if (!f) return -1;
    char line[256];
    long kb = -1;
    while (std::fgets(line, sizeof line, f))
        if (std::sscanf(line, "VmRSS: %ld kB", &kb) == 1) break;
    std::fclose(f);
    return kb / 1024;
}

void reset_peak_rss() {
    if (std::FILE* f = std::fopen("/proc/self/clear_refs", "w")) {
        std::fputs("5", f);
        std::fclose(f);
    }
}

template <typename Fn>
double median_seconds(int reps, Fn&& fn) {
    std::vector<double> times;
    for (int i = 0; i < reps; ++i) {
        auto t0 = Clock::now();
        fn();
        times.push_back(seconds_since(t0));
    }
    std::sort(times.begin(), times.end());
    return times[times.size() / 2];
}

}  // namespace

int main() {
    trace::RunData run = synthetic_run(10'000'000);
    reset_peak_rss();
    long rss_before = current_rss_mb();
    std::printf("run: %zu activities, %zu steps, RSS %ld MB holding the run\n",
                run.activities.size(), run.steps.size(), rss_before);

    std::size_t checked = 0;
    double attr = median_seconds(5, [&] {
        auto atts = analysis::attribute_steps(run);
        checked = atts.size();
    });
    std::printf("attribute_steps: median %.3f s over 5 runs (%zu steps), extra peak RSS %ld MB\n",
                attr, checked, peak_rss_mb() - rss_before);

    double assess = median_seconds(3, [&] { analysis::analyse_run(run); });
    std::printf("analyse_run (attribution + verdict, one coverage): median %.3f s\n", assess);

    std::vector<double> samples(1'000'000);
    std::mt19937_64 rng(3);
    std::lognormal_distribution<double> lat(10.0, 0.5);
    for (auto& s : samples) s = lat(rng);
    double summ = median_seconds(9, [&] {
        std::vector<double> copy = samples;
        analysis::summarize(copy);
    });
    std::printf("summarize 1,000,000 samples: median %.4f s (incl. copying the input)\n", summ);
    return 0;
}
