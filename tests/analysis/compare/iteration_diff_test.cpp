// Engine iterations of two runs compared (analysis/iteration_diff.h) on runs built by
// hand; every expected figure is worked out from the times below.
#include "analysis/compare/iteration_diff.h"

#include <gtest/gtest.h>

#include "analysis/attribution/role_breakdown.h"
#include "analysis/compare/diff.h"
#include "support/activity_builder.h"
#include "trace/stop_source.h"

namespace tokenscope::analysis {
namespace {

using trace::ActivityKind;
using trace::Phase;

constexpr std::uint16_t kCpu = 0, kStream = 1, kStream2 = 2;
constexpr std::int64_t kMs = 1'000'000;

struct Hand {
    trace::RunData run;
    std::uint32_t gemm, attention, allreduce, api;

    Hand() {
        run.lanes = {{trace::LaneKind::CpuThread, -1, 1, 1, "main"},
                     {trace::LaneKind::GpuStream, 0, 1, 7, "stream 7"},
                     {trace::LaneKind::GpuStream, 0, 1, 8, "stream 8"}};
        gemm = run.strings.intern("Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT256x32x64");
        attention = run.strings.intern("paged_attention_ll4mi_QKV_mfma16_kernel");
        allreduce =
            run.strings.intern("ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgs)");
        api = run.strings.intern("hipLaunchKernel");
    }
    void add(std::uint16_t lane, ActivityKind kind, std::int64_t s, std::int64_t e,
             std::uint32_t name = 0) {
        run.activities.push_back(test::act(lane, kind, s, e, {.name = name}));
    }
    // An engine iteration: a decode or prefill step with its batch, or a ProfilerStep-like
    // step of phase Iteration without one.
    void iteration(Phase phase, std::int64_t s, std::int64_t e) {
        trace::Step st;
        st.phase = phase, st.start_ns = s, st.end_ns = e;
        if (phase == Phase::Decode) st.batch.decode_requests = 32, st.batch.decode_tokens = 32;
        if (phase == Phase::Prefill) st.batch.prefill_requests = 4, st.batch.prefill_tokens = 512;
        st.index = static_cast<std::int32_t>(run.steps.size());
        run.steps.push_back(st);
    }
};

const IterationPart& part(const PhaseIterationDiff& d, std::optional<KernelRole> role) {
    for (const IterationPart& p : d.parts)
        if (p.role == role) return p;
    throw std::logic_error("no such part");
}

// A: one decode iteration [0, 10 ms): GEMM [1, 4), attention [4, 6): idle 10 - 5 = 5 ms.
// B: one decode iteration [0, 16 ms): GEMM [1, 5), attention [5, 7): idle 16 - 6 = 10 ms.
// P50 delta 6 ms = idle +5 + GEMM +1 + attention 0.
Hand decode_a() {
    Hand h;
    h.iteration(Phase::Decode, 0, 10 * kMs);
    h.add(kCpu, ActivityKind::Api, 0, kMs / 2, h.api);  // host work counts nowhere
    h.add(kStream, ActivityKind::Kernel, 1 * kMs, 4 * kMs, h.gemm);
    h.add(kStream, ActivityKind::Kernel, 4 * kMs, 6 * kMs, h.attention);
    return h;
}

Hand decode_b() {
    Hand h;
    h.iteration(Phase::Decode, 0, 16 * kMs);
    h.add(kStream, ActivityKind::Kernel, 1 * kMs, 5 * kMs, h.gemm);
    h.add(kStream, ActivityKind::Kernel, 5 * kMs, 7 * kMs, h.attention);
    return h;
}

TEST(IterationDiff, PartsOfTheP50DeltaAreIdleAndRoles) {
    const IterationDiff it = diff_iterations(decode_a().run, decode_b().run);
    ASSERT_EQ(it.phases.size(), 1u);
    const PhaseIterationDiff& d = it.phases[0];
    EXPECT_EQ(d.phase, Phase::Decode);
    ASSERT_EQ(d.pairs.size(), 1u);
    EXPECT_EQ(d.pairs[0].a_ns, 10 * kMs);
    EXPECT_EQ(d.pairs[0].b_ns, 16 * kMs);
    EXPECT_DOUBLE_EQ(d.a.duration.p50, 10.0 * kMs);
    EXPECT_DOUBLE_EQ(d.p50_delta_ns, 6.0 * kMs);
    EXPECT_DOUBLE_EQ(part(d, std::nullopt).a_ns, 5.0 * kMs);
    EXPECT_DOUBLE_EQ(part(d, std::nullopt).b_ns, 10.0 * kMs);
    EXPECT_DOUBLE_EQ(part(d, std::nullopt).delta_ns, 5.0 * kMs);
    EXPECT_DOUBLE_EQ(part(d, KernelRole::Gemm).delta_ns, 1.0 * kMs);
    EXPECT_DOUBLE_EQ(part(d, KernelRole::Attention).a_ns, 2.0 * kMs);
    EXPECT_DOUBLE_EQ(part(d, KernelRole::Attention).delta_ns, 0.0);
    EXPECT_DOUBLE_EQ(d.rest_ns, 0.0);
    double sum = d.rest_ns;
    for (const IterationPart& p : d.parts) sum += p.delta_ns;
    EXPECT_DOUBLE_EQ(sum, d.p50_delta_ns);
    EXPECT_EQ(d.sentence,
              "B's decode iterations are 6.0 ms slower (P50); 5.0 ms of it is GPU idle, "
              "1.0 ms GEMM.");
    EXPECT_EQ(part_name(part(d, std::nullopt)), "GPU idle");
    EXPECT_EQ(part_key(part(d, KernelRole::Gemm)), "gemm");
}

// Without concurrency the roles are role_breakdown's GPU time per step.
TEST(IterationDiff, RolesAreRoleBreakdownsWithoutConcurrency) {
    const Hand h = decode_b();
    const std::vector<WindowTime> t = iteration_window_times(h.run);
    const RoleBreakdown rb = role_breakdown(h.run);
    for (KernelRole r : kKernelRoles)
        EXPECT_DOUBLE_EQ(t[0].role_ns[static_cast<std::size_t>(r)], double(rb.steps[0][r]));
}

// Window [0, 1000): GEMM [0, 600) on one stream, all-reduce [400, 800) on another; a
// memcpy [900, 1500) is cut to 100; a kernel starting at -100 is in no window. The
// overlap [400, 600) is shared: GEMM 400 + 100, communication 200 + 100, copy 100;
// busy 900 (the union), idle 100; roles + idle = the window.
TEST(IterationDiff, ConcurrentTimeIsSharedSoPartsSumToTheWindow) {
    Hand h;
    h.iteration(Phase::Decode, 0, 1000);
    h.add(kStream, ActivityKind::Kernel, -100, 50, h.gemm);
    h.add(kStream, ActivityKind::Kernel, 0, 600, h.gemm);
    h.add(kStream2, ActivityKind::Kernel, 400, 800, h.allreduce);
    h.add(kStream, ActivityKind::Memcpy, 900, 1500);
    const WindowTime t = iteration_window_times(h.run)[0];
    EXPECT_DOUBLE_EQ(t.role_ns[static_cast<std::size_t>(KernelRole::Gemm)], 500.0);
    EXPECT_DOUBLE_EQ(t.role_ns[static_cast<std::size_t>(KernelRole::Communication)], 300.0);
    EXPECT_DOUBLE_EQ(t.role_ns[static_cast<std::size_t>(KernelRole::Copy)], 100.0);
    EXPECT_DOUBLE_EQ(t.idle_ns, 100.0);
}

// A: prefill [0, 50 ms); decodes of 10, 20, 30, 40 ms (listed out of time order) and a
// token step (request 5, no batch), which is no iteration.
// B: decodes of 15 and 27 ms and a ProfilerStep-like iteration of 35 ms (counts as
// decode). Decode pairs by index in time: (10, 15), (20, 27), (30, 35); A's 40 is alone.
// P50: A 25, B 27: +2 ms; means 25 and 25.667: +0.667 ms, all of it idle (no GPU work);
// the rest 1.333 ms. U1: pairs x > y: 20>15, 30>15, 30>27, 40>all three = 6 of 12.
TEST(IterationDiff, AlignsByPhaseAndIndexAndTestsTheDurations) {
    Hand a;
    for (std::int64_t start : {300, 100, 200, 400})  // durations 30, 10, 20, 40 ms
        a.iteration(Phase::Decode, start * kMs, start * kMs + start / 10 * kMs);
    a.iteration(Phase::Prefill, 0, 50 * kMs);
    trace::Step token;
    token.request = 5, token.phase = Phase::Decode, token.start_ns = 0, token.end_ns = kMs;
    a.run.steps.push_back(token);
    Hand b;
    b.iteration(Phase::Decode, 100 * kMs, 115 * kMs);
    b.iteration(Phase::Iteration, 300 * kMs, 335 * kMs);
    b.iteration(Phase::Decode, 200 * kMs, 227 * kMs);

    const IterationDiff it = diff_iterations(a.run, b.run);
    ASSERT_EQ(it.phases.size(), 2u);
    const PhaseIterationDiff& prefill = it.phases[0];
    EXPECT_EQ(prefill.phase, Phase::Prefill);
    EXPECT_EQ(prefill.a.steps.size(), 1u);
    EXPECT_TRUE(prefill.b.steps.empty());
    EXPECT_TRUE(prefill.pairs.empty());
    EXPECT_EQ(prefill.sentence, "Only A has prefill iterations (1).");

    const PhaseIterationDiff& d = it.phases[1];
    EXPECT_EQ(d.phase, Phase::Decode);
    EXPECT_EQ(d.a.steps, (std::vector<std::size_t>{1, 2, 0, 3}));
    EXPECT_EQ(d.b.steps, (std::vector<std::size_t>{0, 2, 1}));
    ASSERT_EQ(d.pairs.size(), 3u);
    EXPECT_EQ(d.pairs[1].index, 1u);
    EXPECT_EQ(d.pairs[1].a_ns, 20 * kMs);
    EXPECT_EQ(d.pairs[1].b_ns, 27 * kMs);
    EXPECT_EQ(d.pairs[2].b_ns, 35 * kMs);
    EXPECT_DOUBLE_EQ(d.p50_delta_ns, 2.0 * kMs);
    EXPECT_NEAR(d.mean_delta_ns, 2.0 * kMs / 3.0, 1e-6);
    EXPECT_NEAR(d.rest_ns, 4.0 * kMs / 3.0, 1e-6);
    EXPECT_NEAR(part(d, std::nullopt).delta_ns, 2.0 * kMs / 3.0, 1e-6);
    EXPECT_DOUBLE_EQ(d.test.u1, 6.0);
    EXPECT_FALSE(d.significant);
    EXPECT_EQ(d.sentence,
              "B's decode iterations are 2.0 ms slower (P50); 0.667 ms of it is GPU idle, the "
              "rest 1.3 ms. Not significant (Mann-Whitney p = 1).");
}

// A: 20 ms, GEMM 10 ms, idle 10. B: 12 ms, GEMM 11 ms, idle 1. B is 8 ms faster: 9 ms
// less idle, and its GEMM, 1 ms longer, goes the other way.
TEST(IterationDiff, FasterRunsNameThePartsThatWentTheOtherWayNegative) {
    Hand a, b;
    a.iteration(Phase::Decode, 0, 20 * kMs);
    a.add(kStream, ActivityKind::Kernel, 0, 10 * kMs, a.gemm);
    b.iteration(Phase::Decode, 0, 12 * kMs);
    b.add(kStream, ActivityKind::Kernel, kMs, 12 * kMs, b.gemm);
    const IterationDiff it = diff_iterations(a.run, b.run);
    ASSERT_EQ(it.phases.size(), 1u);
    EXPECT_EQ(it.phases[0].sentence,
              "B's decode iterations are 8.0 ms faster (P50); 9.0 ms of it is GPU idle, "
              "-1.0 ms GEMM.");
}

TEST(IterationDiff, EqualIterationsSayso) {
    const IterationDiff it = diff_iterations(decode_a().run, decode_a().run);
    ASSERT_EQ(it.phases.size(), 1u);
    EXPECT_EQ(it.phases[0].sentence, "B's decode iterations take as long as A's (P50 10.0 ms).");
}

// Decode runs of our own (token steps) have no iterations: no section, in diff_runs too.
TEST(IterationDiff, EmptyUnlessBothRunsHaveIterations) {
    Hand tokens;
    trace::Step s;
    s.request = 1, s.phase = Phase::Decode, s.start_ns = 0, s.end_ns = kMs;
    tokens.run.steps.push_back(s);
    EXPECT_TRUE(diff_iterations(tokens.run, decode_b().run).empty());
    EXPECT_TRUE(diff_iterations(decode_a().run, tokens.run).empty());
    EXPECT_TRUE(diff_runs(tokens.run, decode_b().run).iterations.empty());
    EXPECT_EQ(diff_runs(decode_a().run, decode_b().run).iterations.phases.size(), 1u);
}

TEST(IterationDiff, StopsWhenCancelled) {
    trace::StopSource source;
    source.request_stop();
    EXPECT_THROW(diff_iterations(decode_a().run, decode_b().run, 0.01, source.token()),
                 trace::Cancelled);
}

}  // namespace
}  // namespace tokenscope::analysis
