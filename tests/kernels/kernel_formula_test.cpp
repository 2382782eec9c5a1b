// Work counts of single kernels against arithmetic done by hand.
// tiny: layers 4, hidden 256, heads 4, kv_heads 2, head_dim 64, ffn 688, vocab 1024, fp16.
#include <gtest/gtest.h>

#include "kernels/decode_planner.h"

namespace tokenscope::kernels {
namespace {

const KernelSpec& find(const IterationPlan& plan, KernelOp op, int layer = -1) {
    for (const auto& k : plan.kernels)
        if (k.op == op && (layer < 0 || k.layer == layer)) return k;
    throw std::runtime_error("kernel not in plan");
}

void expect_work(const KernelSpec& k, std::uint64_t flops, std::uint64_t rd, std::uint64_t wr) {
    EXPECT_EQ(k.flops, flops) << k.name();
    EXPECT_EQ(k.bytes_read, rd) << k.name();
    EXPECT_EQ(k.bytes_written, wr) << k.name();
}

// Greedy, batch 2, prompt 8: decode iteration 1 has 8 cached positions, context 9, 2 tokens.
IterationPlan tiny_decode() {
    DecodeConfig c;
    c.batch = 2;
    c.prompt_len = 8;
    c.new_tokens = 3;
    return DecodePlanner(*find_model_preset("tiny"), c).iteration(1);
}

TEST(KernelFormulaTest, TinyDecodeBlockKernels) {
    auto p = tiny_decode();
    EXPECT_EQ(p.cached, 8);
    // embedding: ids 2*4 + rows 2*256*2 = 1032 read, 1024 written.
    expect_work(find(p, KernelOp::Embedding), 0, 1032, 1024);
    // RMSNorm: 4*2*256 = 2048 FLOPs; x 1024 + weight 512 read.
    expect_work(find(p, KernelOp::AttnNorm, 0), 2048, 1536, 1024);
    // QKV width (4+2*2)*64 = 512: 2*2*256*512 = 524,288; x 1024 + W 256*512*2 = 263,168.
    expect_work(find(p, KernelOp::QkvProj, 2), 524288, 263168, 2 * 512 * 2);
    // RoPE on q and k: 3*2*(4+2)*64 = 2304; q,k,v pass through: 2*512*2 = 2048.
    expect_work(find(p, KernelOp::Rope, 0), 2304, 2048, 2048);
    // Attention: 2 seqs * (1*8 + 1) = 18 pairs, 4*4*64*18 = 18,432 FLOPs;
    // q 2*256*2 = 1024 + KV 2*2 seqs*9 ctx*(2*64)*2 B = 9216.
    expect_work(find(p, KernelOp::Attention, 3), 18432, 10240, 1024);
    // O: 2*2*256*256 + residual 2*256 = 262,656; in 1024 + W 131,072 + residual 1024.
    expect_work(find(p, KernelOp::OProj, 0), 262656, 133120, 1024);
    expect_work(find(p, KernelOp::MlpNorm, 1), 2048, 1536, 1024);
    // gate+up: 2*2*256*(2*688) = 1,409,024; 1024 + 2*256*688*2 = 705,536; out 2*2*688*2.
    expect_work(find(p, KernelOp::MlpGateUp, 0), 1409024, 705536, 5504);
    // SiLU*mul: 5*2*688 = 6880.
    expect_work(find(p, KernelOp::SiluMul, 0), 6880, 5504, 2752);
    // down: 2*2*688*256 + 512 = 705,024; 2752 + 688*256*2 + 1024 = 356,032.
    expect_work(find(p, KernelOp::MlpDown, 0), 705024, 356032, 1024);
}

TEST(KernelFormulaTest, TinyDecodeHeadKernels) {
    auto p = tiny_decode();
    expect_work(find(p, KernelOp::FinalNorm), 2048, 1536, 1024);
    // LM head: 2*2*256*1024 = 1,048,576; 1024 + 1024*256*2 = 525,312; fp32 logits 2*1024*4.
    expect_work(find(p, KernelOp::LmHead), 1048576, 525312, 8192);
    // argmax: one compare per logit, 2048; two int32 ids out.
    expect_work(find(p, KernelOp::Argmax), 2048, 8192, 8);
    EXPECT_EQ(p.h2d_bytes, 8u);
    EXPECT_EQ(p.d2h_bytes, 8u);
}

TEST(KernelFormulaTest, Llama8bDecodeAtContext1024) {
    DecodeConfig c;
    c.prompt_len = 1024;
    c.new_tokens = 2;
    auto p = DecodePlanner(*find_model_preset("llama-8b"), c).iteration(1);
    ASSERT_EQ(p.cached, 1024);
    // QKV: 2*1*4096*(32+16)*128 = 50,331,648; 4096*2 + 4096*6144*2 = 50,339,840.
    expect_work(find(p, KernelOp::QkvProj, 0), 50331648, 50339840, 12288);
    // Attention at context 1025: 4*32*128*1025 = 16,793,600;
    // q 8192 + KV 2*1025*8*128*2 = 4,198,400.
    expect_work(find(p, KernelOp::Attention, 31), 16793600, 8192 + 4198400, 8192);
    // gate+up: 2*4096*28672 = 234,881,024 FLOPs; 8192 + 234,881,024 bytes.
    expect_work(find(p, KernelOp::MlpGateUp, 5), 234881024, 234889216, 57344);
    // down: 2*14336*4096 + 4096 = 117,444,608; 28672 + 117,440,512 + 8192 = 117,477,376.
    expect_work(find(p, KernelOp::MlpDown, 5), 117444608, 117477376, 8192);
    // LM head: 2*4096*128256 = 1,050,673,152; 8192 + 1,050,673,152; logits 128256*4.
    expect_work(find(p, KernelOp::LmHead), 1050673152, 1050681344, 513024);
}

TEST(KernelFormulaTest, Llama8bPrefillAttentionIsCausal) {
    DecodeConfig c;
    c.prompt_len = 4;
    c.new_tokens = 1;
    auto p = DecodePlanner(*find_model_preset("llama-8b"), c).iteration(0);
    EXPECT_TRUE(p.prefill);
    // Causal pairs 1+2+3+4 = 10: 4*32*128*10 = 163,840; q 4*4096*2 = 32,768 + KV 2*4*1024*2.
    expect_work(find(p, KernelOp::Attention, 0), 163840, 32768 + 16384, 32768);
    // QKV over 4 tokens: 4 * 50,331,648 FLOPs.
    EXPECT_EQ(find(p, KernelOp::QkvProj, 0).flops, 4u * 50331648u);
    // Logits only for the last position: same LM head as one decode row.
    EXPECT_EQ(find(p, KernelOp::LmHead).flops, 1050673152u);
    EXPECT_EQ(p.h2d_bytes, 16u);  // 4 prompt ids
}

TEST(KernelFormulaTest, SamplersOfOtherStrategies) {
    auto tiny = *find_model_preset("tiny");
    DecodeConfig c;
    c.prompt_len = 8;
    c.new_tokens = 2;
    c.strategy = Strategy::TopK;
    c.top_k = 50;
    // One row: 2*1024 + 4*50 = 2248 FLOPs.
    expect_work(find(DecodePlanner(tiny, c).iteration(1), KernelOp::TopKSample), 2248, 4096, 4);
    c.strategy = Strategy::Beam;
    c.beams = 2;
    auto beam = DecodePlanner(tiny, c).iteration(1);
    // 2 beam rows: 5*2*1024 = 10,240; logits 8192 + scores 8; id, parent, score 2*12.
    expect_work(find(beam, KernelOp::BeamTopK), 10240, 8200, 24);
    // Reorder: 2 (K,V) * 4 layers * 2 kv_heads * 64 * 2 beams * 9 positions * 2 B = 36,864.
    expect_work(find(beam, KernelOp::KvReorder), 0, 36864, 36864);
    EXPECT_EQ(beam.d2h_bytes, 24u);
}

TEST(KernelFormulaTest, SpeculativeVerificationPass) {
    DecodeConfig c;
    c.prompt_len = 8;
    c.new_tokens = 4;
    c.strategy = Strategy::Speculative;
    c.draft_layers = 1;
    c.gamma = 3;
    auto p = DecodePlanner(*find_model_preset("tiny"), c).iteration(1);
    ASSERT_EQ(p.cached, 8);
    EXPECT_EQ(p.positions, 4);
    // Verify rows 4: 4*1024 compares; logits 4*1024*4 + 3 drafted ids; 4 ids + count out.
    expect_work(find(p, KernelOp::SpecVerify), 4096, 16396, 20);
    // Verify attention, 4 new positions after 8: 4*8 + 10 = 42 pairs, 4*4*64*42 = 43,008.
    const KernelSpec* verify_attention = nullptr;
    for (const auto& k : p.kernels)
        if (k.op == KernelOp::Attention && !k.draft) verify_attention = &k;
    ASSERT_NE(verify_attention, nullptr);
    EXPECT_EQ(verify_attention->flops, 43008u);
    EXPECT_EQ(find(p, KernelOp::LmHead).name(), "draft_lm_head");
    // Floor: drafts (725,504*1 + 262,400)*2 = 1,975,808 each + KV 512 B * ctx 9, 10, 11;
    // target 6,328,832 + KV 2*4*2*64*12*2 = 24,576.
    EXPECT_EQ(p.floor_bytes, 3u * 1975808u + 512u * (9 + 10 + 11) + 6328832u + 24576u);
}

}  // namespace
}  // namespace tokenscope::kernels
