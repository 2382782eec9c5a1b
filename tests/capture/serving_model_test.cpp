// The serving model against queueing facts that hold whatever the cost model says:
// Little's law, an overloaded queue, max_num_seqs = 1, the dynamic budget's direction.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>

#include "capture/memory_run_writer.h"
#include "capture/serving/serving_scheduler.h"
#include "capture/serving/serving_simulator.h"

namespace tokenscope::capture {
namespace {

trace::RunData simulate(const ServingConfig& s, const std::string& model = "llama-1b") {
    CaptureConfig c;
    c.model = model;
    c.gpu = "H100-SXM5";
    c.decode.seed = 5;
    MemoryRunWriter w;
    run_serving_model(c, s, w, {});
    EXPECT_TRUE(w.finished());
    return w.take();
}

std::vector<trace::CounterSample> counter(const trace::RunData& run, const std::string& name) {
    std::vector<trace::CounterSample> out;
    for (std::size_t i = 0; i < run.lanes.size(); ++i)
        if (run.lanes[i].name == name)
            for (const auto& c : run.counters)
                if (c.lane == i) out.push_back(c);
    std::sort(out.begin(), out.end(), [](auto& a, auto& b) { return a.time_ns < b.time_ns; });
    return out;
}

TEST(ServingModel, LittlesLawHoldsOnALongClosedLoop) {
    ServingConfig s;
    s.arrival = {ArrivalKind::Closed, 0.0, 1.0, 24};
    s.duration_s = 120;
    s.prompt_len = 256;
    s.output_len = 64;
    s.length_spread = 0.5;
    s.summary = true;
    auto run = simulate(s);
    ASSERT_GT(run.requests.size(), 500u);
    std::int64_t first = run.requests.front().arrival_ns, last = 0;
    double e2e = 0;
    for (const auto& r : run.requests) {
        first = std::min(first, r.arrival_ns);
        last = std::max(last, r.done_ns);
        e2e += static_cast<double>(r.done_ns - r.arrival_ns);
    }
    const double span = static_cast<double>(last - first);
    const double throughput = static_cast<double>(run.requests.size()) / span;
    const double mean_e2e = e2e / static_cast<double>(run.requests.size());
    // Mean in flight from the model's own counter, time-weighted between samples.
    auto in_system = counter(run, "requests in system (model)");
    ASSERT_GT(in_system.size(), 100u);
    double area = 0;
    for (std::size_t i = 0; i < in_system.size(); ++i) {
        const std::int64_t until = i + 1 < in_system.size() ? in_system[i + 1].time_ns : last;
        area += in_system[i].value * static_cast<double>(until - in_system[i].time_ns);
    }
    const double mean_in_flight = area / span;
    EXPECT_NEAR(mean_in_flight / (throughput * mean_e2e), 1.0, 0.02);
    EXPECT_NEAR(mean_in_flight, 24.0, 24.0 * 0.05);  // the loop keeps 24 in flight
}

TEST(ServingModel, OverloadGrowsTheQueueAndTtftRisesMonotonically) {
    ServingConfig s;
    s.arrival = {ArrivalKind::Poisson, 400.0, 1.0, 0};
    s.duration_s = 10;
    s.prompt_len = 1024;
    s.output_len = 32;
    s.max_num_seqs = 64;
    s.summary = true;
    auto run = simulate(s, "llama-8b");
    auto rs = run.requests;
    std::sort(rs.begin(), rs.end(), [](auto& a, auto& b) { return a.arrival_ns < b.arrival_ns; });
    constexpr std::size_t kWindows = 5;
    std::vector<double> mean_ttft(kWindows, 0.0);
    const std::size_t per = rs.size() / kWindows;
    ASSERT_GT(per, 50u);
    for (std::size_t w = 0; w < kWindows; ++w) {
        for (std::size_t i = w * per; i < (w + 1) * per; ++i)
            mean_ttft[w] += static_cast<double>(rs[i].first_token_ns - rs[i].arrival_ns);
        mean_ttft[w] /= static_cast<double>(per);
    }
    for (std::size_t w = 1; w < kWindows; ++w) EXPECT_GT(mean_ttft[w], mean_ttft[w - 1]) << w;
    auto waiting = counter(run, "requests in system (model)");
    ASSERT_FALSE(waiting.empty());
    // Arrivals outrun service: by the end of the window most requests are still queued.
    double peak = 0;
    for (const auto& c : waiting) peak = std::max(peak, c.value);
    EXPECT_GT(peak, 0.5 * static_cast<double>(rs.size()));
}

TEST(ServingModel, OneSequenceAtATimeIsSequentialService) {
    ServingConfig s;
    s.arrival = {ArrivalKind::Poisson, 50.0, 1.0, 0};
    s.duration_s = 2;
    s.prompt_len = 128;
    s.output_len = 16;
    s.max_num_seqs = 1;
    auto run = simulate(s);
    auto rs = run.requests;
    ASSERT_GT(rs.size(), 20u);
    std::sort(rs.begin(), rs.end(), [](auto& a, auto& b) { return a.arrival_ns < b.arrival_ns; });
    for (std::size_t i = 1; i < rs.size(); ++i) {
        EXPECT_GE(rs[i].first_token_ns, rs[i - 1].done_ns) << i;
        EXPECT_GT(rs[i].done_ns, rs[i - 1].done_ns) << i;
    }
    // Every iteration serves one sequence: one token step per iteration range.
    std::size_t ranges = 0;
    for (const auto& a : run.activities) ranges += a.kind == trace::ActivityKind::Range ? 1 : 0;
    EXPECT_EQ(ranges, run.steps.size());
}

TEST(ServingModel, DynamicBudgetMovesShareToTheClassMissingItsSla) {
    ServingConfig s;
    s.arrival = {ArrivalKind::Poisson, 60.0, 1.0, 0};
    s.duration_s = 40;
    s.prompt_len = 2048;
    s.output_len = 16;
    s.token_budget = 4096;
    s.chunked_prefill = true;
    s.tenants = {{"tight", 0.5, 0.5, 20'000'000, 0}, {"loose", 0.5, 0.5, 60'000'000'000, 0}};
    s.policy = AdmissionPolicy::DynamicBudget;
    s.summary = true;
    auto run = simulate(s, "llama-8b");
    auto tight = counter(run, "share tight (model)");
    auto loose = counter(run, "share loose (model)");
    ASSERT_FALSE(tight.empty());
    EXPECT_DOUBLE_EQ(tight.front().value, 0.5);
    EXPECT_GT(tight.back().value, 0.6);
    EXPECT_NEAR(tight.back().value + loose.back().value, 1.0, 1e-9);
    s.policy = AdmissionPolicy::StaticShare;
    auto fixed = counter(simulate(s, "llama-8b"), "share tight (model)");
    ASSERT_FALSE(fixed.empty());
    EXPECT_DOUBLE_EQ(fixed.back().value, 0.5);
}

TEST(ServingModel, SummaryModeKeepsTheTimingAndDropsTheKernels) {
    ServingConfig s;
    s.arrival = {ArrivalKind::Gamma, 20.0, 4.0, 0};
    s.duration_s = 3;
    s.prompt_len = 64;
    s.output_len = 8;
    auto full = simulate(s);
    s.summary = true;
    auto summary = simulate(s);
    EXPECT_EQ(full.requests, summary.requests);
    EXPECT_EQ(full.steps.size(), summary.steps.size());
    std::size_t kernels = 0;
    for (const auto& a : full.activities) kernels += a.kind == trace::ActivityKind::Kernel ? 1 : 0;
    EXPECT_GT(kernels, 0u);
    for (const auto& a : summary.activities) EXPECT_NE(a.kind, trace::ActivityKind::Kernel);
    EXPECT_NE(full.info.name.find("(model)"), std::string::npos);
    EXPECT_EQ(full.info.source, trace::Source::Model);
    // Summary "requests": the same requests (the token steps were bookkeeping only).
    s.token_steps = false;
    auto requests_only = simulate(s);
    EXPECT_EQ(full.requests, requests_only.requests);
    EXPECT_TRUE(requests_only.steps.empty());
    EXPECT_GT(requests_only.activities.size(), 0u);  // the iteration ranges stay
}

// The dynamic policy's factor is clamp(P95 / SLA, 0.5, 2), so the class over its SLA
// gains; hand values: 0.5 * 2 (P95 = 4 SLA, clamped) and 0.5 * 0.5 (P95 = SLA / 10,
// clamped) normalise to 1.0 / 1.25 and 0.25 / 1.25.
TEST(ServingModel, RescaleSharesMultipliesByP95OverSlaClampedThenNormalises) {
    auto s = rescale_shares({0.5, 0.5}, {4.0, 0.1});
    ASSERT_EQ(s.size(), 2u);
    EXPECT_DOUBLE_EQ(s[0], 0.8);
    EXPECT_DOUBLE_EQ(s[1], 0.2);
    // Inside the clamp: 0.5 * 1.5 = 0.75 against a class with no SLA (ratio 0, kept).
    s = rescale_shares({0.5, 0.5}, {1.5, 0.0});
    EXPECT_DOUBLE_EQ(s[0], 0.6);
    EXPECT_DOUBLE_EQ(s[1], 0.4);
    // No first token in the last minute (NaN) keeps the share too.
    s = rescale_shares({0.25, 0.75}, {std::nan(""), 0.8});
    EXPECT_DOUBLE_EQ(s[0], 0.25 / (0.25 + 0.6));
    EXPECT_DOUBLE_EQ(s[1], 0.6 / (0.25 + 0.6));
}

}  // namespace
}  // namespace tokenscope::capture
