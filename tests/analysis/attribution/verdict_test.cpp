#include "analysis/attribution/verdict.h"
#include "analysis/attribution/run_analysis.h"

#include <gtest/gtest.h>

#include "support/activity_builder.h"

using namespace tokenscope;
using namespace tokenscope::analysis;
using test::act;
using trace::ActivityKind;
using trace::CopyKind;

namespace {

constexpr std::size_t kCompute = 0, kMemory = 1, kPcie = 3, kSched = 5;

StepAttribution att(std::int64_t duration, std::size_t c1, std::int64_t ns1, std::size_t c2,
                    std::int64_t ns2) {
    StepAttribution a;
    a.end_ns = duration;
    a.assigned[c1] += ns1;
    a.assigned[c2] += ns2;
    return a;
}

const RuleResult& rule(const RunAssessment& r, const std::string& name) {
    for (const auto& x : r.verdict.rules)
        if (x.name == name) return x;
    throw std::runtime_error("no rule " + name);
}

}  // namespace

TEST(Verdict, TransferShareJustBelowAndAboveItsThreshold) {
    trace::RunData run;
    auto above = assess_run(run, {att(1000, kPcie, 251, kCompute, 749)});
    EXPECT_EQ(above.verdict.primary, "transfer-bound");
    EXPECT_EQ(above.verdict.advice, "consider paged KV cache, FP8 communication");
    EXPECT_DOUBLE_EQ(rule(above, "transfer_share").value, 0.251);
    EXPECT_DOUBLE_EQ(rule(above, "transfer_share").threshold, 0.25);
    EXPECT_TRUE(rule(above, "transfer_share").fired);

    // Exactly 25% transfer and exactly 75% GPU: neither fires (both are "more than").
    auto at = assess_run(run, {att(1000, kPcie, 250, kCompute, 750)});
    EXPECT_FALSE(rule(at, "transfer_share").fired);
    EXPECT_FALSE(rule(at, "gpu_share").fired);
    EXPECT_EQ(at.verdict.primary, "mixed");
}

TEST(Verdict, SchedulingP95JustBelowAndAbove) {
    trace::RunData run;
    std::vector<StepAttribution> above(20, att(10'000'000, kSched, 3'000'001, kCompute, 6'999'999));
    auto r = assess_run(run, above);
    EXPECT_EQ(r.verdict.primary, "scheduling-bound");
    EXPECT_EQ(r.verdict.advice, "request queue or async executor");
    EXPECT_DOUBLE_EQ(rule(r, "scheduling_p95_ns").value, 3'000'001.0);
    std::vector<StepAttribution> below(20, att(10'000'000, kSched, 3'000'000, kCompute, 7'000'000));
    auto b = assess_run(run, below);
    EXPECT_FALSE(rule(b, "scheduling_p95_ns").fired);
    EXPECT_EQ(b.verdict.primary, "mixed");  // GPU share 70%
}

TEST(Verdict, LaunchDelayP95) {
    // Delays 1..20 ms: P95 rank 0.95 * 19 = 18.05 -> 19 + 0.05 * (20 - 19) = 19.05 ms.
    trace::RunData run;
    for (std::uint32_t i = 1; i <= 20; ++i) {
        auto api = act(0, ActivityKind::Api, i * 100'000'000LL, i * 100'000'000LL + 10);
        api.correlation = i;
        auto k = act(1, ActivityKind::Kernel, api.start_ns + i * 1'000'000LL,
                     api.start_ns + i * 1'000'000LL + 5);
        k.correlation = i;
        run.activities.push_back(api);
        run.activities.push_back(k);
    }
    auto uncorrelated = act(1, ActivityKind::Kernel, 0, 5);
    run.activities.push_back(uncorrelated);  // correlation 0: no API call to measure from
    // One step that fires no other rule (GPU share 50 %, scheduling 500 ns).
    const std::vector<StepAttribution> one = {att(1000, kCompute, 500, kSched, 500)};
    auto r = assess_run(run, one);
    EXPECT_NEAR(rule(r, "launch_delay_p95_ns").value, 19.05e6, 1e-3);
    EXPECT_EQ(r.verdict.primary, "cpu-bound");

    VerdictOptions o;
    o.launch_delay_p95_ns = 19.06e6;
    EXPECT_EQ(assess_run(run, one, o).verdict.primary, "mixed");
    o.launch_delay_p95_ns = 19.04e6;
    EXPECT_EQ(assess_run(run, one, o).verdict.primary, "cpu-bound");
    // Without steps there is nothing to judge, whatever the rules measure.
    auto none = assess_run(run, std::vector<StepAttribution>{});
    EXPECT_EQ(none.verdict.primary, "none");
    EXPECT_NE(none.verdict.advice.find("step pattern"), std::string::npos);
}

