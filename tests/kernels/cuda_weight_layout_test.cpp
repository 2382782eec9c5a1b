// The GPU fills its weights in parallel from draw offsets; these must reproduce the
// CPU reference's sequential stream exactly, or greedy tokens could never match.
#include <gtest/gtest.h>

#if defined(TOKENSCOPE_HAVE_CUDA_KERNELS)
#include "kernels/cpu/model_weights.h"
#include "kernels/cuda/counter_draw.h"
#include "kernels/cuda/cuda_decode_runner.h"
#include "kernels/cuda/weight_layout.h"
#include "kernels/rng.h"

namespace tokenscope::kernels::cuda {
namespace {

std::vector<float> generate(const TensorDraws& t, std::uint64_t seed) {
    std::vector<float> v(t.elements());
    for (std::uint64_t i = 0; i < t.elements(); ++i)
        v[i] = weight_from_draw(splitmix_draw(seed, t.first_draw + i), t.kind, t.step);
    return v;
}

TEST(CudaWeightLayout, DrawNMatchesTheSequentialGenerator) {
    Rng rng(42);
    for (std::uint64_t n = 0; n < 1000; ++n) ASSERT_EQ(splitmix_draw(42, n), rng.next()) << n;
}

TEST(CudaWeightLayout, EveryTensorEqualsTheCpuReference) {
    ModelShape shape = *find_model_preset("tiny");
    shape.vocab = 300;  // keeps the test fast; offsets still cross every tensor
    const std::uint64_t seed = 7;
    const cpu::ModelWeights ref(shape, seed);
    const WeightLayout layout(shape);
    EXPECT_EQ(layout.total_draws(), shape.parameter_count());
    EXPECT_EQ(generate(layout.find(WeightTensor::Embedding), seed), ref.embedding);
    for (std::int32_t l = 0; l < shape.layers; ++l) {
        const auto& w = ref.layers[static_cast<std::size_t>(l)];
        EXPECT_EQ(generate(layout.find(WeightTensor::AttnNorm, l), seed), w.attn_norm) << l;
        EXPECT_EQ(generate(layout.find(WeightTensor::Qkv, l), seed), w.wqkv) << l;
        EXPECT_EQ(generate(layout.find(WeightTensor::O, l), seed), w.wo) << l;
        EXPECT_EQ(generate(layout.find(WeightTensor::MlpNorm, l), seed), w.mlp_norm) << l;
        EXPECT_EQ(generate(layout.find(WeightTensor::GateUp, l), seed), w.w_gate_up) << l;
        EXPECT_EQ(generate(layout.find(WeightTensor::Down, l), seed), w.w_down) << l;
    }
    EXPECT_EQ(generate(layout.find(WeightTensor::FinalNorm), seed), ref.final_norm);
    EXPECT_EQ(generate(layout.find(WeightTensor::LmHead), seed), ref.lm_head);
}

TEST(CudaWeightLayout, MatrixStepIsThePowerOfTwoBelowTheFanInLimit) {
    // 1/sqrt(256) = 1/16; 127 * 2^-11 = 0.062 <= 0.0625 < 127 * 2^-10.
    EXPECT_EQ(WeightLayout::matrix_step(256), 1.0f / 2048.0f);
    // 1/sqrt(688) = 0.0381; 127 * 2^-12 = 0.031 <= 0.0381 < 127 * 2^-11 = 0.062.
    EXPECT_EQ(WeightLayout::matrix_step(688), 1.0f / 4096.0f);
}

TEST(CudaWeightLayout, OffsetsFollowTheDrawOrder) {
    const ModelShape shape = *find_model_preset("tiny");  // 4 layers, hidden 256, vocab 1024
    const WeightLayout layout(shape);
    EXPECT_EQ(layout.find(WeightTensor::AttnNorm, 0).first_draw, 1024u * 256u);
    EXPECT_EQ(layout.find(WeightTensor::Qkv, 0).first_draw, 1024u * 256u + 256u);
    // qkv width (4 + 2 * 2) * 64 = 512 columns.
    EXPECT_EQ(layout.find(WeightTensor::Qkv, 0).cols, 512u);
    EXPECT_THROW(layout.find(WeightTensor::Qkv, 4), std::out_of_range);
}

TEST(CudaWeightLayout, DefaultPromptsFollowThePromptStream) {
    const ModelShape shape = *find_model_preset("tiny");
    DecodeConfig config;
    config.batch = 2;
    config.prompt_len = 3;
    config.seed = 9;
    const auto prompts = CudaDecodeRunner::default_prompts(shape, config);
    Rng rng(9 ^ 0x9e0a7b1c2d3e4f50ull);  // kernels/cpu/reference_decoder.h's kPromptStream
    ASSERT_EQ(prompts.size(), 2u);
    for (const auto& row : prompts) {
        ASSERT_EQ(row.size(), 3u);
        for (auto id : row) EXPECT_EQ(id, static_cast<std::int32_t>(rng.next() % 1024));
    }
}

}  // namespace
}  // namespace tokenscope::kernels::cuda
#else
TEST(CudaWeightLayout, NotBuilt) {
    GTEST_SKIP() << "built without the CUDA kernels";
}
#endif
