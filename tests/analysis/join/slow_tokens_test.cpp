#include <gtest/gtest.h>

#include "../../joined_hand_run.h"
#include "analysis/join/slow_tokens.h"

using namespace tokenscope;
using H = test::JoinedHandRun;

TEST(SlowTokens, ItlIsTheGapToTheRequestsPreviousEmission) {
    const auto run = test::joined_hand_run();
    const auto itl = analysis::token_itl_ns(run);
    ASSERT_EQ(itl.size(), run.steps.size());
    EXPECT_EQ(itl[0], -1);                    // an iteration
    EXPECT_EQ(itl[H::token_step(1, 0)], -1);  // a first token
    EXPECT_EQ(itl[H::token_step(1, 1)], H::kNormalNs);
    EXPECT_EQ(itl[H::token_step(3, H::kSlow)], H::kSlowNs);
}

TEST(SlowTokens, SlowestTokensNameThePlantedIteration) {
    const auto run = test::joined_hand_run();
    const auto slow = analysis::slowest_tokens(run, {.count = 5});
    ASSERT_EQ(slow.size(), 5u);
    for (int r = 1; r <= 4; ++r) {
        const auto& t = slow[static_cast<std::size_t>(r - 1)];
        EXPECT_EQ(t.request, r);  // ties keep step order
        EXPECT_EQ(t.index, H::kSlow);
        EXPECT_EQ(t.step, H::token_step(r, H::kSlow));
        EXPECT_EQ(t.itl_ns, H::kSlowNs);
        EXPECT_EQ(t.iteration, H::kSlowNumber);
        EXPECT_EQ(t.iteration_step, H::kSlow);
        EXPECT_EQ(t.batch, (trace::BatchComposition{6, 8192, 4, 4}));
        EXPECT_EQ(t.attribution.end_ns - t.attribution.start_ns, H::kSlowNs);
        EXPECT_EQ(t.attribution.assigned[0], 36 * H::kMs);  // gpu_compute: flash_fwd
        EXPECT_EQ(t.attribution.assigned[1], 6 * H::kMs);   // gpu_memory: rms_norm
        EXPECT_EQ(t.attribution.assigned[5], 18 * H::kMs);  // scheduling: the rest
        EXPECT_EQ(t.dominant(), analysis::Category::GpuCompute);
        EXPECT_DOUBLE_EQ(t.dominant_share(), 0.6);
        ASSERT_EQ(t.kernels.size(), 2u);
        EXPECT_EQ(t.kernels[0].name, H::kFlash);
        EXPECT_EQ(t.kernels[0].ns, 36 * H::kMs);
        EXPECT_EQ(t.kernels[1].name, H::kNorm);
        EXPECT_EQ(t.kernels[1].category, analysis::Category::GpuMemory);
    }
    // The fifth is a normal 10 ms token, of an ordinary decode iteration.
    EXPECT_EQ(slow[4].itl_ns, H::kNormalNs);
    EXPECT_NE(slow[4].iteration, H::kSlowNumber);
    EXPECT_EQ(analysis::describe_slow_token(slow[1]),
              "token 5 of request 2: 60.000 ms; iteration 4707, prefill 6 req 8192 tok, decode 4 "
              "req 4 tok, 60% gpu_compute in flash_fwd_kernel");
}

TEST(SlowTokens, OneRequestsTokensInTokenOrder) {
    const auto run = test::joined_hand_run();
    const auto mine = analysis::slowest_tokens(run, {.request = 3});
    ASSERT_EQ(mine.size(), static_cast<std::size_t>(H::kIterations));
    for (int k = 0; k < H::kIterations; ++k) {
        EXPECT_EQ(mine[static_cast<std::size_t>(k)].index, k);
        EXPECT_EQ(mine[static_cast<std::size_t>(k)].iteration, H::kFirstNumber + k);
    }
    EXPECT_EQ(mine[0].itl_ns, 0);  // the first token has no ITL
}

TEST(SlowTokens, TokenWithoutIterationSaysSo) {
    auto run = test::joined_hand_run();
    // Request 4's last token comes 200 ms after the last iteration: beyond the lag bound.
    auto& last = run.steps[H::token_step(4, H::kIterations - 1)];
    last.end_ns += 200 * H::kMs;
    const auto slow = analysis::slowest_tokens(run, {.count = 1});
    ASSERT_EQ(slow.size(), 1u);
    EXPECT_EQ(slow[0].request, 4);
    EXPECT_EQ(slow[0].iteration_step, -1);
    EXPECT_FALSE(slow[0].has_window());
    EXPECT_TRUE(slow[0].kernels.empty());
    EXPECT_EQ(analysis::describe_slow_token(slow[0]),
              "token 9 of request 4: 210.000 ms; no iteration found");
}

TEST(SlowTokens, DecodeRunWithoutIterationsUsesTheTokensOwnStep) {
    trace::RunData run;
    run.lanes = {{trace::LaneKind::GpuStream, 0, 1, 7, "stream 7"}};
    trace::Activity k;
    k.lane = 0, k.start_ns = 12'000, k.end_ns = 18'000, k.name = run.strings.intern("gemv_split_k");
    run.activities.push_back(k);
    run.steps = {{1, 0, trace::Phase::Prefill, 0, 10'000},
                 {1, 1, trace::Phase::Decode, 10'000, 30'000}};
    const auto slow = analysis::slowest_tokens(run);
    ASSERT_EQ(slow.size(), 1u);
    EXPECT_EQ(slow[0].itl_ns, 20'000);
    EXPECT_EQ(slow[0].window_start_ns, 10'000);
    EXPECT_EQ(slow[0].attribution.assigned[0], 6'000);
    ASSERT_EQ(slow[0].kernels.size(), 1u);
    EXPECT_EQ(slow[0].kernels[0].name, "gemv_split_k");
}

TEST(SlowTokens, KernelsInAnIteration) {
    const auto run = test::joined_hand_run();
    const auto& slow = run.steps[H::kSlow];
    const auto in = analysis::kernels_in(run, slow.start_ns, slow.end_ns);
    ASSERT_EQ(in.size(), 2u);
    EXPECT_EQ(run.activities[in[0]].start_ns, slow.start_ns);
}

TEST(SlowTokens, StopsWhenAsked) {
    const auto run = test::joined_hand_run();
    const auto stop = trace::StopToken::polling([] { return true; });
    EXPECT_THROW(analysis::slowest_tokens(run, {}, stop), trace::Cancelled);
}
