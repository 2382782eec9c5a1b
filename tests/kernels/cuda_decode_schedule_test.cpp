#include <gtest/gtest.h>

#if defined(TOKENSCOPE_HAVE_CUDA_KERNELS)
#include "kernels/cuda/decode_schedule.h"
#include "kernels/decode_planner.h"

namespace tokenscope::kernels::cuda {
namespace {

DecodeConfig small(Strategy s) {
    DecodeConfig c;
    c.batch = 2;
    c.prompt_len = 8;
    c.new_tokens = 5;
    c.strategy = s;
    c.top_k = 3;
    c.beams = 2;
    c.draft_layers = 1;
    c.gamma = 2;
    return c;
}

void expect_same_plan(const IterationPlan& a, const IterationPlan& b) {
    EXPECT_EQ(a.index, b.index);
    EXPECT_EQ(a.prefill, b.prefill);
    EXPECT_EQ(a.cached, b.cached);
    EXPECT_EQ(a.positions, b.positions);
    EXPECT_EQ(a.tokens_emitted, b.tokens_emitted);
    EXPECT_EQ(a.h2d_bytes, b.h2d_bytes);
    EXPECT_EQ(a.d2h_bytes, b.d2h_bytes);
    EXPECT_EQ(a.floor_bytes, b.floor_bytes);
    EXPECT_EQ(a.kernels, b.kernels);
}

class CudaScheduleEqualsPlanner : public ::testing::TestWithParam<Strategy> {};

// Without speculation nothing is random, so the runner's plans are the planner's.
TEST_P(CudaScheduleEqualsPlanner, EveryIteration) {
    const ModelShape shape = *find_model_preset("tiny");
    const DecodeConfig config = small(GetParam());
    const DecodePlanner planner(shape, config);
    const DecodeSchedule schedule(shape, config);
    ASSERT_EQ(planner.iteration_count(), 5);
    expect_same_plan(schedule.prefill().plan, planner.iteration(0));
    for (std::int32_t i = 1; i < planner.iteration_count(); ++i) {
        const std::int64_t generated = i;  // one token per iteration
        expect_same_plan(schedule.decode(i, config.prompt_len + generated - 1, generated).plan,
                         planner.iteration(i));
    }
}

INSTANTIATE_TEST_SUITE_P(Strategies, CudaScheduleEqualsPlanner,
                         ::testing::Values(Strategy::Greedy, Strategy::TopK, Strategy::Beam));

TEST(CudaDecodeSchedule, SpeculativeLaunchesTheSpecsKernels) {
    const ModelShape shape = *find_model_preset("tiny");  // 4 layers
    const DecodeConfig config = small(Strategy::Speculative);
    const DecodeSchedule schedule(shape, config);
    const ScheduledIteration it = schedule.decode(1, 8, 1);
    // Two draft passes of embedding + 1 layer (9 kernels) + norm, head, argmax = 13 each;
    // the verification: embedding + 4 * 9 + norm, head, spec_verify = 40.
    ASSERT_EQ(it.plan.kernels.size(), 66u);
    EXPECT_EQ(it.plan.kernels[0].name(), "draft_embedding");
    EXPECT_EQ(it.plan.kernels[12].name(), "draft_argmax");
    EXPECT_EQ(it.plan.kernels[26].name(), "embedding");
    EXPECT_EQ(it.plan.kernels[65].name(), "spec_verify");
    ASSERT_EQ(it.passes.size(), 3u);
    EXPECT_EQ(it.passes[1].cached, 9);  // draft pass j sits at cached + j
    EXPECT_EQ(it.passes[2].positions, 3);
    EXPECT_EQ(it.plan.d2h_bytes, 2u * 3u * 4u + 2u * 4u);  // ids of 3 rows + accepted
    // The planner's decode iterations list the same kernels, whatever it drew.
    const DecodePlanner planner(shape, config);
    const IterationPlan modelled = planner.iteration(1);
    ASSERT_EQ(modelled.kernels.size(), it.plan.kernels.size());
    for (std::size_t k = 0; k < modelled.kernels.size(); ++k)
        EXPECT_EQ(modelled.kernels[k].name(), it.plan.kernels[k].name()) << k;
}

TEST(CudaDecodeSchedule, LockstepKeepsTheFewestAcceptedDrafts) {
    const std::vector<std::int32_t> accepted{3, 1, 2};
    EXPECT_EQ(DecodeSchedule::lockstep_accepted(accepted), 1);
    EXPECT_EQ(DecodeSchedule::lockstep_accepted({}), 0);
    EXPECT_EQ(DecodeSchedule::tokens_to_emit(1, 10), 2);  // the drafts kept + the target's
    EXPECT_EQ(DecodeSchedule::tokens_to_emit(4, 3), 3);   // never past new_tokens
}

TEST(CudaDecodeSchedule, CacheHoldsPromptTokensAndLookahead) {
    const ModelShape shape = *find_model_preset("tiny");
    EXPECT_EQ(DecodeSchedule(shape, small(Strategy::Greedy)).cache_capacity(), 13);
    EXPECT_EQ(DecodeSchedule(shape, small(Strategy::Speculative)).cache_capacity(), 15);
}

TEST(CudaDecodeSchedule, RejectsABadConfigNamingTheField) {
    DecodeConfig c = small(Strategy::TopK);
    c.top_k = 0;
    try {
        DecodeSchedule(*find_model_preset("tiny"), c);
        FAIL() << "no exception";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("top_k"), std::string::npos) << e.what();
    }
}

}  // namespace
}  // namespace tokenscope::kernels::cuda
#else
TEST(CudaDecodeSchedule, NotBuilt) {
    GTEST_SKIP() << "built without the CUDA kernels";
}
#endif
