// The reference's math on shapes small enough to work out by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "kernels/cpu/model_weights.h"
#include "kernels/cpu/ops.h"
#include "kernels/cpu/sampling.h"

namespace tokenscope::kernels::cpu {
namespace {

WorkMeter meter(KernelOp op = KernelOp::AttnNorm, std::uint64_t dtype_bytes = 2) {
    return WorkMeter(op, false, 0, dtype_bytes);
}

TEST(CpuOpsTest, RmsNormOfThreeFour) {
    // mean of squares = (9 + 16) / 2 = 12.5
    const float x[] = {3.0f, 4.0f};
    const float w[] = {1.0f, 1.0f};
    float y[2] = {};
    auto m = meter();
    rms_norm(x, w, y, 1, 2, m);
    EXPECT_NEAR(y[0], 3.0 / std::sqrt(12.5 + 1e-5), 1e-6);
    EXPECT_NEAR(y[1], 4.0 / std::sqrt(12.5 + 1e-5), 1e-6);
    EXPECT_NEAR(y[0], 0.848528, 1e-5);               // 3 / 3.5355339
    EXPECT_EQ(m.spec().flops, 8u);                   // 4 per element
    EXPECT_EQ(m.spec().bytes_read, (2u + 2u) * 2u);  // row + weight, fp16
    EXPECT_EQ(m.spec().bytes_written, 2u * 2u);
}

TEST(CpuOpsTest, RmsNormAppliesTheWeightPerElement) {
    const float x[] = {1.0f, -1.0f, 1.0f, -1.0f};  // rms 1
    const float w[] = {2.0f, 0.5f, 1.0f, 0.0f};
    float y[4] = {};
    auto m = meter();
    rms_norm(x, w, y, 1, 4, m);
    const double s = 1.0 / std::sqrt(1.0 + 1e-5);
    EXPECT_NEAR(y[0], 2.0 * s, 1e-6);
    EXPECT_NEAR(y[1], -0.5 * s, 1e-6);
    EXPECT_NEAR(y[2], 1.0 * s, 1e-6);
    EXPECT_EQ(y[3], -0.0f);
}

TEST(CpuOpsTest, RopeAtPositionOneByHand) {
    // head_dim 4: pairs (0, 2) at frequency 1 and (1, 3) at 10000^(-2/4) = 0.01.
    RopeTable table(4, 2);
    float v[] = {1.0f, 2.0f, 3.0f, 4.0f};
    auto m = meter(KernelOp::Rope);
    rope(v, 1, 1, table, m);
    // cos 1 = 0.5403023, sin 1 = 0.8414710; cos .01 = 0.99995, sin .01 = 0.0099998
    EXPECT_NEAR(v[0], 1 * 0.5403023 - 3 * 0.8414710, 1e-5);  // -1.9841107
    EXPECT_NEAR(v[2], 3 * 0.5403023 + 1 * 0.8414710, 1e-5);  // 2.4623779
    EXPECT_NEAR(v[1], 2 * 0.99995 - 4 * 0.0099998, 1e-5);    // 1.9599008
    EXPECT_NEAR(v[3], 4 * 0.99995 + 2 * 0.0099998, 1e-5);    // 4.0197996
    EXPECT_EQ(m.spec().flops, 12u);                          // 3 per rotated element
}

TEST(CpuOpsTest, RopeAtPositionZeroIsIdentity) {
    RopeTable table(4, 1);
    float v[] = {1.0f, 2.0f, 3.0f, 4.0f, -5.0f, 6.0f, 7.0f, 8.0f};
    auto m = meter(KernelOp::Rope);
    rope(v, 2, 0, table, m);
    const float expected[] = {1.0f, 2.0f, 3.0f, 4.0f, -5.0f, 6.0f, 7.0f, 8.0f};
    for (int i = 0; i < 8; ++i) EXPECT_EQ(v[i], expected[i]) << i;
}

TEST(CpuOpsTest, AttentionOverTwoCachedPositionsByHand) {
    // q . k = [1, 0] / sqrt(2); p1 = 1 / (1 + e^(1/sqrt 2)) = 1 / 3.0281150 = 0.3302385
    const float q[] = {1.0f, 0.0f};
    const float keys[] = {1.0f, 0.0f, 0.0f, 1.0f};
    const float values[] = {1.0f, 2.0f, 3.0f, 4.0f};
    float out[2] = {}, scores[2] = {};
    auto m = meter(KernelOp::Attention);
    attend(q, keys, values, 2, 2, out, scores, m);
    EXPECT_NEAR(out[0], 1.0 + 2 * 0.3302385, 1e-6);  // p0 * 1 + p1 * 3
    EXPECT_NEAR(out[1], 2.0 + 2 * 0.3302385, 1e-6);  // p0 * 2 + p1 * 4
    EXPECT_EQ(m.spec().flops, 2u * 4u * 2u);         // 2 pairs, 4 d each
}

TEST(CpuOpsTest, AttentionOverOnePositionReturnsItsValue) {
    const float q[] = {5.0f, -3.0f};
    const float keys[] = {0.25f, 7.0f};
    const float values[] = {-1.5f, 2.5f};
    float out[2] = {}, scores[1] = {};
    auto m = meter(KernelOp::Attention);
    attend(q, keys, values, 1, 2, out, scores, m);
    EXPECT_FLOAT_EQ(out[0], -1.5f);
    EXPECT_FLOAT_EQ(out[1], 2.5f);
}

TEST(CpuOpsTest, MatmulByHandWithAndWithoutResidual) {
    const float x[] = {1.0f, 2.0f};
    const float w[] = {1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f};  // [2][3]
    float y[3] = {1.0f, 1.0f, 1.0f};
    auto m = meter(KernelOp::QkvProj);
    matmul(x, w, y, 1, 2, 3, Epilogue::Store, m);
    EXPECT_EQ(y[0], 9.0f);
    EXPECT_EQ(y[1], 12.0f);
    EXPECT_EQ(y[2], 15.0f);
    EXPECT_EQ(m.spec().flops, 12u);
    EXPECT_EQ(m.spec().bytes_read, (2u + 6u) * 2u);
    EXPECT_EQ(m.spec().bytes_written, 3u * 2u);
    auto r = meter(KernelOp::OProj);
    matmul(x, w, y, 1, 2, 3, Epilogue::AddResidual, r);
    EXPECT_EQ(y[0], 18.0f);
    EXPECT_EQ(y[2], 30.0f);
    EXPECT_EQ(r.spec().flops, 12u + 3u);
    EXPECT_EQ(r.spec().bytes_read, (2u + 6u + 3u) * 2u);
    auto l = meter(KernelOp::LmHead);
    matmul(x, w, y, 1, 2, 3, Epilogue::StoreLogits, l);
    EXPECT_EQ(l.spec().bytes_written, 3u * 4u);  // fp32 logits
}

// The property speculative decoding and prefill rely on: a row's result does not
// depend on how many rows share the call (blocks of 4 rows, tiles of 512 columns).
TEST(CpuOpsTest, MatmulRowsAreBitIdenticalToOneRowCalls) {
    const std::int64_t rows = 7, in = 37, out = 1030;
    std::vector<float> x(rows * in), w(in * out), all(rows * out), one(out);
    for (std::size_t i = 0; i < x.size(); ++i) x[i] = std::sin(static_cast<float>(i) * 0.37f);
    for (std::size_t i = 0; i < w.size(); ++i) w[i] = std::cos(static_cast<float>(i) * 0.11f);
    auto m = meter(KernelOp::MlpGateUp);
    matmul(x.data(), w.data(), all.data(), rows, in, out, Epilogue::Store, m);
    EXPECT_EQ(m.spec().flops, 2u * rows * in * out);
    for (std::int64_t r = 0; r < rows; ++r) {
        auto m1 = meter(KernelOp::MlpGateUp);
        matmul(x.data() + r * in, w.data(), one.data(), 1, in, out, Epilogue::Store, m1);
        EXPECT_EQ(std::memcmp(one.data(), all.data() + r * out, out * sizeof(float)), 0) << r;
    }
    double expected = 0.0;  // spot check one element in double
    for (std::int64_t i = 0; i < in; ++i) expected += double(x[6 * in + i]) * w[i * out + 1029];
    EXPECT_NEAR(all[6 * out + 1029], expected, 1e-4);
}

TEST(CpuOpsTest, SiluMulByHand) {
    const float gate_up[] = {0.0f, 1.0f, 3.0f, 2.0f};  // ffn 2: gates {0, 1}, ups {3, 2}
    float out[2] = {};
    auto m = meter(KernelOp::SiluMul);
    silu_mul(gate_up, out, 1, 2, m);
    EXPECT_EQ(out[0], 0.0f);
    EXPECT_NEAR(out[1], 2.0 / (1.0 + std::exp(-1.0)), 1e-6);  // 1.4621172
    EXPECT_EQ(m.spec().flops, 10u);
}

TEST(CpuOpsTest, ArgmaxTakesTheLowestIndexOnTies) {
    const float a[] = {1.0f, 3.0f, 3.0f, 2.0f};
    EXPECT_EQ(argmax(a, 4), 1);
    const float b[] = {-2.0f, -2.0f, -2.0f};
    EXPECT_EQ(argmax(b, 3), 0);
    const float c[] = {-5.0f, -1.0f, -3.0f, -1.0f};
    EXPECT_EQ(argmax(c, 4), 1);
    auto m = meter(KernelOp::Argmax);
    EXPECT_EQ(argmax_sample(a, 4, m), 1);
    EXPECT_EQ(m.spec().flops, 4u);
    EXPECT_EQ(m.spec().bytes_read, 16u);
    EXPECT_EQ(m.spec().bytes_written, 4u);
}

TEST(CpuOpsTest, TopKSamplesByCumulativeProbability) {
    // Kept: id 1 (e^ln3 = 3) and id 0 (1): probabilities 3/4 then 1/4.
    const float row[] = {0.0f, std::log(3.0f), -10.0f, -20.0f};
    auto m = meter(KernelOp::TopKSample);
    EXPECT_EQ(topk_sample(row, 4, 2, 0.5, m), 1);
    EXPECT_EQ(topk_sample(row, 4, 2, 0.74, m), 1);
    EXPECT_EQ(topk_sample(row, 4, 2, 0.76, m), 0);
    EXPECT_EQ(topk_sample(row, 4, 2, 0.999, m), 0);
    auto one = meter(KernelOp::TopKSample);
    EXPECT_EQ(topk_sample(row, 4, 1, 0.999, one), 1);  // k = 1 is greedy
    EXPECT_EQ(one.spec().flops, 2u * 4u + 4u * 1u);
    const float tie[] = {2.0f, 5.0f, 5.0f, 1.0f};  // k = 1 keeps the lower id
    EXPECT_EQ(topk_sample(tie, 4, 1, 0.3, one), 1);
}

TEST(CpuOpsTest, BeamSelectByHand) {
    // vocab 2. Beam 0 logits {0, 0}: log p = -ln 2 each; beam 1 {ln 3, 0}: -ln(4/3), -ln 4.
    const float logits[] = {0.0f, 0.0f, std::log(3.0f), 0.0f};
    const double scores[] = {-1.0, -0.5};
    auto m = meter(KernelOp::BeamTopK);
    const auto c = beam_select(logits, scores, 2, 2, m);
    ASSERT_EQ(c.size(), 2u);
    EXPECT_EQ(c[0].parent, 1);  // -0.5 - 0.2876821 = -0.7876821
    EXPECT_EQ(c[0].token, 0);
    EXPECT_NEAR(c[0].score, -0.7876821, 1e-6);
    EXPECT_EQ(c[1].parent, 0);  // -1 - 0.6931472, ties broken by the lower token
    EXPECT_EQ(c[1].token, 0);
    EXPECT_NEAR(c[1].score, -1.6931472, 1e-6);
    EXPECT_EQ(m.spec().flops, 5u * 4u);
    EXPECT_EQ(m.spec().bytes_written, 2u * 12u);
}

TEST(CpuOpsTest, BeamSelectNeverExtendsADeadBeam) {
    const float logits[] = {0.0f, -1.0f, 9.0f, 9.0f};
    const double scores[] = {0.0, -std::numeric_limits<double>::infinity()};
    auto m = meter(KernelOp::BeamTopK);
    const auto c = beam_select(logits, scores, 2, 2, m);
    EXPECT_EQ(c[0].parent, 0);
    EXPECT_EQ(c[0].token, 0);
    EXPECT_EQ(c[1].parent, 0);
    EXPECT_EQ(c[1].token, 1);
}

TEST(CpuOpsTest, SpecVerifyKeepsTheAgreeingPrefix) {
    // vocab 3, gamma 3: target argmaxes 2, 0, 1, 1.
    const float logits[] = {0, 0, 1, 1, 0, 0, 0, 1, 0, 0, 1, 0};
    const std::int32_t agree_two[] = {2, 0, 2};
    auto m = meter(KernelOp::SpecVerify);
    auto v = spec_verify(logits, 3, agree_two, 3, m);
    EXPECT_EQ(v.accepted, 2);
    EXPECT_EQ(v.targets, (std::vector<std::int32_t>{2, 0, 1, 1}));
    const std::int32_t all[] = {2, 0, 1};
    EXPECT_EQ(spec_verify(logits, 3, all, 3, m).accepted, 3);
    const std::int32_t none[] = {0, 0, 1};
    EXPECT_EQ(spec_verify(logits, 3, none, 3, m).accepted, 0);
}

TEST(CpuOpsTest, WeightsAreSeededAndExactInHalfPrecision) {
    ModelShape s{"micro", 2, 64, 4, 2, 16, 96, 100, DType::Bf16};
    ModelWeights a(s, 7), b(s, 7), c(s, 8);
    EXPECT_EQ(a.lm_head, b.lm_head);
    EXPECT_NE(a.lm_head, c.lm_head);
    auto check = [](const std::vector<float>& m, double limit) {
        for (float w : m) {
            std::uint32_t bits = 0;
            std::memcpy(&bits, &w, 4);
            ASSERT_EQ(bits & 0xffffu, 0u) << w;  // bf16 keeps the top 16 bits
            ASSERT_LE(std::fabs(w), limit);
        }
    };
    check(a.layers[1].wqkv, 1.0 / 8.0);  // fan_in 64
    check(a.layers[0].w_down, 1.0 / std::sqrt(96.0));
    check(a.lm_head, 1.0 / 8.0);
    check(a.final_norm, 1.0 + 15.0 / 128.0);
    EXPECT_THROW(ModelWeights(ModelShape{"bad", 1, 64, 3, 2, 16, 96, 100, DType::Bf16}, 1),
                 std::invalid_argument);
}

}  // namespace
}  // namespace tokenscope::kernels::cpu
