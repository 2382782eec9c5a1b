#include "kernels/model_shape.h"

#include <gtest/gtest.h>

#include "kernels/decode_config.h"

namespace tokenscope::kernels {
namespace {

TEST(ModelShapeTest, PresetsHaveThePublishedShapes) {
    auto m = find_model_preset("LLaMA-8B");  // case-insensitive
    ASSERT_TRUE(m.has_value());
    EXPECT_EQ(m->layers, 32);
    EXPECT_EQ(m->hidden, 4096);
    EXPECT_EQ(m->heads, 32);
    EXPECT_EQ(m->kv_heads, 8);
    EXPECT_EQ(m->head_dim, 128);
    EXPECT_EQ(m->ffn, 14336);
    EXPECT_EQ(m->vocab, 128256);
    EXPECT_EQ(m->dtype_bytes(), 2u);
    auto seventy = find_model_preset("llama-70b");
    ASSERT_TRUE(seventy.has_value());
    EXPECT_EQ(seventy->layers, 80);
    EXPECT_EQ(seventy->ffn, 28672);
    auto tiny = find_model_preset("tiny");
    ASSERT_TRUE(tiny.has_value());
    EXPECT_EQ(tiny->dtype, DType::Fp16);
    EXPECT_FALSE(find_model_preset("llama-9b").has_value());
    EXPECT_EQ(model_preset_names().size(), 4u);
}

TEST(ModelShapeTest, Llama8bParameterCountMatchesTheModelCard) {
    auto m = *find_model_preset("llama-8b");
    // Per block: norms 2*4096 = 8192; QKV 4096*(32+2*8)*128 = 25,165,824;
    // O 4096*4096 = 16,777,216; gate+up 2*4096*14336 = 117,440,512;
    // down 14336*4096 = 58,720,256; sum 218,112,000.
    EXPECT_EQ(m.layer_weight_elements(), 218112000u);
    // Final norm 4096 + LM head 128256*4096 = 525,336,576.
    EXPECT_EQ(m.head_weight_elements(), 525340672u);
    // 32*218,112,000 + 525,340,672 + embedding 525,336,576: Llama 3 8B's 8,030,261,248.
    EXPECT_EQ(m.parameter_count(), 8030261248u);
}

TEST(ModelShapeTest, ValidateNamesTheBadField) {
    auto m = *find_model_preset("tiny");
    EXPECT_EQ(m.validate(), "");
    m.kv_heads = 3;
    EXPECT_NE(m.validate().find("kv_heads"), std::string::npos);
    m = *find_model_preset("tiny");
    m.hidden = 0;
    EXPECT_NE(m.validate().find("hidden"), std::string::npos);
}

TEST(ModelShapeTest, DtypeNamesRoundTrip) {
    EXPECT_EQ(bytes_per_element(DType::Fp32), 4u);
    EXPECT_EQ(bytes_per_element(DType::Bf16), 2u);
    EXPECT_EQ(dtype_from_string("BF16"), DType::Bf16);
    EXPECT_FALSE(dtype_from_string("fp8").has_value());
}

TEST(DecodeConfigTest, ValidateRejectsBadFields) {
    auto tiny = *find_model_preset("tiny");
    DecodeConfig c;
    EXPECT_EQ(c.validate(tiny), "");
    c.batch = 0;
    EXPECT_NE(c.validate(tiny).find("batch"), std::string::npos);
    c = DecodeConfig{};
    c.strategy = Strategy::TopK;
    c.top_k = 5000;  // vocab is 1024
    EXPECT_NE(c.validate(tiny).find("top_k"), std::string::npos);
    c = DecodeConfig{};
    c.strategy = Strategy::Speculative;
    c.draft_layers = 5;  // tiny has 4 layers
    EXPECT_NE(c.validate(tiny).find("draft_layers"), std::string::npos);
    c.draft_layers = 1;
    c.acceptance = 1.5;
    EXPECT_NE(c.validate(tiny).find("acceptance"), std::string::npos);
    c = DecodeConfig{};
    c.prompt_len = 200000;
    EXPECT_NE(c.validate(tiny).find("context"), std::string::npos);
    EXPECT_EQ(strategy_from_string("Beam"), Strategy::Beam);
    EXPECT_FALSE(strategy_from_string("nucleus").has_value());
}

}  // namespace
}  // namespace tokenscope::kernels
