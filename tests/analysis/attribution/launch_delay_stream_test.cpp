// LaunchDelayStream's memory: calls and early kernels further than kLaunchHorizonNs behind
// the stretch being read can match nothing still to come, so it holds only the last 10 s
// of them, however long the run. stored_analysis_test holds its delays equal to
// launch_delay_p95's on real traces and by hand.
#include <gtest/gtest.h>

#include <vector>

#include "analysis/attribution/launch_delay.h"
#include "analysis/attribution/launch_delay_stream.h"
#include "support/activity_builder.h"

namespace tokenscope::analysis {
namespace {

using trace::ActivityKind;

// An hour of one-second stretches, each with 1,000 launches (call on lane 0, kernel 5 us
// later on lane 1) and 100 kernels with no call on lane 2 (as in a trace without runtime
// API events).
TEST(LaunchDelayStream, HoldsOnlyTheHorizon) {
    constexpr std::int64_t kSecond = 1'000'000'000;
    constexpr int kLaunches = 1'000, kOrphans = 100;
    LaunchDelayStream stream;
    std::uint32_t correlation = 0;
    std::size_t most = 0;
    for (std::int64_t s = 0; s < 3'600; ++s) {
        const std::int64_t t0 = s * kSecond;
        std::vector<trace::Activity> calls, kernels, orphans;
        for (int i = 0; i < kLaunches; ++i) {
            const std::int64_t at = t0 + i * 100'000;
            calls.push_back(
                test::act(0, ActivityKind::Api, at, at + 2'000, {.correlation = ++correlation}));
            kernels.push_back(test::act(1, ActivityKind::Kernel, at + 5'000, at + 50'000,
                                        {.correlation = correlation}));
        }
        for (int i = 0; i < kOrphans; ++i) {
            const std::int64_t at = t0 + i * 1'000;
            const auto id = static_cast<std::uint32_t>(4'000'000'000 - s * kOrphans - i);
            orphans.push_back(
                test::act(2, ActivityKind::Kernel, at, at + 500, {.correlation = id}));
        }
        // Grouped by lane, each lane by start.
        std::vector<trace::Activity> acts = calls;
        acts.insert(acts.end(), kernels.begin(), kernels.end());
        const std::size_t kernels_end = acts.size();
        acts.insert(acts.end(), orphans.begin(), orphans.end());
        const std::vector<std::size_t> lane_ends = {calls.size(), kernels_end, acts.size()};
        stream.add(acts, lane_ends, t0);
        most = std::max(most, stream.held());
    }
    // 11 stretches at most (the one read and the 10 s before it), 1,100 entries each.
    const auto per_stretch = static_cast<std::size_t>(kLaunches + kOrphans);
    EXPECT_LE(most, 11 * per_stretch);
    EXPECT_GE(most, 10 * per_stretch);  // and all of the horizon: nothing forgotten early
    // Every launch waited 5 us for its call.
    const LaunchDelayP95 p95 = stream.take_p95();
    ASSERT_TRUE(p95.ns);
    EXPECT_EQ(*p95.ns, 5'000.0);
}

}  // namespace
}  // namespace tokenscope::analysis
