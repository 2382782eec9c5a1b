#include "analysis/attribution/attribution.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>

#include "analysis/attribution/coverage.h"
#include "support/activity_builder.h"

using namespace tokenscope;
using namespace tokenscope::analysis;
using test::act;
using test::kernel;
using trace::ActivityKind;
using trace::CopyKind;

namespace {

constexpr std::size_t kCompute = 0, kMemory = 1, kNvlink = 2, kPcie = 3, kCpu = 4, kSched = 5;

trace::RunData base_run() {
    trace::RunData run;
    run.info.gpu.peak_bandwidth = 1e12;
    run.info.gpu.peak_flops = 100e12;  // ridge point 100 FLOP/byte
    using trace::LaneKind;
    for (auto k : {LaneKind::CpuThread, LaneKind::CpuThread, LaneKind::GpuStream,
                   LaneKind::GpuStream, LaneKind::CopyEngine, LaneKind::StepTrack})
        run.lanes.push_back(trace::Lane{k, -1, 1, 0, ""});
    return run;
}

// Lanes: 0 driving thread, 1 other thread, 2-3 streams, 4 copy engine, 5 step track.
trace::RunData mixed_run() {
    trace::RunData run = base_run();
    run.activities = {
        act(0, ActivityKind::Api, 0, 150),
        act(0, ActivityKind::Api, 850, 950),
        act(0, ActivityKind::Range, 960, 980),
        act(1, ActivityKind::Api, 150, 300),  // other thread: ignored
        kernel(2, 100, 400, 200000, 1000),    // 200 FLOP/B: compute-bound
        act(2, ActivityKind::Memset, 650, 700),
        kernel(3, 300, 600, 5000, 1000),  // 5 FLOP/B: memory-bound
        act(3, ActivityKind::Memcpy, 780, 900, {.copy = CopyKind::H2D}),
        act(4, ActivityKind::Memcpy, 550, 800, {.copy = CopyKind::P2P}),
        act(5, ActivityKind::Range, 0, 1000),  // step track: ignored
    };
    trace::Step s;
    s.start_ns = 0;
    s.end_ns = 1000;
    run.steps.push_back(s);
    s.start_ns = 200;
    s.end_ns = 500;
    run.steps.push_back(s);
    s.start_ns = 2000;
    s.end_ns = 2100;
    run.steps.push_back(s);
    return run;
}

std::int64_t sum(const CategoryNs& c) {
    return std::accumulate(c.begin(), c.end(), 0LL);
}

void expect_mixed_step(const StepAttribution& a) {
    // Instant by instant: [0,100) cpu, [100,150) compute>cpu, [150,300) compute,
    // [300,400) compute>memory, [400,550) memory, [550,600) memory>nvlink, [600,650) nvlink,
    // [650,700) memset>nvlink, [700,780) nvlink, [780,800) nvlink>pcie, [800,850) pcie,
    // [850,900) pcie>cpu, [900,950) cpu, [950,960) nothing, [960,980) cpu range, [980,1000).
    EXPECT_EQ(a.assigned[kCompute], 50 + 150 + 100);
    EXPECT_EQ(a.assigned[kMemory], 150 + 50 + 50);
    EXPECT_EQ(a.assigned[kNvlink], 50 + 80 + 20);
    EXPECT_EQ(a.assigned[kPcie], 50 + 50);
    EXPECT_EQ(a.assigned[kCpu], 100 + 50 + 20);
    EXPECT_EQ(a.assigned[kSched], 10 + 20);
    EXPECT_EQ(sum(a.assigned), 1000);
    EXPECT_EQ(a.hidden[kCompute], 0);
    EXPECT_EQ(a.hidden[kMemory], 100);
    EXPECT_EQ(a.hidden[kNvlink], 50 + 50);
    EXPECT_EQ(a.hidden[kPcie], 20);
    EXPECT_EQ(a.hidden[kCpu], 50 + 50);
    EXPECT_EQ(a.hidden[kSched], 0);
}

}  // namespace

TEST(Attribution, EveryNanosecondGoesToTheHighestActiveCategory) {
    trace::RunData run = mixed_run();
    auto atts = attribute_steps(run);
    ASSERT_EQ(atts.size(), 3u);
    expect_mixed_step(atts[0]);
    // [200,400) compute with memory hidden over [300,400); [400,500) memory.
    EXPECT_EQ(atts[1].assigned[kCompute], 200);
    EXPECT_EQ(atts[1].assigned[kMemory], 100);
    EXPECT_EQ(atts[1].hidden[kMemory], 100);
    EXPECT_EQ(sum(atts[1].assigned), 300);
    EXPECT_EQ(atts[2].assigned[kSched], 100);  // after all activity
    EXPECT_EQ(atts[2].start_ns, 2000);
}

