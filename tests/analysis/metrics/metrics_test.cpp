#include "analysis/metrics/metrics.h"

#include <gtest/gtest.h>

using namespace tokenscope;
using namespace tokenscope::analysis;

namespace {

trace::Step step(std::int64_t request, int index, std::int64_t start, std::int64_t end) {
    trace::Step s;
    s.request = request;
    s.index = index;
    s.phase = index == 0 ? trace::Phase::Prefill : trace::Phase::Decode;
    s.start_ns = start;
    s.end_ns = end;
    return s;
}

// R1: TTFT 100, E2E 400, 4 tokens -> TPOT 300/3 = 100; emissions 100 200 300 400.
// R2: TTFT 200, E2E 200, 1 token  -> TPOT undefined.
// R3: failed.
// R4: TTFT 50, E2E 550, 3 tokens  -> TPOT 500/2 = 250; emissions 150 300 650.
trace::RunData three_requests() {
    trace::RunData run;
    run.requests = {{1, 0, 100, 400, 10, 4, false},
                    {4, 100, 150, 650, 10, 3, false},
                    {2, 50, 250, 250, 10, 1, false},
                    {3, 60, 0, 0, 10, 0, true}};
    // Deliberately not in (request, index) order.
    run.steps = {step(4, 2, 300, 650), step(1, 0, 0, 100),   step(1, 1, 100, 200),
                 step(4, 0, 100, 150), step(1, 3, 300, 400), step(1, 2, 200, 300),
                 step(2, 0, 50, 250),  step(4, 1, 150, 300)};
    return run;
}

}  // namespace

TEST(Metrics, RequestLatencies) {
    RunMetrics m = compute_metrics(three_requests());
    EXPECT_EQ(m.requests, 3);
    EXPECT_EQ(m.failed_requests, 1);
    EXPECT_EQ(m.tpot_undefined, 1);
    EXPECT_EQ(m.output_tokens, 8);
    EXPECT_EQ(m.ttft.count, 3);
    EXPECT_DOUBLE_EQ(m.ttft.mean, (100.0 + 200.0 + 50.0) / 3.0);
    EXPECT_DOUBLE_EQ(m.ttft.p50, 100.0);
    EXPECT_DOUBLE_EQ(m.e2e.max, 550.0);
    EXPECT_DOUBLE_EQ(m.e2e.min, 200.0);
    ASSERT_EQ(m.tpot.count, 2);
    EXPECT_DOUBLE_EQ(m.tpot.min, 100.0);
    EXPECT_DOUBLE_EQ(m.tpot.max, 250.0);
    // 8 tokens over [0, 650] ns.
    EXPECT_DOUBLE_EQ(m.throughput_tok_s, 8.0 * 1e9 / 650.0);
}

TEST(Metrics, InterTokenLatencyAndSteps) {
    RunMetrics m = compute_metrics(three_requests());
    // ITL: R1 100 100 100, R4 150 350 (R2 has one token).
    ASSERT_EQ(m.itl.count, 5);
    EXPECT_DOUBLE_EQ(m.itl.mean, 160.0);
    EXPECT_DOUBLE_EQ(m.itl.p50, 100.0);
    EXPECT_DOUBLE_EQ(m.itl.max, 350.0);
    // Steps: 100 x4, 200, 50 150 350 -> sorted 50 100 100 100 100 150 200 350; P50 rank 3.5.
    ASSERT_EQ(m.step.count, 8);
    EXPECT_DOUBLE_EQ(m.step.mean, 1150.0 / 8.0);
    EXPECT_DOUBLE_EQ(m.step.p50, 100.0);
    EXPECT_DOUBLE_EQ(m.step.min, 50.0);
}

TEST(Metrics, WarmupRequestsAreExcludedWithTheirTokens) {
    MetricsOptions o;
    o.warmup_requests = 1;  // R1 (first arrival)
    RunMetrics m = compute_metrics(three_requests(), o);
    EXPECT_EQ(m.warmup_requests, 1);
    EXPECT_EQ(m.requests, 2);
    EXPECT_EQ(m.failed_requests, 1);
    EXPECT_DOUBLE_EQ(m.ttft.mean, 125.0);                     // (200 + 50) / 2
    EXPECT_DOUBLE_EQ(m.throughput_tok_s, 4.0 * 1e9 / 600.0);  // R2 + R4 tokens over [50, 650]
    EXPECT_EQ(m.itl.count, 2);                                // R4: 150, 350
    EXPECT_DOUBLE_EQ(m.itl.mean, 250.0);
    EXPECT_EQ(m.step.count, 4);  // R2: 200, R4: 50 150 350
}

TEST(Metrics, WarmupStepsAreExcludedPerRequest) {
    MetricsOptions o;
    o.warmup_steps = 2;
    RunMetrics m = compute_metrics(three_requests(), o);
    // Left: R1 indices 2, 3 (100, 100), R4 index 2 (350). ITL of a token belongs to it.
    EXPECT_EQ(m.step.count, 3);
    EXPECT_DOUBLE_EQ(m.step.mean, 550.0 / 3.0);
    EXPECT_EQ(m.itl.count, 3);
    EXPECT_DOUBLE_EQ(m.itl.max, 350.0);
    EXPECT_DOUBLE_EQ(m.itl.min, 100.0);
    EXPECT_EQ(m.ttft.count, 3);  // step warm-up leaves request metrics alone
}

TEST(Metrics, IterationRunGivesStepsOnly) {
    trace::RunData run;
    for (int i = 0; i < 3; ++i) {
        trace::Step s;
        s.phase = trace::Phase::Iteration;
        s.index = i + 5;
        s.start_ns = i * 100;
        s.end_ns = i * 100 + (i + 1) * 10;
        run.steps.push_back(s);
    }
    MetricsOptions o;
    o.warmup_steps = 1;
    RunMetrics m = compute_metrics(run, o);
    EXPECT_EQ(m.step.count, 2);
    EXPECT_DOUBLE_EQ(m.step.mean, 25.0);  // 20 and 30
    EXPECT_EQ(m.itl.count, 0);
    EXPECT_EQ(m.ttft.count, 0);
    EXPECT_EQ(m.throughput_tok_s, 0.0);
}
