#include "analysis/heatmap/heatmap.h"

#include <gtest/gtest.h>

#include <sstream>
#include <stdexcept>

#include "analysis/heatmap/heatmap_csv.h"

namespace tokenscope::analysis {
namespace {

using trace::Phase;

void add_step(trace::RunData& run, std::int64_t request, std::int32_t index, Phase phase,
              std::int64_t start, std::int64_t end) {
    run.steps.push_back({request, index, phase, start, end, 0});
}

void add_kernel(trace::RunData& run, std::string_view name, std::uint16_t lane, std::int64_t start,
                std::int64_t end) {
    trace::Activity a;
    a.kind = trace::ActivityKind::Kernel;
    a.name = run.strings.intern(name);
    a.lane = lane;
    a.start_ns = start;
    a.end_ns = end;
    run.activities.push_back(a);
}

HeatmapSpec time_spec(HeatmapRows rows, HeatmapMetric metric, std::int64_t width) {
    HeatmapSpec spec;
    spec.rows = rows;
    spec.metric = metric;
    spec.window = WindowKind::Time;
    spec.window_size = width;
    spec.origin_ns = 0;
    return spec;
}

// Durations 1..20 in one cell. numpy's linear method: rank (20 - 1) * 0.95 = 18.05,
// between sorted[18] = 19 and sorted[19] = 20: 19 + 0.05 * (20 - 19) = 19.05.
TEST(Heatmap, CellP95OfOneToTwenty) {
    trace::RunData run;
    for (int k = 1; k <= 20; ++k) add_step(run, 1, k, Phase::Decode, 100 * k - k, 100 * k);
    Heatmap map =
        compute_heatmap(run, time_spec(HeatmapRows::Phase, HeatmapMetric::StepLatency, 10'000));
    ASSERT_EQ(map.row_count(), 1u);
    ASSERT_EQ(map.column_count(), 1u);
    EXPECT_EQ(map.row_labels[0], "decode");
    EXPECT_EQ(map.at(0, 0).count, 20);
    ASSERT_TRUE(map.at(0, 0).value);
    EXPECT_DOUBLE_EQ(*map.at(0, 0).value, 19.05);
}

// prefill: 5 at t=50 and {5, 10} in window 2; decode: 3 in window 1.
trace::RunData two_phase_run() {
    trace::RunData run;
    add_step(run, 1, 0, Phase::Prefill, 45, 50);
    add_step(run, 2, 0, Phase::Prefill, 245, 250);
    add_step(run, 3, 0, Phase::Prefill, 250, 260);
    add_step(run, 1, 1, Phase::Decode, 147, 150);
    return run;
}

TEST(Heatmap, EmptyCellsAreBlankNotZero) {
    Heatmap map = compute_heatmap(two_phase_run(),
                                  time_spec(HeatmapRows::Phase, HeatmapMetric::StepLatency, 100));
    ASSERT_EQ(map.row_count(), 2u);
    ASSERT_EQ(map.column_count(), 3u);
    EXPECT_EQ(map.row_labels[0], "prefill");
    EXPECT_EQ(map.row_labels[1], "decode");
    EXPECT_FALSE(map.at(0, 1).value.has_value());
    EXPECT_EQ(map.at(0, 1).count, 0);
    EXPECT_FALSE(map.at(1, 0).value.has_value());
    EXPECT_FALSE(map.at(1, 2).value.has_value());
    EXPECT_DOUBLE_EQ(*map.at(0, 0).value, 5.0);
    EXPECT_DOUBLE_EQ(*map.at(0, 2).value, 9.75);  // 5 + 0.95 * (10 - 5)
    EXPECT_DOUBLE_EQ(*map.at(1, 1).value, 3.0);
    // min/max ignore blank cells (a 0 there would make min 0).
    EXPECT_DOUBLE_EQ(*map.min_value, 3.0);
    EXPECT_DOUBLE_EQ(*map.max_value, 9.75);
}

TEST(Heatmap, CsvText) {
    Heatmap map = compute_heatmap(two_phase_run(),
                                  time_spec(HeatmapRows::Phase, HeatmapMetric::StepLatency, 100));
    std::ostringstream out;
    write_heatmap_csv(map, out);
    EXPECT_EQ(out.str(),
              "row,0,100,200\n"
              "prefill,5,,9.75\n"
              "decode,,3,\n");
}

TEST(Heatmap, CsvQuotesLabels) {
    trace::RunData run;
    run.lanes.push_back({});
    add_kernel(run, "gemm<a, \"b\">", 0, 10, 14);
    HeatmapSpec spec = time_spec(HeatmapRows::Kernel, HeatmapMetric::KernelDuration, 1000);
    std::ostringstream out;
    write_heatmap_csv(compute_heatmap(run, spec), out);
    EXPECT_EQ(out.str(), "row,0\n\"gemm<a, \"\"b\"\">\",4\n");
}

TEST(Heatmap, RowsByRequestSortedById) {
    trace::RunData run;
    add_step(run, 7, 0, Phase::Prefill, 0, 10);
    add_step(run, 3, 0, Phase::Prefill, 0, 4);
    add_step(run, 7, 1, Phase::Decode, 10, 12);
    Heatmap map =
        compute_heatmap(run, time_spec(HeatmapRows::Request, HeatmapMetric::StepLatency, 1000));
    ASSERT_EQ(map.row_labels, (std::vector<std::string>{"req 3", "req 7"}));
    EXPECT_DOUBLE_EQ(*map.at(0, 0).value, 4.0);
    EXPECT_DOUBLE_EQ(*map.at(1, 0).value, 2.0 + 0.95 * 8.0);  // samples {10, 2}
}

trace::RunData positions_run() {
    trace::RunData run;
    for (int pos : {0, 1, 3, 4, 9})
        add_step(run, 1, pos, Phase::Decode, 10 * pos, 10 * pos + 1 + pos);
    return run;
}

TEST(Heatmap, RowsByPositionBucket) {
    HeatmapSpec spec = time_spec(HeatmapRows::Position, HeatmapMetric::StepLatency, 1000);
    spec.bucket_width = 4;
    Heatmap map = compute_heatmap(positions_run(), spec);
    // 0 alone; 1 and 3 in 1-3; 4 in 4-7; 9 in 8-11.
    ASSERT_EQ(map.row_labels,
              (std::vector<std::string>{"pos 0", "pos 1-3", "pos 4-7", "pos 8-11"}));
    EXPECT_EQ(map.at(1, 0).count, 2);
    EXPECT_DOUBLE_EQ(*map.at(3, 0).value, 10.0);  // duration 1 + 9
    spec.first_token_alone = false;
    map = compute_heatmap(positions_run(), spec);
    ASSERT_EQ(map.row_labels, (std::vector<std::string>{"pos 0-3", "pos 4-7", "pos 8-11"}));
    EXPECT_EQ(map.at(0, 0).count, 3);
}

trace::RunData kernels_run() {
    trace::RunData run;
    run.lanes.push_back({trace::LaneKind::GpuStream, 0, 0, 7, "stream 7"});
    run.lanes.push_back({trace::LaneKind::GpuStream, 0, 0, 8, ""});
    add_kernel(run, "a", 0, 0, 10);     // a: 10 + 20 = 30
    add_kernel(run, "b", 1, 5, 55);     // b: 50
    add_kernel(run, "c", 0, 100, 110);  // c: 10
    add_kernel(run, "a", 1, 120, 140);
    return run;
}

TEST(Heatmap, RowsByKernelTopNByTotalTime) {
    HeatmapSpec spec = time_spec(HeatmapRows::Kernel, HeatmapMetric::KernelDuration, 100);
    spec.top_n = 2;
    Heatmap map = compute_heatmap(kernels_run(), spec);
    ASSERT_EQ(map.row_labels, (std::vector<std::string>{"b", "a"}));
    ASSERT_EQ(map.column_count(), 2u);  // a's second launch starts at 120
    EXPECT_DOUBLE_EQ(*map.at(0, 0).value, 50.0);
    EXPECT_FALSE(map.at(0, 1).value);
    EXPECT_DOUBLE_EQ(*map.at(1, 0).value, 10.0);
    EXPECT_DOUBLE_EQ(*map.at(1, 1).value, 20.0);
}

TEST(Heatmap, RowsByLane) {
    HeatmapSpec spec = time_spec(HeatmapRows::Lane, HeatmapMetric::KernelDuration, 1000);
    Heatmap map = compute_heatmap(kernels_run(), spec);
    ASSERT_EQ(map.row_labels, (std::vector<std::string>{"stream 7", "lane 1"}));
    EXPECT_EQ(map.at(0, 0).count, 2);
    EXPECT_DOUBLE_EQ(*map.at(0, 0).value, 10.0);            // {10, 10}
    EXPECT_DOUBLE_EQ(*map.at(1, 0).value, 20 + 0.95 * 30);  // {50, 20}
}

TEST(Heatmap, ItlAndTtft) {
    trace::RunData run;
    run.requests.push_back({1, 0, 10, 45, 8, 3, false});
    run.requests.push_back({2, 5, 30, 40, 8, 1, false});
    add_step(run, 1, 0, Phase::Prefill, 0, 10);
    add_step(run, 1, 2, Phase::Decode, 25, 45);  // stored out of order on purpose
    add_step(run, 1, 1, Phase::Decode, 10, 25);
    Heatmap itl = compute_heatmap(run, time_spec(HeatmapRows::Request, HeatmapMetric::Itl, 40));
    ASSERT_EQ(itl.row_labels, (std::vector<std::string>{"req 1"}));
    ASSERT_EQ(itl.column_count(), 2u);            // samples at 25 and 45
    EXPECT_DOUBLE_EQ(*itl.at(0, 0).value, 15.0);  // 25 - 10
    EXPECT_DOUBLE_EQ(*itl.at(0, 1).value, 20.0);  // 45 - 25
    Heatmap ttft = compute_heatmap(run, time_spec(HeatmapRows::Request, HeatmapMetric::Ttft, 100));
    ASSERT_EQ(ttft.row_labels, (std::vector<std::string>{"req 1", "req 2"}));
    EXPECT_DOUBLE_EQ(*ttft.at(0, 0).value, 10.0);
    EXPECT_DOUBLE_EQ(*ttft.at(1, 0).value, 25.0);
}

TEST(Heatmap, WindowsByTime) {
    trace::RunData run;
    for (std::int64_t end : {50, 150, 350}) add_step(run, 1, 0, Phase::Decode, end - 1, end);
    Heatmap map =
        compute_heatmap(run, time_spec(HeatmapRows::Phase, HeatmapMetric::StepLatency, 100));
    ASSERT_EQ(map.column_count(), 4u);
    EXPECT_EQ(map.columns[3].start_ns, 300);
    EXPECT_EQ(map.columns[3].end_ns, 400);
    EXPECT_EQ(map.at(0, 0).count, 1);
    EXPECT_EQ(map.at(0, 2).count, 0);
    // Default origin: the run's first timestamp (49).
    HeatmapSpec spec = time_spec(HeatmapRows::Phase, HeatmapMetric::StepLatency, 100);
    spec.origin_ns.reset();
    map = compute_heatmap(run, spec);
    EXPECT_EQ(map.columns[0].start_ns, 49);
    EXPECT_EQ(map.column_count(), 4u);  // 350 - 49 = 301 -> column 3
}

TEST(Heatmap, WindowsByStepCount) {
    trace::RunData run;
    for (int k = 0; k < 6; ++k) add_step(run, 1, k, Phase::Decode, 10 * k + 5, 10 * k + 10);
    HeatmapSpec spec = time_spec(HeatmapRows::Phase, HeatmapMetric::StepLatency, 2);
    spec.window = WindowKind::Steps;
    Heatmap map = compute_heatmap(run, spec);
    // Boundaries at the emission of steps 0, 2, 4: 10, 30, 50; the last ends after 60.
    ASSERT_EQ(map.column_count(), 3u);
    EXPECT_EQ(map.columns[0].start_ns, 10);
    EXPECT_EQ(map.columns[1].start_ns, 30);
    EXPECT_EQ(map.columns[2].start_ns, 50);
    EXPECT_EQ(map.columns[2].end_ns, 61);
    for (std::size_t c = 0; c < 3; ++c) EXPECT_EQ(map.at(0, c).count, 2);
    // A kernel that starts before the first emission falls into column 0.
    add_kernel(run, "k", 0, 3, 4);
    run.lanes.push_back({});
    spec.rows = HeatmapRows::Kernel;
    spec.metric = HeatmapMetric::KernelDuration;
    map = compute_heatmap(run, spec);
    EXPECT_EQ(map.columns[0].start_ns, 3);
    EXPECT_EQ(map.at(0, 0).count, 1);
}

// One step per 100 ns window with the given durations; 0 leaves the window empty.
trace::RunData series(const std::vector<std::int64_t>& durations) {
    trace::RunData run;
    for (std::size_t k = 0; k < durations.size(); ++k) {
        if (durations[k] == 0) continue;
        const auto end = static_cast<std::int64_t>(100 * k + 90);
        add_step(run, 1, static_cast<std::int32_t>(k), Phase::Decode, end - durations[k], end);
    }
    return run;
}

// Calibrated on the first 3 windows: peak 20, SLA 24, threshold 0.9 * 24 = 21.6.
TEST(Heatmap, SlaAndRecalibrationAfterThreeWindows) {
    HeatmapSpec spec = time_spec(HeatmapRows::Phase, HeatmapMetric::StepLatency, 100);
    spec.sla_windows = 3;
    Heatmap map = compute_heatmap(series({10, 20, 12, 23, 22, 23, 10}), spec);
    ASSERT_TRUE(map.row_sla[0]);
    EXPECT_DOUBLE_EQ(*map.row_sla[0], 24.0);
    ASSERT_TRUE(map.row_flag[0]);
    EXPECT_EQ(*map.row_flag[0], 3u);
    // Two above, a dip (21 < 21.6), two above: never three in a row.
    map = compute_heatmap(series({10, 20, 12, 23, 23, 21, 23, 23}), spec);
    EXPECT_FALSE(map.row_flag[0]);
    // An empty window breaks a run too.
    map = compute_heatmap(series({10, 20, 12, 23, 23, 0, 23}), spec);
    EXPECT_FALSE(map.at(0, 5).value);
    EXPECT_FALSE(map.row_flag[0]);
    // Calibrating on every window: peak 23, SLA 27.6, nothing above 24.84.
    spec.sla_windows = 7;
    map = compute_heatmap(series({10, 20, 12, 23, 22, 23, 10}), spec);
    EXPECT_DOUBLE_EQ(*map.row_sla[0], 1.2 * 23.0);
    EXPECT_FALSE(map.row_flag[0]);
}

// The default baseline is the first half of the windows: 4 of 8 here, peak 20,
// SLA 24; windows 4-6 (23, 22, 23) are above 21.6 and flag from window 4.
TEST(Heatmap, DefaultBaselineIsTheFirstHalf) {
    HeatmapSpec spec = time_spec(HeatmapRows::Phase, HeatmapMetric::StepLatency, 100);
    Heatmap map = compute_heatmap(series({10, 20, 12, 15, 23, 22, 23, 10}), spec);
    EXPECT_EQ(map.sla_baseline, 4u);
    ASSERT_TRUE(map.row_sla[0]);
    EXPECT_DOUBLE_EQ(*map.row_sla[0], 24.0);
    ASSERT_TRUE(map.row_flag[0]);
    EXPECT_EQ(*map.row_flag[0], 4u);
    // One window: it is its own baseline, and nothing after it can flag.
    map = compute_heatmap(series({10}), spec);
    EXPECT_EQ(map.sla_baseline, 1u);
    EXPECT_FALSE(map.row_flag[0]);
}

// Compare: B's rows are judged against A's SLA, over all of B's windows.
TEST(Heatmap, BJudgedAgainstTheSlaOfA) {
    HeatmapSpec spec = time_spec(HeatmapRows::Phase, HeatmapMetric::StepLatency, 100);
    Heatmap a = compute_heatmap(series({10, 20, 12, 15}), spec);  // baseline 2: SLA 24
    Heatmap b = compute_heatmap(series({23, 23, 23, 10}), spec);  // own SLA 27.6: no flag
    ASSERT_TRUE(b.row_sla[0]);
    EXPECT_DOUBLE_EQ(*b.row_sla[0], 1.2 * 23.0);
    EXPECT_FALSE(b.row_flag[0]);
    judge_against(b, a);
    EXPECT_DOUBLE_EQ(*b.row_sla[0], 24.0);
    ASSERT_TRUE(b.row_flag[0]);
    EXPECT_EQ(*b.row_flag[0], 0u);
}

TEST(Heatmap, WarmupSkipsFirstStepsOfEachRequest) {
    trace::RunData run;
    add_step(run, 1, 0, Phase::Prefill, 0, 100);
    add_step(run, 1, 1, Phase::Decode, 100, 103);
    add_step(run, 2, 0, Phase::Prefill, 0, 50);
    add_step(run, 2, 1, Phase::Decode, 50, 55);
    HeatmapSpec spec = time_spec(HeatmapRows::Phase, HeatmapMetric::StepLatency, 1000);
    spec.warmup = 1;
    Heatmap map = compute_heatmap(run, spec);
    ASSERT_EQ(map.row_labels, (std::vector<std::string>{"decode"}));
    EXPECT_EQ(map.at(0, 0).count, 2);
    EXPECT_DOUBLE_EQ(*map.at(0, 0).value, 3.0 + 0.95 * 2.0);
}

TEST(Heatmap, BadSpecsThrowClearly) {
    trace::RunData run = series({1, 2});
    auto spec = time_spec(HeatmapRows::Kernel, HeatmapMetric::StepLatency, 100);
    EXPECT_THROW(compute_heatmap(run, spec), std::invalid_argument);
    spec = time_spec(HeatmapRows::Phase, HeatmapMetric::StepLatency, 0);
    EXPECT_THROW(compute_heatmap(run, spec), std::invalid_argument);
    spec = time_spec(HeatmapRows::Phase, HeatmapMetric::StepLatency, 1);
    run.steps.back().end_ns = 1'000'000'000;  // 10^9 one-ns windows
    try {
        compute_heatmap(run, spec);
        FAIL() << "expected a throw";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("columns"), std::string::npos);
    }
}

TEST(Heatmap, EmptyRunGivesEmptyMap) {
    trace::RunData run;
    Heatmap map = compute_heatmap(run, time_spec(HeatmapRows::Phase, HeatmapMetric::Itl, 100));
    EXPECT_EQ(map.row_count(), 0u);
    EXPECT_EQ(map.column_count(), 0u);
    EXPECT_FALSE(map.min_value);
}

}  // namespace
}  // namespace tokenscope::analysis

namespace tokenscope::analysis {

// Rows by requests in flight. Three requests: A [0, 100], B [10, 60], C [50, 200].
// In flight at 20: A, B -> 2. At 55: A, B, C -> 3 (bucket 3-4). At 60 B emits its
// last token and still counts -> 3. At 150: C -> 1. Step latencies 5, 7, 9, 11 at
// those times; one window, so each row's P95 is its only sample (or of two: 7, 9 ->
// 7 + 0.95 * 2 = 8.9).
TEST(Heatmap, RowsByRequestsInFlight) {
    trace::RunData run;
    auto req = [](std::int64_t id, std::int64_t a, std::int64_t d) {
        trace::Request r;
        r.id = id;
        r.arrival_ns = a;
        r.first_token_ns = a + 1;
        r.done_ns = d;
        r.output_len = 2;
        return r;
    };
    run.requests = {req(1, 0, 100), req(2, 10, 60), req(3, 50, 200)};
    auto step = [](std::int64_t request, std::int32_t index, std::int64_t end, std::int64_t dur) {
        return trace::Step{request, index, trace::Phase::Decode, end - dur, end, 0};
    };
    run.steps = {step(1, 1, 20, 5), step(3, 1, 55, 7), step(2, 1, 60, 9), step(3, 2, 150, 11)};
    HeatmapSpec spec;
    spec.rows = HeatmapRows::Concurrency;
    spec.metric = HeatmapMetric::StepLatency;
    spec.window = WindowKind::Time;
    spec.window_size = 1000;
    spec.origin_ns = 0;
    Heatmap map = compute_heatmap(run, spec);
    ASSERT_EQ(map.row_labels,
              (std::vector<std::string>{"in flight 1", "in flight 2", "in flight 3-4"}));
    ASSERT_EQ(map.column_count(), 1u);
    EXPECT_DOUBLE_EQ(*map.at(0, 0).value, 11.0);
    EXPECT_DOUBLE_EQ(*map.at(1, 0).value, 5.0);
    EXPECT_EQ(map.at(2, 0).count, 2);
    EXPECT_NEAR(*map.at(2, 0).value, 8.9, 1e-12);
    EXPECT_EQ(heatmap_rows_from_string("concurrency"), HeatmapRows::Concurrency);
}

}  // namespace tokenscope::analysis
