// Whole-run properties of the reference decoder.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "kernels/cpu/cpu_generate.h"
#include "kernels/cpu/forward_pass.h"
#include "kernels/cpu/reference_decoder.h"

namespace tokenscope::kernels::cpu {
namespace {

ModelShape tiny() {
    return *find_model_preset("tiny");
}

DecodeConfig greedy(std::uint64_t seed = 3) {
    DecodeConfig c;
    c.batch = 2;
    c.prompt_len = 12;
    c.new_tokens = 16;
    c.seed = seed;
    return c;
}

TEST(CpuDecodingTest, GreedyIsDeterministicPerSeed) {
    const auto a = cpu_generate(tiny(), greedy(3));
    const auto b = cpu_generate(tiny(), greedy(3));
    const auto c = cpu_generate(tiny(), greedy(4));
    ASSERT_EQ(a.tokens.size(), 2u);
    for (const auto& t : a.tokens) {
        ASSERT_EQ(t.size(), 16u);
        for (auto id : t) {
            EXPECT_GE(id, 0);
            EXPECT_LT(id, 1024);
        }
    }
    EXPECT_EQ(a.tokens, b.tokens);
    EXPECT_EQ(a.last_logits, b.last_logits);
    EXPECT_NE(a.tokens, c.tokens);
    EXPECT_NE(a.prompts, c.prompts);
    EXPECT_EQ(a.iterations, 16);
}

TEST(CpuDecodingTest, LogitsAreFiniteAndPickTheTokens) {
    const auto r = cpu_generate(tiny(), greedy());
    for (std::size_t q = 0; q < 2; ++q) {
        ASSERT_EQ(r.last_logits[q].size(), 1024u);
        for (float v : r.last_logits[q]) ASSERT_TRUE(std::isfinite(v));
        auto argmax_of = [](const std::vector<float>& v) {
            return static_cast<std::int32_t>(std::max_element(v.begin(), v.end()) - v.begin());
        };
        EXPECT_EQ(argmax_of(r.first_logits[q]), r.tokens[q].front());
        EXPECT_EQ(argmax_of(r.last_logits[q]), r.tokens[q].back());
    }
}

// Sequences never see each other: request 0 decodes the same alone or in a batch.
TEST(CpuDecodingTest, BatchRowsAreIndependent) {
    auto one = greedy();
    one.batch = 1;
    const auto alone = cpu_generate(tiny(), one);
    const auto batched = cpu_generate(tiny(), greedy());
    EXPECT_EQ(alone.prompts[0], batched.prompts[0]);
    EXPECT_EQ(alone.tokens[0], batched.tokens[0]);
    EXPECT_EQ(alone.last_logits[0], batched.last_logits[0]);
}

TEST(CpuDecodingTest, OneBeamIsGreedy) {
    auto beam = greedy();
    beam.strategy = Strategy::Beam;
    beam.beams = 1;
    EXPECT_EQ(cpu_generate(tiny(), beam).tokens, cpu_generate(tiny(), greedy()).tokens);
}

double log_softmax_at(const float* row, std::int64_t n, std::int32_t id) {
    double top = row[0], sum = 0.0;
    for (std::int64_t i = 1; i < n; ++i) top = std::max(top, double(row[i]));
    for (std::int64_t i = 0; i < n; ++i) sum += std::exp(double(row[i]) - top);
    return double(row[id]) - top - std::log(sum);
}

TEST(CpuDecodingTest, PrefillBeamsAreTheTopFirstTokens) {
    auto beam = greedy();
    beam.strategy = Strategy::Beam;
    beam.beams = 3;
    const ModelWeights w(tiny(), beam.seed);
    ReferenceDecoder d(w, beam);
    d.step();
    const std::vector<float> first = d.first_logits()[1];
    std::vector<std::int32_t> order(first.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<std::int32_t>(i);
    std::sort(order.begin(), order.end(), [&](auto a, auto b) { return first[a] > first[b]; });
    for (std::size_t b = 0; b < 3; ++b) {  // request 1's beams are sequences 3..5
        EXPECT_EQ(d.sequences()[3 + b], std::vector<std::int32_t>{order[b]}) << b;
        EXPECT_NEAR(d.beam_scores()[3 + b], log_softmax_at(first.data(), 1024, order[b]), 1e-9);
    }
}

// The best beam's score must be what a fresh pass over prompt + its tokens gives:
// were the KV cache not following the beams, its logits would come from another history.
TEST(CpuDecodingTest, BeamScoreMatchesATeacherForcedPass) {
    auto beam = greedy();
    beam.strategy = Strategy::Beam;
    beam.beams = 3;
    const ModelShape shape = tiny();
    const ModelWeights w(shape, beam.seed);
    ReferenceDecoder d(w, beam);
    while (!d.done()) d.step();
    const auto best = d.tokens()[0];
    ASSERT_EQ(best.size(), 16u);
    for (std::size_t r = 0; r < 2; ++r)
        for (std::size_t b = 1; b < 3; ++b)
            EXPECT_GE(d.beam_scores()[r * 3], d.beam_scores()[r * 3 + b]);
    std::vector<std::int32_t> tokens = d.prompts()[0];
    tokens.insert(tokens.end(), best.begin(), best.end() - 1);
    const std::int64_t n = static_cast<std::int64_t>(tokens.size());
    RopeTable rope(shape.head_dim, n);
    KvCache cache(shape.layers, 1, shape.kv_heads, shape.head_dim, n);
    ForwardPass pass(w, rope, cache);
    std::vector<KernelSpec> log;
    KernelRunner runner(2, nullptr, log);
    const auto& logits = pass.run(
        PassSpec{shape.layers, false, 1, 0, n, 16, Sampler::None, 1, 0, false}, tokens, runner);
    double score = 0.0;
    for (std::int64_t i = 0; i < 16; ++i)
        score += log_softmax_at(logits.data() + i * 1024, 1024, best[static_cast<std::size_t>(i)]);
    EXPECT_NEAR(score, d.beam_scores()[0], 1e-6);
    EXPECT_NE(d.sequences()[0], d.sequences()[1]);
}

TEST(CpuDecodingTest, TopKOfOneIsGreedyAndTopKIsSeeded) {
    auto k1 = greedy();
    k1.strategy = Strategy::TopK;
    k1.top_k = 1;
    EXPECT_EQ(cpu_generate(tiny(), k1).tokens, cpu_generate(tiny(), greedy()).tokens);
    auto k = k1;
    k.top_k = 50;
    const auto a = cpu_generate(tiny(), k);
    EXPECT_EQ(a.tokens, cpu_generate(tiny(), k).tokens);
    EXPECT_NE(a.tokens, cpu_generate(tiny(), greedy()).tokens);
}

TEST(CpuDecodingTest, FullDraftAcceptsEveryTokenAndEqualsGreedy) {
    auto spec = greedy();
    spec.strategy = Strategy::Speculative;
    spec.draft_layers = tiny().layers;
    spec.gamma = 4;
    const ModelWeights w(tiny(), spec.seed);
    ReferenceDecoder d(w, spec);
    d.step();
    while (!d.done()) {
        const auto r = d.step();
        EXPECT_EQ(r.accepted, 4) << "iteration " << r.index;
    }
    EXPECT_EQ(d.tokens(), cpu_generate(tiny(), greedy()).tokens);
}

// Every kept token is the target's greedy choice, whatever the draft proposes.
TEST(CpuDecodingTest, PartialDraftStillEqualsGreedy) {
    auto spec = greedy();
    spec.strategy = Strategy::Speculative;
    spec.draft_layers = 1;
    spec.gamma = 3;
    const auto r = cpu_generate(tiny(), spec);
    EXPECT_EQ(r.tokens, cpu_generate(tiny(), greedy()).tokens);
    EXPECT_LT(r.iterations, 16);  // some drafts were kept
}

TEST(CpuDecodingTest, BadConfigIsRefusedWithTheProblem) {
    const ModelWeights w(tiny(), 1);
    auto c = greedy();
    c.batch = 0;
    try {
        ReferenceDecoder d(w, c);
        FAIL() << "batch 0 accepted";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("batch"), std::string::npos) << e.what();
    }
    ReferenceDecoder d(w, greedy());
    while (!d.done()) d.step();
    EXPECT_THROW(d.step(), std::logic_error);
}

}  // namespace
}  // namespace tokenscope::kernels::cpu
