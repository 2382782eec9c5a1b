// How the decode attention splits its keys and which shapes take the vectorised
// kernel (kernels/cuda/attention_plan.h): host-side, no GPU needed.
#include <gtest/gtest.h>

#if defined(TOKENSCOPE_HAVE_CUDA_KERNELS)
#include "kernels/cuda/attention_plan.h"
#include "kernels/cuda/cuda_decode_runner.h"
#include "kernels/model_shape.h"

namespace tokenscope::kernels::cuda {
namespace {

TEST(CudaAttentionPlan, SplitsFillTheGpuWithEnoughKeysEach) {
    // llama-1b at batch 8: 64 (sequence, KV head) pairs; 132 SMs want 264 blocks: 5 splits,
    // and 576 keys allow ceil(576 / 128) = 5.
    EXPECT_EQ(decode_attention_splits(8, 8, 576, 132), 5);
    // Batch 1: 8 pairs would take 33 splits, the cap is 16; short contexts take fewer.
    EXPECT_EQ(decode_attention_splits(1, 8, 4096, 132), kMaxAttentionSplits);
    EXPECT_EQ(decode_attention_splits(1, 8, 300, 132), 3);
    EXPECT_EQ(decode_attention_splits(1, 8, 1, 132), 1);
    // A large batch fills the GPU alone.
    EXPECT_EQ(decode_attention_splits(64, 8, 4096, 132), 1);
    EXPECT_EQ(decode_attention_splits(0, 0, 100, 0), 1);  // degenerate input stays usable
}

TEST(CudaAttentionPlan, TheVectorisedKernelTakesDecodeOf16BitGroupedHeads) {
    const ModelShape l8 = *find_model_preset("llama-8b"), l1 = *find_model_preset("llama-1b"),
                     tiny = *find_model_preset("tiny");
    for (const ModelShape& s : {l8, l1, tiny})
        EXPECT_TRUE(decode_attention_vectorised(s.dtype, 1, s.heads, s.kv_heads, s.head_dim))
            << s.name;
    EXPECT_FALSE(decode_attention_vectorised(DType::Bf16, 512, 32, 8, 128));  // prefill
    EXPECT_FALSE(decode_attention_vectorised(DType::Bf16, 5, 32, 8, 128));    // verification
    EXPECT_FALSE(decode_attention_vectorised(DType::Fp32, 1, 32, 8, 128));
    EXPECT_FALSE(decode_attention_vectorised(DType::Bf16, 1, 32, 8, 96));   // 12 lanes a key
    EXPECT_FALSE(decode_attention_vectorised(DType::Bf16, 1, 32, 2, 128));  // 16 heads a group
    EXPECT_FALSE(decode_attention_vectorised(DType::Bf16, 1, 32, 8, 20));
}

TEST(CudaAttentionPlan, PrefillOf16BitHeadsOf64Or128RunsOnTensorCores) {
    EXPECT_TRUE(prefill_attention_tensor_cores(DType::Bf16, 512, 64));   // llama-1b
    EXPECT_TRUE(prefill_attention_tensor_cores(DType::Bf16, 512, 128));  // llama-8b
    EXPECT_TRUE(prefill_attention_tensor_cores(DType::Fp16, 5, 64));     // verification
    EXPECT_FALSE(prefill_attention_tensor_cores(DType::Bf16, 1, 64));    // decode
    EXPECT_FALSE(prefill_attention_tensor_cores(DType::Fp32, 512, 64));
    EXPECT_FALSE(prefill_attention_tensor_cores(DType::Bf16, 512, 96));
    // K and V tiles of 64 keys, rows padded by 8 (2 x 64 x (d + 8) x 2 bytes), and per
    // warp 16 rows of an fp32 scratch of 68 columns, P in two parts of 72 and fp32 output
    // rows of d + 4.
    EXPECT_EQ(prefill_attention_shared_bytes(64), 18432 + 4 * (4352 + 4608 + 4352));
    EXPECT_EQ(prefill_attention_shared_bytes(128), 34816 + 4 * (4352 + 4608 + 8448));
    // Two blocks share an H100's or H200's SM at head_dim 128 (227 KiB each).
    EXPECT_LE(2 * prefill_attention_shared_bytes(128), 227 * 1024);
    EXPECT_LE(prefill_attention_shared_bytes(128), 160 * 1024);  // fits an A100's 163 KiB
}

TEST(CudaAttentionPlan, GroupsRoundUpToAPowerOfTwoAndSharedMemoryStaysUnder48KiB) {
    EXPECT_EQ(decode_attention_group_slots(1), 1);
    EXPECT_EQ(decode_attention_group_slots(3), 4);
    EXPECT_EQ(decode_attention_group_slots(4), 4);
    EXPECT_EQ(decode_attention_group_slots(5), 8);
    // 128 threads, 8 lanes a key (head_dim 64): 16 streams x 4 heads x 66 floats.
    EXPECT_EQ(decode_attention_shared_bytes(4, 64), 16 * 4 * 66 * 4);
    for (std::int64_t d : {32, 64, 128, 256})
        EXPECT_LE(decode_attention_shared_bytes(kMaxDecodeGroup, d), 48 * 1024) << d;
}

}  // namespace
}  // namespace tokenscope::kernels::cuda
#else
TEST(CudaAttentionPlan, NotBuilt) {
    GTEST_SKIP() << "built without the CUDA kernels";
}
#endif
