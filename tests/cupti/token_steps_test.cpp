// The cuda runner's per-token steps, their roofline floors and the TPOT median,
// against values worked out by hand.
#include "capture/cupti/token_steps.h"

#include <gtest/gtest.h>

namespace tokenscope::capture::cupti {
namespace {

trace::GpuInfo gpu(double flops, double bandwidth) {
    trace::GpuInfo g;
    g.name = "test GPU";
    g.peak_flops = flops;
    g.peak_bandwidth = bandwidth;
    return g;  // no PCIe figures: the floor must not need them
}

TEST(IterationFloor, DecodeIsFloorBytesOverBandwidth) {
    kernels::IterationPlan plan;
    plan.prefill = false;
    plan.floor_bytes = 3'000'000'000;  // 3 GB at 1 TB/s = 3 ms
    plan.kernels.push_back({kernels::KernelOp::LmHead, false, -1, 1'000'000'000'000, 1, 0});
    EXPECT_EQ(iteration_floor_ns(plan, gpu(1e15, 1e12)), 3'000'000);
}

TEST(IterationFloor, PrefillIsTheSlowerOfComputeAndMemory) {
    kernels::IterationPlan plan;
    plan.prefill = true;
    plan.floor_bytes = 0;
    // 4e12 FLOPs at 1e15 FLOP/s = 4 ms; 1e9 + 1e9 bytes at 1e12 B/s = 2 ms.
    plan.kernels.push_back(
        {kernels::KernelOp::QkvProj, false, 0, 4'000'000'000'000, 1'000'000'000, 1'000'000'000});
    EXPECT_EQ(iteration_floor_ns(plan, gpu(1e15, 1e12)), 4'000'000);
    // Ten times the bandwidth need: memory now dominates at 20 ms.
    plan.kernels[0].bytes_read = 20'000'000'000;
    plan.kernels[0].bytes_written = 0;
    EXPECT_EQ(iteration_floor_ns(plan, gpu(1e15, 1e12)), 20'000'000);
}

TEST(IterationFloor, UnknownGpuHasNoFloor) {
    kernels::IterationPlan plan;
    plan.floor_bytes = 3'000'000'000;
    EXPECT_EQ(iteration_floor_ns(plan, gpu(0.0, 0.0)), 0);
    EXPECT_EQ(iteration_floor_ns(plan, gpu(1e15, 0.0)), 0);
}

TEST(TokenSteps, FirstTokenOfEachIterationCarriesItsFloor) {
    // Prefill (1 token), one decode step, then a speculative iteration emitting 2.
    const std::vector<IterationTokens> iterations = {{1, 700}, {1, 80}, {2, 90}};
    const std::vector<std::vector<std::int64_t>> emitted = {{100, 200, 300, 300},
                                                            {110, 210, 310, 310}};
    const auto steps = token_steps(emitted, 50, iterations);
    ASSERT_EQ(steps.size(), 8u);
    const std::int64_t floors[] = {700, 80, 90, 0};
    const std::int64_t starts[] = {50, 100, 200, 300};
    for (int j = 0; j < 4; ++j) {
        SCOPED_TRACE(j);
        EXPECT_EQ(steps[j].request, 1);
        EXPECT_EQ(steps[j].index, j);
        EXPECT_EQ(steps[j].floor_ns, floors[j]);
        EXPECT_EQ(steps[j].start_ns, starts[j]);
        EXPECT_EQ(steps[j].end_ns, emitted[0][j]);
        EXPECT_EQ(steps[4 + j].request, 2);
        EXPECT_EQ(steps[4 + j].floor_ns, floors[j]);
    }
    EXPECT_EQ(steps[0].phase, trace::Phase::Prefill);
    EXPECT_EQ(steps[1].phase, trace::Phase::Decode);
    EXPECT_EQ(steps[5].start_ns, 110);
}

TEST(TokenSteps, TokensBeyondTheIterationsGetNoFloor) {
    const auto steps = token_steps({{10, 20, 30}}, 0, {{1, 5}});
    ASSERT_EQ(steps.size(), 3u);
    EXPECT_EQ(steps[0].floor_ns, 5);
    EXPECT_EQ(steps[1].floor_ns, 0);
    EXPECT_EQ(steps[2].floor_ns, 0);
}

TEST(MedianTpot, MedianOverRequestsOfMeanInterTokenTime) {
    // (20 - 0) / 2 = 10 and (30 - 0) / 1 = 30; the one-token request is left out.
    EXPECT_DOUBLE_EQ(median_tpot_ns({{0, 10, 20}, {0, 30}, {5}}), 20.0);
    EXPECT_DOUBLE_EQ(median_tpot_ns({{0, 4, 6}, {0, 30}, {100, 101}}), 3.0);
    EXPECT_DOUBLE_EQ(median_tpot_ns({{5}}), 0.0);
}

}  // namespace
}  // namespace tokenscope::capture::cupti
