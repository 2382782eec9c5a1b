#include "analysis/compare/diff.h"

#include <gtest/gtest.h>

#include "analysis/attribution/coverage.h"

namespace tokenscope::analysis {
namespace {

void add_kernel(trace::RunData& run, std::string_view name, std::int64_t start,
                std::int64_t duration) {
    trace::Activity a;
    a.kind = trace::ActivityKind::Kernel;
    a.name = run.strings.intern(name);
    a.start_ns = start;
    a.end_ns = start + duration;
    run.activities.push_back(a);
}

// A interns gemm=1, attn=2, norm=3; B interns x_only_b=1, norm=2, gemm=3.
trace::RunData run_a() {
    trace::RunData run;
    run.lanes.push_back({trace::LaneKind::GpuStream, 0, 0, 7, "stream 7"});
    for (auto name : {"gemm", "attn", "norm"}) run.strings.intern(name);
    add_kernel(run, "gemm", 0, 10);
    add_kernel(run, "gemm", 10, 20);
    add_kernel(run, "norm", 20, 4);
    add_kernel(run, "attn", 40, 5);
    add_kernel(run, "gemm", 150, 30);
    add_kernel(run, "norm", 160, 6);
    return run;
}

trace::RunData run_b() {
    trace::RunData run;
    run.lanes.push_back({trace::LaneKind::GpuStream, 0, 0, 7, "stream 7"});
    for (auto name : {"x_only_b", "norm", "gemm"}) run.strings.intern(name);
    add_kernel(run, "gemm", 0, 15);
    add_kernel(run, "norm", 30, 8);
    add_kernel(run, "x_only_b", 50, 100);
    add_kernel(run, "gemm", 120, 25);
    return run;
}

TEST(Diff, RemapIdsThroughText) {
    trace::RunData a = run_a(), b = run_b();
    ASSERT_NE(a.strings.find("gemm"), b.strings.find("gemm"));  // the ids really differ
    auto b_to_a = remap_string_ids(b.strings, a.strings);
    EXPECT_EQ(b_to_a[b.strings.find("gemm")], a.strings.find("gemm"));
    EXPECT_EQ(b_to_a[b.strings.find("norm")], a.strings.find("norm"));
    EXPECT_EQ(b_to_a[b.strings.find("x_only_b")], trace::StringTable::kAbsent);
}

// A: gemm {10, 20, 30}: total 60, mean 20, P95 at rank 1.9 = 20 + 0.9 * 10 = 29;
//    norm {4, 6}: total 10, mean 5, P95 = 4 + 0.95 * 2 = 5.9; attn {5}.
// B: gemm {15, 25}: total 40, mean 20, P95 = 15 + 0.95 * 10 = 24.5; norm {8}; x_only_b {100}.
// Order by A + B total: gemm 100 and x_only_b 100 (name breaks the tie), norm 18, attn 5.
TEST(Diff, KernelsMatchedByName) {
    RunDiff d = diff_runs(run_a(), run_b());
    ASSERT_EQ(d.kernels.size(), 4u);
    const NameDiff& gemm = d.kernels[0];
    EXPECT_EQ(gemm.name, "gemm");
    EXPECT_TRUE(gemm.in_a && gemm.in_b);
    EXPECT_EQ(gemm.a.count, 3);
    EXPECT_EQ(gemm.b.count, 2);
    EXPECT_EQ(gemm.count_delta, -1);
    EXPECT_EQ(gemm.total_delta_ns, -20);
    EXPECT_DOUBLE_EQ(gemm.mean_delta_ns, 0.0);
    EXPECT_NEAR(gemm.a.p95_ns, 29.0, 1e-9);
    EXPECT_NEAR(gemm.p95_delta_ns, -4.5, 1e-9);
    const NameDiff& only_b = d.kernels[1];
    EXPECT_EQ(only_b.name, "x_only_b");
    EXPECT_FALSE(only_b.in_a);
    EXPECT_EQ(only_b.a.count, 0);
    EXPECT_EQ(only_b.total_delta_ns, 100);
    EXPECT_DOUBLE_EQ(only_b.p95_delta_ns, 100.0);
    const NameDiff& norm = d.kernels[2];
    EXPECT_EQ(norm.name, "norm");
    EXPECT_EQ(norm.total_delta_ns, -2);
    EXPECT_DOUBLE_EQ(norm.mean_delta_ns, 3.0);
    EXPECT_NEAR(norm.p95_delta_ns, 8.0 - 5.9, 1e-9);
    const NameDiff& attn = d.kernels[3];
    EXPECT_EQ(attn.name, "attn");
    EXPECT_FALSE(attn.in_b);
    EXPECT_EQ(attn.count_delta, -1);
    EXPECT_DOUBLE_EQ(attn.mean_delta_ns, -5.0);
}

// Kernel rows, 100 ns windows from 0.
// A: gemm [19.5 = 10 + 0.95 * 10, 30], norm [4, 6], attn [5, -].
// B: x_only_b [100, -], gemm [15, 25], norm [8, -].
// B - A, rows in A's order then B's extra: gemm [-4.5, -5], norm [4, -], attn [-, -],
// x_only_b [-, -]; range 5; shared min 4 (A's norm), max 100 (B's x_only_b).
TEST(Diff, DeltaHeatmapByHand) {
    HeatmapSpec spec;
    spec.rows = HeatmapRows::Kernel;
    spec.metric = HeatmapMetric::KernelDuration;
    spec.window_size = 100;
    spec.origin_ns = 0;
    DiffOptions options;
    options.heatmap = spec;
    RunDiff d = diff_runs(run_a(), run_b(), options);
    ASSERT_TRUE(d.heatmap);
    const HeatmapDiff& h = *d.heatmap;
    ASSERT_EQ(h.row_labels, (std::vector<std::string>{"gemm", "norm", "attn", "x_only_b"}));
    ASSERT_EQ(h.columns, 2u);
    ASSERT_TRUE(h.at(0, 0));
    EXPECT_NEAR(*h.at(0, 0), -4.5, 1e-9);
    EXPECT_NEAR(*h.at(0, 1), -5.0, 1e-9);
    EXPECT_NEAR(*h.at(1, 0), 4.0, 1e-9);
    EXPECT_FALSE(h.at(1, 1));
    EXPECT_FALSE(h.at(2, 0));
    EXPECT_FALSE(h.at(3, 0));
    EXPECT_DOUBLE_EQ(h.range, 5.0);
    EXPECT_DOUBLE_EQ(*h.shared_min, 4.0);
    EXPECT_DOUBLE_EQ(*h.shared_max, 100.0);
    EXPECT_EQ(*h.row_in_b[0], 1u);  // gemm is B's second row
}

// 30 requests each; TTFT of A = 100 + i, of B = 200 + i: mean delta 100, +68.7%
// (mean A 114.5), and the samples do not overlap: significant.
trace::RunData requests_run(std::int64_t ttft_base) {
    trace::RunData run;
    for (int i = 0; i < 30; ++i) {
        const std::int64_t arrival = 1000 * i;
        run.requests.push_back(
            {i + 1, arrival, arrival + ttft_base + i, arrival + ttft_base + i + 50, 8, 2, false});
    }
    return run;
}

TEST(Diff, MetricDeltasAndSignificance) {
    RunDiff d = diff_runs(requests_run(100), requests_run(200));
    const MetricDiff& ttft = d.metrics[0];
    EXPECT_EQ(ttft.name, "ttft");
    EXPECT_DOUBLE_EQ(ttft.mean.a, 114.5);
    EXPECT_DOUBLE_EQ(ttft.mean.delta, 100.0);
    ASSERT_TRUE(ttft.mean.delta_pct);
    EXPECT_NEAR(*ttft.mean.delta_pct, 100.0 * 100.0 / 114.5, 1e-9);
    EXPECT_DOUBLE_EQ(ttft.p50.delta, 100.0);
    EXPECT_TRUE(ttft.significant);
    EXPECT_LT(ttft.test.p_value, 0.01);
    // E2E = TTFT + 50 in both: the same shift; TPOT = 50 / 1 everywhere: no change.
    const MetricDiff& tpot = d.metrics[1];
    EXPECT_EQ(tpot.name, "tpot");
    EXPECT_DOUBLE_EQ(tpot.mean.delta, 0.0);
    EXPECT_FALSE(tpot.significant);
    // No steps: empty samples are never significant.
    EXPECT_EQ(d.metrics[4].name, "step");
    EXPECT_FALSE(d.metrics[4].significant);
}

TEST(Diff, StepsAlignedByRequestAndIndexAndCategories) {
    trace::RunData a, b;
    a.steps.push_back({1, 0, trace::Phase::Prefill, 0, 100, 0});
    a.steps.push_back({1, 1, trace::Phase::Decode, 100, 130, 0});
    a.steps.push_back({2, 0, trace::Phase::Prefill, 200, 260, 0});
    b.steps.push_back({2, 0, trace::Phase::Prefill, 200, 300, 0});
    b.steps.push_back({1, 1, trace::Phase::Decode, 100, 125, 0});
    b.steps.push_back({3, 0, trace::Phase::Prefill, 400, 410, 0});
    RunDiff d = diff_runs(a, b);
    ASSERT_EQ(d.steps.size(), 2u);
    EXPECT_EQ(d.steps[0].request, 1);
    EXPECT_EQ(d.steps[0].index, 1);
    EXPECT_EQ(d.steps[0].a_ns, 30);
    EXPECT_EQ(d.steps[0].b_ns, 25);
    EXPECT_EQ(d.steps[1].request, 2);
    EXPECT_EQ(d.steps[1].b_ns, 100);
    EXPECT_EQ(d.steps_only_a, 1u);
    EXPECT_EQ(d.steps_only_b, 1u);
    // Nothing traced: every step nanosecond is scheduling. A: 100 + 30 + 60 = 190,
    // B: 100 + 25 + 10 = 135.
    const CategoryDiff& sched = d.categories[static_cast<std::size_t>(Category::Scheduling)];
    EXPECT_EQ(sched.category, Category::Scheduling);
    EXPECT_EQ(sched.a_ns, 190);
    EXPECT_EQ(sched.b_ns, 135);
    EXPECT_EQ(sched.delta_ns, -55);
    EXPECT_EQ(d.categories[0].a_ns, 0);
}

// The GUI hands in what it computed already (each run's per-step attribution and its
// heatmaps): the diff builds no coverage and no heatmap, and reads the planted values.
TEST(Diff, ReadsTheAttributionAndHeatmapsHandedIn) {
    trace::RunData a = run_a(), b = run_b();
    a.steps.push_back({1, 0, trace::Phase::Prefill, 0, 100, 0});
    b.steps.push_back({1, 0, trace::Phase::Prefill, 0, 80, 0});
    std::vector<StepAttribution> steps_a(1), steps_b(1);
    steps_a[0].assigned[static_cast<std::size_t>(Category::Pcie)] = 70;
    steps_a[0].assigned[static_cast<std::size_t>(Category::Cpu)] = 30;
    steps_b[0].assigned[static_cast<std::size_t>(Category::Cpu)] = 80;
    HeatmapSpec spec;
    spec.rows = HeatmapRows::Kernel;
    spec.metric = HeatmapMetric::KernelDuration;
    spec.window_size = 100;
    spec.origin_ns = 0;
    const Heatmap map_a = compute_heatmap(a, spec), map_b = compute_heatmap(b, spec);
    DiffOptions options;
    options.heatmap = spec;
    const std::uint64_t coverages = Coverage::whole_run_builds();
    const std::uint64_t heatmaps = heatmap_builds();
    const RunDiff d = diff_runs(a, b, options, DiffInputs{&steps_a, &steps_b, &map_a, &map_b});
    EXPECT_EQ(Coverage::whole_run_builds(), coverages);
    EXPECT_EQ(heatmap_builds(), heatmaps);
    const auto& pcie = d.categories[static_cast<std::size_t>(Category::Pcie)];
    const auto& cpu = d.categories[static_cast<std::size_t>(Category::Cpu)];
    EXPECT_EQ(pcie.a_ns, 70);
    EXPECT_EQ(pcie.b_ns, 0);
    EXPECT_EQ(cpu.a_ns, 30);
    EXPECT_EQ(cpu.b_ns, 80);
    // The same delta heatmap as computing them here (DeltaHeatmapByHand's numbers).
    ASSERT_TRUE(d.heatmap);
    EXPECT_NEAR(*d.heatmap->at(0, 0), -4.5, 1e-9);
    EXPECT_DOUBLE_EQ(*d.heatmap->shared_max, 100.0);
    // Without inputs the diff computes both itself: one coverage per run.
    const RunDiff again = diff_runs(a, b, options);
    EXPECT_EQ(Coverage::whole_run_builds(), coverages + 2);
    EXPECT_EQ(heatmap_builds(), heatmaps + 2);
    EXPECT_NEAR(*again.heatmap->at(0, 0), -4.5, 1e-9);
}

}  // namespace
}  // namespace tokenscope::analysis
