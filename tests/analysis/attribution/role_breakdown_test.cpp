// GPU time per kernel role (analysis/role_breakdown.h) on runs built by hand, every
// expected number worked out from the times below.
#include "analysis/attribution/role_breakdown.h"

#include <gtest/gtest.h>

#include "support/activity_builder.h"
#include "trace/stop_source.h"

namespace tokenscope::analysis {
namespace {

using trace::ActivityKind;
using trace::Phase;

constexpr std::uint16_t kCpu = 0, kStream = 1, kStream2 = 2;

struct Hand {
    trace::RunData run;
    std::uint32_t gemm, attention, norm, allreduce, argmax, api;

    Hand() {
        run.lanes = {{trace::LaneKind::CpuThread, -1, 1, 1, "main"},
                     {trace::LaneKind::GpuStream, 0, 1, 7, "stream 7"},
                     {trace::LaneKind::GpuStream, 0, 1, 8, "stream 8"}};
        gemm = run.strings.intern("ampere_bf16_s16816gemm_bf16_128x64_ldg8_f2f_stages_64x4_tn");
        attention = run.strings.intern("kernel_unified_attention_2d");
        norm = run.strings.intern("void vllm::rms_norm_kernel<c10::BFloat16>(c10::BFloat16*)");
        allreduce = run.strings.intern(
            "void vllm::cross_device_reduce_1stage<__nv_bfloat16, 4>(vllm::RankData*)");
        argmax = run.strings.intern(
            "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, "
            "at::native::ArgMaxOps<float>, unsigned int, long, 4, 4> >(int)");
        api = run.strings.intern("cudaLaunchKernel");
    }
    void add(std::uint16_t lane, ActivityKind kind, std::int64_t s, std::int64_t e,
             std::uint32_t name) {
        run.activities.push_back(test::act(lane, kind, s, e, {.name = name}));
    }
    void step(Phase phase, std::int64_t s, std::int64_t e) {
        trace::Step st;
        st.phase = phase, st.start_ns = s, st.end_ns = e;
        st.index = static_cast<std::int32_t>(run.steps.size());
        run.steps.push_back(st);
    }
};

std::int64_t ns(const RoleTimes& t, KernelRole r) {
    return t[r];
}

// Two prefill steps [0, 1000) and [1000, 2000), one decode step [3000, 3500):
// - GEMM [100, 400) and attention [400, 600) in step 0; a memset [600, 650) is Copy;
// - on a second stream, all-reduce [300, 1300) starts in step 0 and is cut at 1000
//   (700 there); it does not count again in step 1, where it did not start;
// - step 1: norm [1000, 1100) (a start on the boundary belongs to the later step), GEMM
//   [1900, 2200) cut at 2000 (100);
// - between steps: argmax [2500, 2600) counts only in the run total;
// - step 2 (decode): memcpy [3000, 3200), argmax [3400, 3600) cut to 100;
// - host work (an API call) and a kernel on the CPU lane count nowhere.
Hand three_steps() {
    Hand h;
    h.step(Phase::Prefill, 0, 1000);
    h.step(Phase::Prefill, 1000, 2000);
    h.step(Phase::Decode, 3000, 3500);
    h.add(kCpu, ActivityKind::Api, 50, 90, h.api);
    h.add(kCpu, ActivityKind::Kernel, 100, 900, h.gemm);
    h.add(kStream, ActivityKind::Kernel, 100, 400, h.gemm);
    h.add(kStream, ActivityKind::Kernel, 400, 600, h.attention);
    h.add(kStream, ActivityKind::Memset, 600, 650, h.api);
    h.add(kStream, ActivityKind::Kernel, 1000, 1100, h.norm);
    h.add(kStream, ActivityKind::Kernel, 1900, 2200, h.gemm);
    h.add(kStream, ActivityKind::Kernel, 2500, 2600, h.argmax);
    h.add(kStream, ActivityKind::Memcpy, 3000, 3200, h.api);
    h.add(kStream, ActivityKind::Kernel, 3400, 3600, h.argmax);
    h.add(kStream2, ActivityKind::Kernel, 300, 1300, h.allreduce);
    return h;
}

TEST(RoleBreakdown, PerStepTheOperationsStartingInsideCutAtTheWindowsEnd) {
    const Hand h = three_steps();
    const RoleBreakdown b = role_breakdown(h.run);
    ASSERT_EQ(b.steps.size(), 3u);
    EXPECT_EQ(ns(b.steps[0], KernelRole::Gemm), 300);
    EXPECT_EQ(ns(b.steps[0], KernelRole::Attention), 200);
    EXPECT_EQ(ns(b.steps[0], KernelRole::Copy), 50);
    EXPECT_EQ(ns(b.steps[0], KernelRole::Communication), 700);
    EXPECT_EQ(b.steps[0].total(), 1250);  // two streams: GPU time, not busy time
    EXPECT_EQ(ns(b.steps[1], KernelRole::Normalization), 100);
    EXPECT_EQ(ns(b.steps[1], KernelRole::Gemm), 100);
    EXPECT_EQ(ns(b.steps[1], KernelRole::Communication), 0);
    EXPECT_EQ(b.steps[1].total(), 200);
    EXPECT_EQ(ns(b.steps[2], KernelRole::Copy), 200);
    EXPECT_EQ(ns(b.steps[2], KernelRole::Sampling), 100);
    EXPECT_EQ(b.steps[2].total(), 300);
}

TEST(RoleBreakdown, RunTotalCountsEveryGpuOperationWhole) {
    const RoleBreakdown b = role_breakdown(three_steps().run);
    EXPECT_EQ(ns(b.run, KernelRole::Gemm), 300 + 300);
    EXPECT_EQ(ns(b.run, KernelRole::Attention), 200);
    EXPECT_EQ(ns(b.run, KernelRole::Communication), 1000);
    EXPECT_EQ(ns(b.run, KernelRole::Normalization), 100);
    EXPECT_EQ(ns(b.run, KernelRole::Sampling), 100 + 200);
    EXPECT_EQ(ns(b.run, KernelRole::Copy), 50 + 200);
    EXPECT_EQ(ns(b.run, KernelRole::Elementwise), 0);
    EXPECT_EQ(ns(b.run, KernelRole::Other), 0);
    EXPECT_EQ(b.run.total(), 2450);
}

TEST(RoleBreakdown, PhasesSumTheirStepsAndAverage) {
    const RoleBreakdown b = role_breakdown(three_steps().run);
    ASSERT_EQ(b.phases.size(), 2u);
    EXPECT_EQ(b.phases[0].phase, Phase::Prefill);
    EXPECT_EQ(b.phases[0].steps, 2);
    EXPECT_EQ(ns(b.phases[0].total, KernelRole::Gemm), 400);
    EXPECT_DOUBLE_EQ(b.phases[0].mean_ns[static_cast<std::size_t>(KernelRole::Gemm)], 200.0);
    EXPECT_DOUBLE_EQ(b.phases[0].mean_ns[static_cast<std::size_t>(KernelRole::Communication)],
                     350.0);
    EXPECT_EQ(b.phases[0].total.total(), 1450);
    EXPECT_EQ(b.phases[1].phase, Phase::Decode);
    EXPECT_EQ(b.phases[1].steps, 1);
    EXPECT_DOUBLE_EQ(b.phases[1].mean_ns[static_cast<std::size_t>(KernelRole::Copy)], 200.0);
}

// Asynchronous engines: iteration N+1's window opens before N's GPU work ends. A kernel
// starting where both windows are counts in each, cut at each window's end.
TEST(RoleBreakdown, OverlappingWindowsEachCountWhatStartsInThem) {
    Hand h;
    h.step(Phase::Decode, 0, 1000);
    h.step(Phase::Decode, 800, 2000);
    h.step(Phase::Decode, 5000, 5000);  // empty window: nothing
    h.add(kStream, ActivityKind::Kernel, 900, 1200, h.gemm);
    h.add(kStream, ActivityKind::Kernel, 700, 750, h.attention);
    const RoleBreakdown b = role_breakdown(h.run);
    EXPECT_EQ(ns(b.steps[0], KernelRole::Gemm), 100);
    EXPECT_EQ(ns(b.steps[0], KernelRole::Attention), 50);
    EXPECT_EQ(ns(b.steps[1], KernelRole::Gemm), 300);
    EXPECT_EQ(ns(b.steps[1], KernelRole::Attention), 0);
    EXPECT_EQ(b.steps[2].total(), 0);
    EXPECT_EQ(ns(b.run, KernelRole::Gemm), 300);
    ASSERT_EQ(b.phases.size(), 1u);
    EXPECT_EQ(b.phases[0].steps, 3);
}

TEST(RoleBreakdown, RunWithoutStepsHasOnlyItsTotal) {
    Hand h;
    h.add(kStream, ActivityKind::Kernel, 0, 10, h.gemm);
    const RoleBreakdown b = role_breakdown(h.run);
    EXPECT_TRUE(b.steps.empty());
    EXPECT_TRUE(b.phases.empty());
    EXPECT_EQ(b.run.total(), 10);
}

TEST(RoleBreakdown, StopsWhenAsked) {
    const Hand h = three_steps();
    trace::StopSource source;
    source.request_stop();
    EXPECT_THROW(role_breakdown(h.run, source.token()), trace::Cancelled);
}

}  // namespace
}  // namespace tokenscope::analysis