TEST(Verdict, LaunchDelayJustAroundFiveMilliseconds) {
    for (std::int64_t delay : {4'999'999LL, 5'000'001LL}) {
        trace::RunData run;
        auto api = act(0, ActivityKind::Api, 1000, 2000);
        api.correlation = 7;
        auto k = act(1, ActivityKind::Kernel, 1000 + delay, 2000 + delay);
        k.correlation = 7;
        run.activities = {api, k};
        // One step that fires no other rule: the verdict needs steps to judge.
        auto r = assess_run(run, {att(1000, kCompute, 500, kSched, 500)});
        EXPECT_EQ(rule(r, "launch_delay_p95_ns").value, static_cast<double>(delay));
        EXPECT_EQ(r.verdict.primary, delay > 5'000'000 ? "cpu-bound" : "mixed");
    }
}

// Correlation ids are looked up in a table when they are dense (as CUPTI numbers them)
// and by binary search when they are not (ids merged from several captures): both
// find the same calls. Delays 1..40 us, one per kernel: P95 rank 0.95 * 39 = 37.05
// -> 38 us + 0.05 * 1 us = 38,050 ns. A kernel whose id has no call is not measured.
TEST(Verdict, LaunchDelayIsTheSameForDenseAndSparseCorrelationIds) {
    for (std::uint32_t spacing : {1u, 1'000'003u}) {
        trace::RunData run;
        for (std::uint32_t i = 0; i < 40; ++i) {
            auto api = act(0, ActivityKind::Api, i * 100'000LL, i * 100'000LL + 10);
            api.correlation = 1 + i * spacing;
            auto k = act(1, ActivityKind::Kernel, api.start_ns + (i + 1) * 1000LL,
                         api.start_ns + (i + 1) * 1000LL + 500);
            k.correlation = api.correlation;
            run.activities.push_back(api);
            run.activities.push_back(k);
        }
        auto orphan = act(2, ActivityKind::Kernel, 50, 60);
        orphan.correlation = 2 + 40 * spacing;  // beyond every call
        run.activities.push_back(orphan);
        auto r = assess_run(run, std::vector<StepAttribution>{});
        EXPECT_NEAR(rule(r, "launch_delay_p95_ns").value, 38'050.0, 1e-6) << spacing;
    }
}

TEST(Verdict, LaunchDelayExcludesTheStreamsOwnQueue) {
    // The host enqueues 20 kernels 1 us apart; each runs 1 ms, so from the second on
    // each waits behind the one before. Kernel 0 starts 5 us after its call; the rest
    // start the instant their predecessor ends: delays [5000, 0 x 19], P95 rank
    // 0.95 * 19 = 18.05 -> 0 + 0.05 * 5000 = 250 ns. Kernel start minus API start
    // alone would read 5 us + i * 999 us and call this GPU-bound run CPU-bound.
    trace::RunData run;
    std::int64_t prev_end = 0;
    for (std::uint32_t i = 0; i < 20; ++i) {
        auto api = act(0, ActivityKind::Api, i * 1000LL, i * 1000LL + 10);
        api.correlation = i + 1;
        const std::int64_t start = std::max<std::int64_t>(api.start_ns + 5000, prev_end);
        auto k = act(1, ActivityKind::Kernel, start, start + 1'000'000);
        k.correlation = i + 1;
        prev_end = k.end_ns;
        run.activities.push_back(api);
        run.activities.push_back(k);
    }
    auto r = assess_run(run, std::vector<StepAttribution>{});
    EXPECT_NEAR(rule(r, "launch_delay_p95_ns").value, 250.0, 1e-6);
    EXPECT_FALSE(rule(r, "launch_delay_p95_ns").fired);

    // Work on another stream does not count as this stream's queue.
    trace::RunData other;
    auto api = act(0, ActivityKind::Api, 0, 10);
    api.correlation = 1;
    auto copy = act(2, ActivityKind::Memcpy, 0, 7'000'000, {.bytes = 64, .copy = CopyKind::H2D});
    auto k = act(1, ActivityKind::Kernel, 6'000'000, 6'000'100);
    k.correlation = 1;
    other.activities = {api, copy, k};
    EXPECT_DOUBLE_EQ(
        rule(assess_run(other, std::vector<StepAttribution>{}), "launch_delay_p95_ns").value,
        6'000'000.0);
}

TEST(Verdict, NvlinkThroughputAgainstPeak) {
    for (std::uint64_t bytes : {900ull, 901ull}) {
        trace::RunData run;
        run.info.gpu.nvlink_bandwidth = 1e9;  // 1 byte per ns
        // Two overlapping P2P copies: active time is their union [0, 1000).
        run.activities = {
            act(2, ActivityKind::Memcpy, 0, 600, {.bytes = bytes - 400, .copy = CopyKind::P2P}),
            act(3, ActivityKind::Memcpy, 400, 1000, {.bytes = 400, .copy = CopyKind::P2P})};
        auto r = assess_run(run, {att(1000, kCompute, 500, kSched, 500)});
        EXPECT_EQ(rule(r, "nvlink_fraction").value, static_cast<double>(bytes) / 1000.0);
        EXPECT_EQ(r.verdict.primary, bytes == 901 ? "nvlink-bound" : "mixed");
    }
    trace::RunData unknown;  // no NVLink bandwidth known: the rule cannot fire
    unknown.activities = {
        act(2, ActivityKind::Memcpy, 0, 10, {.bytes = 1 << 30, .copy = CopyKind::P2P})};
    auto r = assess_run(unknown, std::vector<StepAttribution>{});
    EXPECT_FALSE(rule(r, "nvlink_fraction").available);
    EXPECT_FALSE(rule(r, "nvlink_fraction").fired);
}

TEST(Verdict, GpuBoundMemoryWithAchievedBandwidth) {
    trace::RunData run;
    run.info.gpu.peak_bandwidth = 1e9;  // 1 byte per ns
    // GPU busy [0,1000) kernel + [1000,1500) memset + [2000,2500) D2D = 2000 ns;
    // bytes 500 + 250 + 1000 = 1750 -> 0.875 of peak. The H2D copy does not count.
    run.activities = {
        act(1, ActivityKind::Kernel, 0, 1000, {.bytes = 500}),
        act(1, ActivityKind::Memset, 1000, 1500, {.bytes = 250}),
        act(1, ActivityKind::Memcpy, 2000, 2500, {.bytes = 1000, .copy = CopyKind::D2D}),
        act(2, ActivityKind::Memcpy, 0, 100, {.bytes = 1'000'000, .copy = CopyKind::H2D})};
    auto r = assess_run(run, {att(1000, kMemory, 751, kCompute, 0)});
    EXPECT_EQ(r.verdict.primary, "gpu-bound");
    EXPECT_EQ(r.verdict.bound_by, "memory");
    ASSERT_TRUE(r.verdict.achieved_bandwidth_fraction);
    EXPECT_EQ(*r.verdict.achieved_bandwidth_fraction, 0.875);
    EXPECT_DOUBLE_EQ(rule(r, "gpu_share").value, 0.751);
    EXPECT_NE(r.verdict.advice.find("87.5%"), std::string::npos) << r.verdict.advice;

    auto c = assess_run(run, {att(1000, kMemory, 300, kCompute, 500)});
    EXPECT_EQ(c.verdict.primary, "gpu-bound");
    EXPECT_EQ(c.verdict.bound_by, "compute");
}

// A training trace: kernels without byte counts, an H2D copy with bytes. The
// bandwidth would come from the copy alone; it is absent, and so is the figure.
TEST(Verdict, NoKernelBytesMeansNoAchievedBandwidth) {
    trace::RunData run;
    run.info.source = trace::Source::Kineto;
    run.info.gpu.peak_bandwidth = 1e9;
    run.activities = {
        act(1, ActivityKind::Kernel, 0, 1000, {.bytes = 0}),
        act(1, ActivityKind::Memcpy, 1000, 1100, {.bytes = 1000, .copy = CopyKind::D2D})};
    auto r = assess_run(run, {att(1000, kCompute, 900, kMemory, 100)});
    EXPECT_EQ(r.verdict.primary, "gpu-bound");
    EXPECT_FALSE(r.verdict.achieved_bandwidth_fraction);
    EXPECT_EQ(r.verdict.advice.find('%'), std::string::npos) << r.verdict.advice;
    EXPECT_NE(r.verdict.advice.find("unknown"), std::string::npos) << r.verdict.advice;
}

// Scheduling-bound advice fits what was traced: a serving queue only for our
// decode runs and serving results, the host loop for a traced program.
TEST(Verdict, SchedulingAdviceFitsTheKindOfRun) {
    std::vector<StepAttribution> idle(20, att(10'000'000, kSched, 4'000'000, kCompute, 6'000'000));
    trace::RunData traced;
    traced.info.source = trace::Source::Kineto;
    auto t = assess_run(traced, idle);
    EXPECT_EQ(t.verdict.primary, "scheduling-bound");
    EXPECT_EQ(t.verdict.advice.find("request queue"), std::string::npos) << t.verdict.advice;
    EXPECT_NE(t.verdict.advice.find("host"), std::string::npos) << t.verdict.advice;
    trace::RunData serving;
    serving.info.source = trace::Source::Bench;
    auto sv = assess_run(serving, idle);
    // A load generator's results alone hold no activity: no verdict, but what to open.
    EXPECT_EQ(sv.verdict.primary, "none");
    EXPECT_NE(sv.verdict.advice.find("server's trace"), std::string::npos) << sv.verdict.advice;
}

// Memory-bound kernels far below the peak bandwidth are latency-limited, not
// bandwidth-bound (issue 23: "gpu-bound (memory)" beside "5.6 % of peak" read as a
// contradiction). 1000 ns of memory-bound work moving 56 bytes at a 1 GB/s peak: 5.6 %.
TEST(Verdict, MemoryBoundFarBelowPeakIsLatencyLimited) {
    for (std::uint64_t bytes : {56u, 800u}) {
        trace::RunData run;
        run.info.gpu.peak_bandwidth = 1e9;
        run.activities = {act(1, ActivityKind::Kernel, 0, 1000, {.bytes = bytes})};
        auto r = assess_run(run, {att(1000, kMemory, 900, kCompute, 100)});
        EXPECT_EQ(r.verdict.primary, "gpu-bound");
        EXPECT_EQ(r.verdict.bound_by, "memory");
        ASSERT_TRUE(r.verdict.achieved_bandwidth_fraction);
        EXPECT_NEAR(*r.verdict.achieved_bandwidth_fraction, static_cast<double>(bytes) / 1000.0,
                    1e-12);
        if (bytes == 56) {
            EXPECT_EQ(r.verdict.limited_by, "latency");
            EXPECT_NE(r.verdict.advice.find("5.6%"), std::string::npos) << r.verdict.advice;
            EXPECT_NE(r.verdict.advice.find("latency- or occupancy-limited"), std::string::npos);
        } else {
            EXPECT_EQ(r.verdict.limited_by, "bandwidth");  // 80 % of peak
        }
    }
}

TEST(Verdict, EveryRuleIsListedInPriorityOrder) {
    trace::RunData run;
    auto r = assess_run(run, {att(1000, kPcie, 500, kCompute, 500)});
    ASSERT_EQ(r.verdict.rules.size(), 6u);
    EXPECT_EQ(r.verdict.rules[0].name, "transfer_share");
    EXPECT_EQ(r.verdict.rules[1].name, "scheduling_p95_ns");
    EXPECT_EQ(r.verdict.rules[2].name, "launch_delay_p95_ns");
    EXPECT_EQ(r.verdict.rules[3].name, "nvlink_fraction");
    EXPECT_EQ(r.verdict.rules[4].name, "gpu_share");
    EXPECT_EQ(r.verdict.rules[5].name, "cpu_share");
    EXPECT_FALSE(r.verdict.rules[2].available);  // no kernels
}

// A host-only run: 750 of 1000 ns cpu is exactly the threshold (not above), 751 fires.
TEST(Verdict, CpuShareJustBelowAndAbove) {
    trace::RunData run;
    CategoryNs at{}, above{};
    at[static_cast<std::size_t>(Category::Cpu)] = 750;
    at[static_cast<std::size_t>(Category::Scheduling)] = 250;
    above[static_cast<std::size_t>(Category::Cpu)] = 751;
    above[static_cast<std::size_t>(Category::Scheduling)] = 249;
    auto step_of = [](const CategoryNs& c) {
        StepAttribution s;
        s.start_ns = 0;
        s.end_ns = 1000;
        s.assigned = c;
        return s;
    };
    EXPECT_EQ(assess_run(run, {step_of(at)}).verdict.primary, "mixed");
    auto r = assess_run(run, {step_of(above)});
    EXPECT_EQ(r.verdict.primary, "cpu-bound");
    EXPECT_DOUBLE_EQ(r.verdict.rules[5].value, 0.751);
}

TEST(Verdict, SummaryPhasesAndFloorFromARun) {
    trace::RunData run;
    run.lanes = {trace::Lane{trace::LaneKind::GpuStream, 0, 1, 7, "stream 7"}};
    run.activities = {act(0, ActivityKind::Kernel, 0, 150)};  // unclassified: compute
    auto step = [](trace::Phase p, std::int64_t s, std::int64_t e, std::int64_t floor) {
        trace::Step x;
        x.phase = p;
        x.start_ns = s;
        x.end_ns = e;
        x.floor_ns = floor;
        return x;
    };
    run.steps = {step(trace::Phase::Prefill, 0, 100, 0), step(trace::Phase::Decode, 100, 300, 80),
                 step(trace::Phase::Decode, 300, 400, 80)};
    auto r = analyse_run(run).assessment;
    // compute: 100 + 50; scheduling: 150 + 100; total 400.
    EXPECT_EQ(r.summary.total_ns, 400);
    EXPECT_EQ(r.summary.assigned_ns[kCompute], 150);
    EXPECT_EQ(r.summary.assigned_ns[kSched], 250);
    EXPECT_DOUBLE_EQ(r.summary.share[kSched], 0.625);
    // per-step scheduling 0, 150, 100 -> sorted 0 100 150, P95 rank 1.9 -> 100 + 0.9 * 50.
    EXPECT_DOUBLE_EQ(r.summary.p95_ns[kSched], 145.0);
    ASSERT_EQ(r.phases.size(), 2u);
    EXPECT_EQ(r.phases[0].phase, trace::Phase::Prefill);
    EXPECT_DOUBLE_EQ(r.phases[0].mean_category_ns[kCompute], 100.0);
    EXPECT_EQ(r.phases[1].count, 2);
    EXPECT_DOUBLE_EQ(r.phases[1].mean_ns, 150.0);
    EXPECT_DOUBLE_EQ(r.phases[1].mean_category_ns[kCompute], 25.0);
    EXPECT_DOUBLE_EQ(r.phases[1].mean_category_ns[kSched], 125.0);
    // Floor 80 for the decode steps: distances 120, 20; ratios 2.5, 1.25.
    EXPECT_EQ(r.floor.distance_ns.count, 2);
    EXPECT_DOUBLE_EQ(r.floor.distance_ns.mean, 70.0);
    EXPECT_DOUBLE_EQ(r.floor.ratio.max, 2.5);
    EXPECT_DOUBLE_EQ(r.floor.ratio.min, 1.25);
    EXPECT_EQ(r.verdict.primary, "mixed");  // GPU share 37.5%
}

TEST(Verdict, GraphLaunchKernelsAfterTheFirstHaveNoLaunchDelay) {
    // 20 cudaGraphLaunch calls, 1 ms apart, each launching 10 kernels of 90 us on one
    // correlation; each graph's first kernel starts 4 us after its call, the others
    // right behind their predecessor. Measured from the call, the tenth kernel would
    // read 4 us + 9 * 90 us. Delays: 20 x 4000 and 180 x 0; P95 rank 0.95 * 199 =
    // 189.05 falls among the 4000s (sorted positions 180..199) -> 4000 ns.
    trace::RunData run;
    for (std::uint32_t g = 0; g < 20; ++g) {
        const std::int64_t call = g * 1'000'000LL;
        auto api = act(0, ActivityKind::Api, call, call + 3'000);
        api.correlation = 100 + g;
        run.activities.push_back(api);
        for (int n = 0; n < 10; ++n) {
            const std::int64_t start = call + 4'000 + n * 90'000LL;
            auto k = act(1, ActivityKind::Kernel, start, start + 90'000);
            k.correlation = 100 + g;
            run.activities.push_back(k);
        }
    }
    auto r = assess_run(run, std::vector<StepAttribution>{});
    EXPECT_DOUBLE_EQ(rule(r, "launch_delay_p95_ns").value, 4000.0);
    EXPECT_FALSE(rule(r, "launch_delay_p95_ns").fired);

    // A graph whose first kernel waits 6 ms for the host still reads CPU-bound.
    trace::RunData late;
    auto api = act(0, ActivityKind::Api, 0, 3'000);
    api.correlation = 1;
    late.activities.push_back(api);
    for (int n = 0; n < 2; ++n) {
        auto k = act(1, ActivityKind::Kernel, 6'000'000 + n * 10, 6'000'010 + n * 10);
        k.correlation = 1;
        late.activities.push_back(k);
    }
    // Delays [6e6, 0]: P95 rank 0.95 -> 0 + 0.95 * 6e6 = 5.7e6.
    EXPECT_NEAR(rule(assess_run(late, std::vector<StepAttribution>{}), "launch_delay_p95_ns").value,
                5.7e6, 1e-3);
}