TEST(Attribution, UnsortedActivitiesGiveTheSameResult) {
    trace::RunData run = mixed_run();
    std::reverse(run.activities.begin(), run.activities.end());
    expect_mixed_step(attribute_steps(run)[0]);
}

TEST(Attribution, ExplicitDrivingLaneSwitchesWhichThreadCounts) {
    trace::RunData run = mixed_run();
    AttributionOptions o;
    o.driving_lane = 1;  // its only call [150,300) lies under the compute kernel
    auto a = attribute_steps(run, o)[0];
    EXPECT_EQ(a.assigned[kCpu], 0);
    EXPECT_EQ(a.hidden[kCpu], 150);
    EXPECT_EQ(a.assigned[kSched], 100 + 100);  // [0,100) and [900,1000)
    EXPECT_EQ(sum(a.assigned), 1000);
    EXPECT_EQ(Coverage(run, {}).driving_lane(), 0);  // most API calls
}

TEST(Attribution, RangeIsClippedToTheWindow) {
    trace::RunData run = mixed_run();
    StepAttribution a = attribute_range(run, 100, 400);
    EXPECT_EQ(a.assigned[kCompute], 300);
    EXPECT_EQ(a.hidden[kMemory], 100);
    EXPECT_EQ(a.hidden[kCpu], 50);
    EXPECT_EQ(sum(a.assigned), 300);
    StepAttribution empty = attribute_range(run, 500, 500);
    EXPECT_EQ(sum(empty.assigned), 0);
}

TEST(Attribution, RooflineBelowAtAndAboveTheRidgePoint) {
    trace::RunData run = base_run();  // ridge point exactly 100
    AttributionOptions o;
    EXPECT_EQ(classify(kernel(2, 0, 1, 999, 10), run, o), Category::GpuMemory);    // 99.9
    EXPECT_EQ(classify(kernel(2, 0, 1, 1000, 10), run, o), Category::GpuCompute);  // 100
    EXPECT_EQ(classify(kernel(2, 0, 1, 1001, 10), run, o), Category::GpuCompute);  // 100.1
    // Known FLOPs/bytes win over the name.
    auto named = kernel(2, 0, 1, 999, 10);
    named.name = run.strings.intern("gemm_bf16");
    EXPECT_EQ(classify(named, run, o), Category::GpuMemory);
    // Without a ridge point the name decides.
    run.info.gpu.peak_bandwidth = 0;
    EXPECT_EQ(classify(named, run, o), Category::GpuCompute);
}

TEST(Attribution, NameRulesDecideUnknownKernels) {
    trace::RunData run = base_run();
    AttributionOptions o;
    auto named = [&](const char* name) {
        auto k = kernel(2, 0, 1, 0, 0);
        k.name = run.strings.intern(name);
        return classify(k, run, o);
    };
    EXPECT_EQ(named("void vectorized_elementwise_kernel<4>"), Category::GpuMemory);
    EXPECT_EQ(named("RMSNormKernel"), Category::GpuMemory);  // case-insensitive
    EXPECT_EQ(named("gemv_fp16_splitk"), Category::GpuCompute);
    EXPECT_EQ(named("flash_fwd_softmax"), Category::GpuCompute);  // compute rules come first
    EXPECT_EQ(named("my_custom_kernel"), Category::GpuCompute);   // unclassified
    o.name_rules = {{"custom", Category::GpuMemory}};
    EXPECT_EQ(named("my_custom_kernel"), Category::GpuMemory);
    o.name_rules.clear();
    EXPECT_EQ(named("rms_norm"), Category::GpuCompute);
}

TEST(Attribution, CopyKindsAndHostActivities) {
    trace::RunData run = base_run();
    AttributionOptions o;
    auto copy = [&](CopyKind k) {
        return classify(act(4, ActivityKind::Memcpy, 0, 1, {.copy = k}), run, o);
    };
    EXPECT_EQ(copy(CopyKind::D2D), Category::GpuMemory);
    EXPECT_EQ(copy(CopyKind::P2P), Category::Nvlink);
    EXPECT_EQ(copy(CopyKind::H2D), Category::Pcie);
    EXPECT_EQ(copy(CopyKind::D2H), Category::Pcie);
    EXPECT_EQ(copy(CopyKind::H2H), Category::Cpu);
    EXPECT_EQ(classify(act(2, ActivityKind::Memset, 0, 1), run, o), Category::GpuMemory);
    EXPECT_FALSE(classify(act(0, ActivityKind::Api, 0, 1), run, o).has_value());
    EXPECT_FALSE(classify(act(5, ActivityKind::Range, 0, 1), run, o).has_value());
}

TEST(Attribution, CategoryNamesRoundTrip) {
    for (Category c : kCategories) EXPECT_EQ(category_from_string(to_string(c)), c);
    EXPECT_EQ(to_string(Category::GpuMemory), "gpu_memory");
    EXPECT_FALSE(category_from_string("transfer").has_value());
}

