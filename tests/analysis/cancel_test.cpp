// The long analysis entry points stop early on a trace::StopToken: a token stopped
// before the call stops them at once; one that stops at a given check, counted by a
// polling token, stops them half-way. Checks are coarse (chunks of thousands of
// elements), and a token that never stops changes nothing.
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "analysis/attribution/attribution.h"
#include "analysis/attribution/run_analysis.h"
#include "analysis/attribution/verdict.h"
#include "analysis/compare/diff.h"
#include "analysis/heatmap/heatmap.h"
#include "trace/stop_source.h"
#include "trace/stop_token.h"

namespace tokenscope::analysis {
namespace {

using trace::StopToken;

constexpr int kTokens = 3000;
constexpr int kKernelsPerToken = 10;

// One request of kTokens tokens, each 1 us long with kKernelsPerToken kernels, each
// launched by an API call on the CPU thread: 30,000 kernels and 30,000 calls, so
// every pass over the activities spans several check chunks.
trace::RunData big_run(std::int64_t slower_every = 0) {
    trace::RunData run;
    run.info.gpu.peak_bandwidth = 3.35e12;
    run.info.gpu.peak_flops = 989e12;
    run.lanes = {{trace::LaneKind::CpuThread, -1, 1, 1, "main"},
                 {trace::LaneKind::GpuStream, 0, 1, 7, "stream 7"}};
    const std::uint32_t api = run.strings.intern("cudaLaunchKernel");
    std::vector<std::uint32_t> names;
    for (int k = 0; k < kKernelsPerToken; ++k)
        names.push_back(run.strings.intern("kernel_" + std::to_string(k)));
    std::vector<trace::Activity> kernels;
    for (int t = 0; t < kTokens; ++t) {
        const std::int64_t base = std::int64_t(t) * 1000;
        const std::int64_t extra = slower_every > 0 && t % slower_every == 0 ? 50 : 0;
        for (int k = 0; k < kKernelsPerToken; ++k) {
            trace::Activity call;
            call.lane = 0, call.kind = trace::ActivityKind::Api, call.name = api;
            call.start_ns = base + k * 100, call.end_ns = call.start_ns + 20;
            call.correlation = static_cast<std::uint32_t>(t * kKernelsPerToken + k + 1);
            run.activities.push_back(call);
            trace::Activity kernel = call;
            kernel.lane = 1, kernel.kind = trace::ActivityKind::Kernel, kernel.name = names[k];
            kernel.start_ns = call.start_ns + 30, kernel.end_ns = kernel.start_ns + 60 + extra;
            kernels.push_back(kernel);
        }
        run.steps.push_back(
            {1, t, t == 0 ? trace::Phase::Prefill : trace::Phase::Decode, base, base + 1000, 0});
    }
    run.activities.insert(run.activities.end(), kernels.begin(), kernels.end());
    run.requests = {{1, 0, 1000, std::int64_t(kTokens) * 1000, 16, kTokens, false}};
    return run;
}

HeatmapSpec kernel_spec() {
    HeatmapSpec spec;
    spec.rows = HeatmapRows::Kernel;
    spec.metric = HeatmapMetric::KernelDuration;
    spec.window = WindowKind::Steps;
    spec.window_size = 100;
    return spec;
}

HeatmapSpec itl_spec() {
    HeatmapSpec spec;
    spec.rows = HeatmapRows::Position;
    spec.metric = HeatmapMetric::Itl;
    spec.window_size = 100'000;
    return spec;
}

using Work = std::function<void(const StopToken&)>;

const trace::RunData& run_a() {
    static const trace::RunData run = big_run();
    return run;
}

const trace::RunData& run_b() {
    static const trace::RunData run = big_run(7);
    return run;
}

// The entry points under test, each as one call on the shared runs.
std::vector<std::pair<std::string, Work>> entry_points() {
    return {
        {"compute_heatmap kernel",
         [](const StopToken& s) { compute_heatmap(run_a(), kernel_spec(), s); }},
        {"compute_heatmap itl",
         [](const StopToken& s) { compute_heatmap(run_a(), itl_spec(), s); }},
        {"attribute_steps", [](const StopToken& s) { attribute_steps(run_a(), {}, s); }},
        {"assess_run given attributions",
         [](const StopToken& s) {
             static const auto atts = attribute_steps(run_a());
             assess_run(run_a(), atts, {}, {}, s);
         }},
        {"analyse_run", [](const StopToken& s) { analyse_run(run_a(), VerdictOptions{}, {}, s); }},
        {"attribute_range",
         [](const StopToken& s) { attribute_range(run_a(), INT64_MIN / 2, INT64_MAX / 2, {}, s); }},
        {"diff_runs",
         [](const StopToken& s) {
             DiffOptions options;
             options.heatmap = kernel_spec();
             diff_runs(run_a(), run_b(), options, s);
         }},
    };
}

// Checks the work makes when never stopped.
int count_checks(const Work& work) {
    int checks = 0;
    work(StopToken::polling([&] {
        ++checks;
        return false;
    }));
    return checks;
}

// A token whose poll answers "stop" from its `stop_at`-th check on.
StopToken stopping_at(int stop_at, int& checks) {
    return StopToken::polling([&checks, stop_at] { return ++checks >= stop_at; });
}

TEST(Cancel, APreStoppedTokenStopsEveryEntryPoint) {
    trace::StopSource source;
    source.request_stop();
    for (const auto& [name, work] : entry_points()) {
        SCOPED_TRACE(name);
        EXPECT_THROW(work(source.token()), trace::Cancelled);
    }
}

TEST(Cancel, AStopHalfWayStopsEveryEntryPointBeforeItsEnd) {
    for (const auto& [name, work] : entry_points()) {
        SCOPED_TRACE(name);
        const int total = count_checks(work);
        // Several checks (so a stop can land half-way), but per chunk, not per element:
        // 30,000 activities per pass would mean tens of thousands of checks.
        EXPECT_GE(total, 4);
        EXPECT_LE(total, 1000);
        int checks = 0;
        EXPECT_THROW(work(stopping_at(total / 2, checks)), trace::Cancelled);
        // The check that said "stop" was the last one asked: the work unwound there.
        EXPECT_EQ(checks, total / 2);
        // The last check is the latest point a stop is seen; after it the work is done.
        checks = 0;
        EXPECT_THROW(work(stopping_at(total, checks)), trace::Cancelled);
        checks = 0;
        EXPECT_NO_THROW(work(stopping_at(total + 1, checks)));
        EXPECT_EQ(checks, total);
    }
}

TEST(Cancel, AStopSourceStopsTheTokensItHandedOut) {
    trace::StopSource source;
    const StopToken token = source.token();
    const StopToken copy = token;
    EXPECT_TRUE(token.stop_possible());
    EXPECT_FALSE(copy.stop_requested());
    EXPECT_NO_THROW(copy.throw_if_stopped());
    source.request_stop();
    EXPECT_TRUE(token.stop_requested());
    EXPECT_TRUE(copy.stop_requested());
    EXPECT_THROW(copy.throw_if_stopped(), trace::Cancelled);
    // A default token cannot stop; a new source starts unstopped.
    EXPECT_FALSE(StopToken().stop_possible());
    EXPECT_FALSE(StopToken().stop_requested());
    EXPECT_FALSE(trace::StopSource().stop_requested());
}

// for_each_stoppable visits every element once, in order, checking before each chunk.
TEST(Cancel, ForEachStoppableVisitsInChunks) {
    std::vector<int> items(2 * trace::kStopCheckEvery + 1);
    for (std::size_t i = 0; i < items.size(); ++i) items[i] = static_cast<int>(i);
    int checks = 0;
    std::size_t next = 0;
    bool in_order = true;
    trace::for_each_stoppable(items, StopToken::polling([&] {
                                  ++checks;
                                  return false;
                              }),
                              [&](int v) { in_order = in_order && v == static_cast<int>(next++); });
    EXPECT_TRUE(in_order);
    EXPECT_EQ(next, items.size());
    EXPECT_EQ(checks, 3);  // chunks [0, 4096), [4096, 8192), [8192, 8193)

    // Stopped at the second check: only the first chunk was visited.
    checks = 0;
    next = 0;
    EXPECT_THROW(trace::for_each_stoppable(items, stopping_at(2, checks), [&](int) { ++next; }),
                 trace::Cancelled);
    EXPECT_EQ(next, trace::kStopCheckEvery);
}

// A token that never stops gives the very result of a call without one.
TEST(Cancel, ANeverStoppingTokenChangesNothing) {
    const StopToken never = StopToken::polling([] { return false; });
    const Heatmap plain = compute_heatmap(run_a(), kernel_spec());
    const Heatmap polled = compute_heatmap(run_a(), kernel_spec(), never);
    ASSERT_EQ(plain.cells.size(), polled.cells.size());
    ASSERT_FALSE(plain.cells.empty());
    for (std::size_t i = 0; i < plain.cells.size(); ++i) {
        EXPECT_EQ(plain.cells[i].count, polled.cells[i].count);
        EXPECT_EQ(plain.cells[i].value, polled.cells[i].value);
    }
    const auto a = attribute_steps(run_a());
    const auto b = attribute_steps(run_a(), {}, never);
    ASSERT_EQ(a.size(), std::size_t(kTokens));
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
        EXPECT_EQ(a[i].assigned, b[i].assigned);
        EXPECT_EQ(a[i].hidden, b[i].hidden);
    }
    // Each 1000 ns step: 10 kernels of 60 ns = 600 ns compute; API calls [k*100, k*100+20)
    // = 200 ns cpu; the rest, 200 ns, scheduling.
    EXPECT_EQ(b[5].assigned[static_cast<std::size_t>(Category::GpuCompute)], 600);
    EXPECT_EQ(b[5].assigned[static_cast<std::size_t>(Category::Cpu)], 200);
    EXPECT_EQ(b[5].assigned[static_cast<std::size_t>(Category::Scheduling)], 200);
}

}  // namespace
}  // namespace tokenscope::analysis
