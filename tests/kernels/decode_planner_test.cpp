#include "kernels/decode_planner.h"

#include <gtest/gtest.h>

#include <numeric>
#include <stdexcept>

namespace tokenscope::kernels {
namespace {

DecodeConfig config(Strategy s, std::int64_t new_tokens = 6) {
    DecodeConfig c;
    c.batch = 2;
    c.prompt_len = 8;
    c.new_tokens = new_tokens;
    c.strategy = s;
    c.beams = 3;
    c.top_k = 10;
    c.draft_layers = 1;
    c.gamma = 3;
    return c;
}

TEST(DecodePlannerTest, KernelCountPerIterationPerStrategy) {
    auto tiny = *find_model_preset("tiny");
    // embedding + 4 blocks * 9 + final norm + LM head + sampler = 40.
    EXPECT_EQ(DecodePlanner(tiny, config(Strategy::Greedy)).iteration(3).kernels.size(), 40u);
    EXPECT_EQ(DecodePlanner(tiny, config(Strategy::TopK)).iteration(0).kernels.size(), 40u);
    // Beam search adds the KV cache reorder gather.
    EXPECT_EQ(DecodePlanner(tiny, config(Strategy::Beam)).iteration(2).kernels.size(), 41u);
    DecodePlanner spec(tiny, config(Strategy::Speculative));
    // Prefill: target 40 + draft prompt pass (embedding + 1 block of 9) = 50.
    EXPECT_EQ(spec.iteration(0).kernels.size(), 50u);
    // 3 draft passes of 1 + 9 + 3 = 13, then the target's 40.
    EXPECT_EQ(spec.iteration(1).kernels.size(), 79u);
    auto llama = *find_model_preset("llama-8b");
    // 1 + 32*9 + 3 = 292.
    EXPECT_EQ(DecodePlanner(llama, config(Strategy::Greedy)).iteration(1).kernels.size(), 292u);
}

TEST(DecodePlannerTest, KernelOrderFollowsTheForwardPass) {
    auto p = DecodePlanner(*find_model_preset("tiny"), config(Strategy::Greedy)).iteration(1);
    const KernelOp block[] = {KernelOp::AttnNorm,  KernelOp::QkvProj, KernelOp::Rope,
                              KernelOp::Attention, KernelOp::OProj,   KernelOp::MlpNorm,
                              KernelOp::MlpGateUp, KernelOp::SiluMul, KernelOp::MlpDown};
    EXPECT_EQ(p.kernels.front().op, KernelOp::Embedding);
    for (int layer = 0; layer < 4; ++layer)
        for (int i = 0; i < 9; ++i) {
            const auto& k = p.kernels[static_cast<std::size_t>(1 + layer * 9 + i)];
            EXPECT_EQ(k.op, block[i]);
            EXPECT_EQ(k.layer, layer);
        }
    EXPECT_EQ(p.kernels[37].op, KernelOp::FinalNorm);
    EXPECT_EQ(p.kernels[38].op, KernelOp::LmHead);
    EXPECT_EQ(p.kernels[39].op, KernelOp::Argmax);
}

TEST(DecodePlannerTest, OneIterationPerTokenWithoutSpeculation) {
    DecodePlanner planner(*find_model_preset("tiny"), config(Strategy::Beam, 6));
    ASSERT_EQ(planner.iteration_count(), 6);
    for (int i = 0; i < 6; ++i) {
        auto p = planner.iteration(i);
        EXPECT_EQ(p.tokens_emitted, 1);
        EXPECT_EQ(p.cached, i == 0 ? 0 : 8 + i - 1);
    }
    EXPECT_THROW(planner.iteration(6), std::out_of_range);
}

TEST(DecodePlannerTest, SpeculativeEmitsExactlyNewTokens) {
    auto tiny = *find_model_preset("tiny");
    auto c = config(Strategy::Speculative, 10);
    c.acceptance = 1.0;  // every draft kept: 1 (prefill) + 4 + 4 + 1 (clamped)
    DecodePlanner all(tiny, c);
    ASSERT_EQ(all.iteration_count(), 4);
    EXPECT_EQ(all.iteration(1).tokens_emitted, 4);
    EXPECT_EQ(all.iteration(1).accepted, 3);
    EXPECT_EQ(all.iteration(2).cached, 8 + 1 + 4 - 1);
    EXPECT_EQ(all.iteration(3).tokens_emitted, 1);
    c.acceptance = 0.0;  // every draft rejected: the target's own token only
    EXPECT_EQ(DecodePlanner(tiny, c).iteration_count(), 10);
    for (double a : {0.3, 0.7, 0.9}) {
        c.acceptance = a;
        for (std::uint64_t seed : {1u, 2u, 3u}) {
            c.seed = seed;
            DecodePlanner p(tiny, c);
            int sum = 0;
            for (int i = 0; i < p.iteration_count(); ++i) sum += p.iteration(i).tokens_emitted;
            EXPECT_EQ(sum, 10) << a << " " << seed;
        }
    }
}

TEST(DecodePlannerTest, DecodeStepBytesByHand) {
    auto tiny = *find_model_preset("tiny");
    DecodeConfig c;
    c.batch = 2;
    // Block weights 2*256 + 256*512 + 256*256 + 2*256*688 + 688*256 = 725,504 elements,
    // times 4 blocks + head 256 + 1024*256 = 3,164,416 elements * 2 B = 6,328,832;
    // KV 2*4 layers*2 kv_heads*64*9 ctx*2 seqs*2 B = 36,864.
    EXPECT_EQ(decode_step_bytes(tiny, c, 9), 6328832u + 36864u);
    c.strategy = Strategy::Beam;
    c.beams = 3;  // 6 sequences
    EXPECT_EQ(decode_step_bytes(tiny, c, 9), 6328832u + 3u * 36864u);
    DecodeConfig one;
    // llama-8b: 7,504,924,672 streamed weights * 2 B + KV 2*32*8*128*1024*2 = 134,217,728.
    EXPECT_EQ(decode_step_bytes(*find_model_preset("llama-8b"), one, 1024),
              15009849344u + 134217728u);
}

TEST(DecodePlannerTest, EveryDecodeIterationReadsAtLeastItsFloorBytes) {
    auto tiny = *find_model_preset("tiny");
    for (auto s : {Strategy::Greedy, Strategy::TopK, Strategy::Beam, Strategy::Speculative}) {
        DecodePlanner planner(tiny, config(s, 12));
        for (int i = 1; i < planner.iteration_count(); ++i) {
            auto p = planner.iteration(i);
            EXPECT_GT(p.floor_bytes, 0u);
            EXPECT_GE(p.total_bytes(), p.floor_bytes) << to_string(s) << " iteration " << i;
        }
        EXPECT_EQ(planner.iteration(0).floor_bytes, 0u);  // prefill uses the roofline instead
    }
}

TEST(DecodePlannerTest, BadConfigThrowsWithTheProblem) {
    auto c = config(Strategy::TopK);
    c.top_k = 0;
    try {
        DecodePlanner(*find_model_preset("tiny"), c);
        FAIL() << "no exception";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("top_k"), std::string::npos);
    }
}

}  // namespace
}  // namespace tokenscope::kernels