namespace {

// Reference: per nanosecond, the set of active categories found by scanning every activity.
StepAttribution brute_force(const trace::RunData& run, std::int64_t t0, std::int64_t t1,
                            const AttributionOptions& o) {
    StepAttribution r{t0, t1, {}, {}};
    for (std::int64_t t = t0; t < t1; ++t) {
        unsigned mask = 0;
        for (const auto& a : run.activities) {
            if (a.start_ns > t || a.end_ns <= t) continue;
            bool host = a.kind == ActivityKind::Api || a.kind == ActivityKind::Sync ||
                        a.kind == ActivityKind::Range;
            if (host && a.lane == o.driving_lane) mask |= 1u << kCpu;
            if (auto c = classify(a, run, o)) mask |= 1u << static_cast<unsigned>(*c);
        }
        bool won = false;
        for (std::size_t c = 0; c < kCategoryCount - 1; ++c) {
            if (!(mask & (1u << c))) continue;
            (won ? r.hidden[c] : r.assigned[c]) += 1;
            won = true;
        }
        if (!won) r.assigned[kSched] += 1;
    }
    return r;
}

}  // namespace

TEST(Attribution, RandomTimelinesMatchAPerNanosecondReference) {
    std::mt19937 rng(12345);
    const ActivityKind kinds[] = {ActivityKind::Kernel, ActivityKind::Memcpy, ActivityKind::Memset,
                                  ActivityKind::Api,    ActivityKind::Sync,   ActivityKind::Range};
    const CopyKind copies[] = {CopyKind::H2D, CopyKind::D2H, CopyKind::D2D, CopyKind::P2P,
                               CopyKind::H2H};
    AttributionOptions o;
    o.driving_lane = 0;
    for (int round = 0; round < 150; ++round) {
        trace::RunData run = base_run();
        int n = std::uniform_int_distribution<int>(0, 25)(rng);
        for (int i = 0; i < n; ++i) {
            auto lane = static_cast<std::uint16_t>(rng() % 6);
            std::int64_t start = rng() % 200, len = rng() % 40;  // zero-length ones too
            auto a = act(lane, kinds[rng() % 6], start, start + len, {.copy = copies[rng() % 5]});
            a.flops = rng() % 3000;
            a.bytes = rng() % 30;
            run.activities.push_back(a);
        }
        if (round % 2 == 0)  // half the rounds in store order
            std::sort(run.activities.begin(), run.activities.end(), [](auto& a, auto& b) {
                return a.lane != b.lane ? a.lane < b.lane : a.start_ns < b.start_ns;
            });
        Coverage cov(run, o);
        for (int q = 0; q < 10; ++q) {
            std::int64_t t0 = static_cast<std::int64_t>(rng() % 260) - 20;
            std::int64_t t1 = t0 + static_cast<std::int64_t>(rng() % 120);
            StepAttribution got = cov.attribute(t0, t1), want = brute_force(run, t0, t1, o);
            ASSERT_EQ(sum(got.assigned), t1 - t0);
            ASSERT_EQ(got.assigned, want.assigned) << "round " << round << " [" << t0 << "," << t1;
            ASSERT_EQ(got.hidden, want.hidden) << "round " << round;
            StepAttribution windowed = attribute_range(run, t0, t1, o);
            ASSERT_EQ(windowed.assigned, want.assigned);
        }
    }
}

// The cpu backend's kernels run on a host thread: every nanosecond of them is CPU
// time, never GPU time (a 10 ns kernel in a 20 ns step: cpu 10, scheduling 10).
TEST(Attribution, KernelsOnHostThreadsAreCpu) {
    tokenscope::trace::RunData run;
    run.lanes.push_back({tokenscope::trace::LaneKind::CpuThread, -1, 1, 1, "cpu compute"});
    tokenscope::trace::Activity k;
    k.kind = tokenscope::trace::ActivityKind::Kernel;
    k.lane = 0;
    k.start_ns = 5;
    k.end_ns = 15;
    k.flops = 1000;
    k.bytes = 10;
    run.activities.push_back(k);
    run.steps.push_back({1, 0, tokenscope::trace::Phase::Decode, 0, 20, 0});
    auto a = tokenscope::analysis::attribute_steps(run);
    ASSERT_EQ(a.size(), 1u);
    using tokenscope::analysis::Category;
    EXPECT_EQ(a[0].assigned[static_cast<std::size_t>(Category::Cpu)], 10);
    EXPECT_EQ(a[0].assigned[static_cast<std::size_t>(Category::Scheduling)], 10);
    EXPECT_EQ(a[0].assigned[static_cast<std::size_t>(Category::GpuCompute)], 0);
}
