// The FLOPs and bytes the reference counts while it runs equal the planner's, kernel
// by kernel, for the prefill and the decode iterations of every strategy.
#include <gtest/gtest.h>

#include "kernels/cpu/reference_decoder.h"
#include "kernels/decode_planner.h"
#include "kernels/pass_builder.h"

namespace tokenscope::kernels::cpu {
namespace {

DecodeConfig config_for(Strategy s) {
    DecodeConfig c;
    c.batch = 2;
    c.prompt_len = 9;
    c.new_tokens = 7;
    c.strategy = s;
    c.top_k = 5;
    c.beams = 3;
    c.gamma = 3;
    c.seed = 11;
    return c;
}

std::string describe(const KernelSpec& k) {
    return std::string(k.name()) + " layer " + std::to_string(k.layer) + ": flops " +
           std::to_string(k.flops) + ", read " + std::to_string(k.bytes_read) + ", written " +
           std::to_string(k.bytes_written);
}

void expect_same_kernels(const std::vector<KernelSpec>& counted,
                         const std::vector<KernelSpec>& planned, const std::string& where) {
    ASSERT_EQ(counted.size(), planned.size()) << where;
    for (std::size_t i = 0; i < counted.size(); ++i)
        EXPECT_EQ(counted[i], planned[i])
            << where << " kernel " << i << "\n  counted " << describe(counted[i]) << "\n  planned "
            << describe(planned[i]);
}

// Every iteration of a run whose schedule is the planner's (all but speculative
// decoding with a draft that can disagree).
void expect_run_matches_planner(const ModelShape& shape, const DecodeConfig& config) {
    const ModelWeights weights(shape, config.seed);
    ReferenceDecoder decoder(weights, config);
    const DecodePlanner planner(shape, config);
    std::int32_t i = 0;
    while (!decoder.done()) {
        ASSERT_LT(i, planner.iteration_count());
        const auto result = decoder.step();
        const auto plan = planner.iteration(i);
        const std::string where = shape.name + " " + std::string(to_string(config.strategy)) +
                                  " iteration " + std::to_string(i);
        EXPECT_EQ(result.cached, plan.cached) << where;
        EXPECT_EQ(result.positions, plan.positions) << where;
        EXPECT_EQ(result.tokens_emitted, plan.tokens_emitted) << where;
        expect_same_kernels(decoder.last_kernels(), plan.kernels, where);
        ++i;
    }
    EXPECT_EQ(i, planner.iteration_count());
}

TEST(CpuWorkCountTest, TinyMatchesThePlannerForEveryStrategy) {
    const ModelShape tiny = *find_model_preset("tiny");
    for (auto s : {Strategy::Greedy, Strategy::TopK, Strategy::Beam}) {
        expect_run_matches_planner(tiny, config_for(s));
    }
}

// With the whole model as its draft the draft is the target, so every draft is kept:
// the planner's schedule at acceptance 1 is exactly what runs.
TEST(CpuWorkCountTest, TinySpeculativeWithFullDraftMatchesThePlanner) {
    const ModelShape tiny = *find_model_preset("tiny");
    auto c = config_for(Strategy::Speculative);
    c.draft_layers = tiny.layers;
    c.acceptance = 1.0;
    c.new_tokens = 12;  // 1 + 4 + 4 + 3: the last iteration is clamped
    expect_run_matches_planner(tiny, c);
}

// Odd widths, fp32 (literal byte counts), one KV head for four query heads.
TEST(CpuWorkCountTest, OddFp32ShapeMatchesThePlanner) {
    const ModelShape odd{"odd", 3, 40, 4, 1, 10, 52, 77, DType::Fp32};
    for (auto s : {Strategy::Greedy, Strategy::TopK, Strategy::Beam})
        expect_run_matches_planner(odd, config_for(s));
}

// A one-block draft disagrees sometimes, so the schedule is the reference's own; each
// iteration still runs exactly the passes the planner's formulas describe for it.
TEST(CpuWorkCountTest, SpeculativeWithPartialDraftMatchesPassBuilder) {
    const ModelShape tiny = *find_model_preset("tiny");
    auto c = config_for(Strategy::Speculative);
    c.draft_layers = 1;
    c.new_tokens = 16;
    const ModelWeights weights(tiny, c.seed);
    ReferenceDecoder decoder(weights, c);
    const PassBuilder builder(tiny);
    decoder.step();  // the prefill is covered by the planner comparisons
    std::int32_t rejected = 0;
    while (!decoder.done()) {
        const auto r = decoder.step();
        std::vector<KernelSpec> expected;
        for (std::int64_t j = 0; j < c.gamma; ++j)
            builder.append(
                {c.draft_layers, true, c.batch, r.cached + j, 1, 1, Sampler::Argmax, 1, 0, false},
                expected);
        builder.append({tiny.layers, false, c.batch, r.cached, c.gamma + 1, c.gamma + 1,
                        Sampler::SpecVerify, 1, c.gamma, false},
                       expected);
        expect_same_kernels(decoder.last_kernels(), expected,
                            "speculative iteration " + std::to_string(r.index));
        if (r.accepted < c.gamma) ++rejected;
    }
    EXPECT_EQ(decoder.tokens_generated(), c.new_tokens);
    EXPECT_GT(rejected, 0) << "a one-block draft should disagree with four blocks sometimes";
}

}  // namespace
}  // namespace tokenscope::kernels::cpu
