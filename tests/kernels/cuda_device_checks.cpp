// The CUDA kernels' checks that need a GPU, in one program that ctest runs as ONE test
// (tests/kernels/CMakeLists.txt): without a CUDA device it says so once and is
// reported skipped, instead of each check skipping on its own. On a GPU machine
// tests/gpu/run.sh runs it with every other kernels_cuda_* program.
#include <gtest/gtest.h>

#include "kernels/cuda/attention_check.h"
#include "kernels/cuda/cuda_decode_runner.h"
#include "kernels/cuda/matmul_check.h"
#include "kernels/cuda/matmul_engine.h"
#include "kernels/model_shape.h"

namespace tokenscope::kernels::cuda {
namespace {

class NeedsACudaDevice : public ::testing::Environment {
  public:
    void SetUp() override {
        if (CudaDecodeRunner::device_count() == 0)
            GTEST_SKIP() << "no CUDA device: the GPU checks of the CUDA kernels did not run "
                            "(tests/gpu/run.sh runs them on a GPU machine)";
    }
};
[[maybe_unused]] ::testing::Environment* const kNeedsACudaDevice =
    ::testing::AddGlobalTestEnvironment(new NeedsACudaDevice);

TEST(CudaAttentionPlan, EveryKernelMatchesADoubleSoftmaxOnTheGpu) {
    for (DType dtype : {DType::Bf16, DType::Fp16})
        for (const AttentionCase& c : default_attention_cases()) {
            const AttentionCheck r = check_attention(dtype, c);
            EXPECT_TRUE(r.ok()) << to_string(dtype) << " " << c.positions << " queries after "
                                << c.cached << " (" << r.kernel << "): max error "
                                << r.max_abs_error << ", tolerance " << r.tolerance;
        }
}

TEST(CudaMatmul, EveryPathIsExactOnTheGpu) {
    MatmulEngine engine;  // cuBLASLt where this machine has it
    for (DType dtype : {DType::Bf16, DType::Fp16, DType::Fp32})
        for (const MatmulCase& c : default_matmul_cases())
            for (MatmulEngine* e : {static_cast<MatmulEngine*>(nullptr), &engine}) {
                const MatmulCheck r = check_matmul(dtype, c, e);
                EXPECT_EQ(r.mismatches, 0)
                    << to_string(dtype) << " " << c.m << "x" << c.k << "x" << c.n << " ("
                    << r.kernel << "), max error " << r.max_abs_error;
                // Only the library's fused residual into a 16-bit output may round twice.
                if (e == nullptr || !c.residual || c.fp32_out || dtype == DType::Fp32) {
                    EXPECT_EQ(r.rounded_twice, 0) << to_string(dtype) << " " << c.m << "x" << c.k;
                }
            }
}

TEST(CudaDecodeRunner, GreedyRunEmitsEveryTokenInOrder) {
    DecodeConfig config;
    config.batch = 2;
    config.prompt_len = 16;
    config.new_tokens = 8;
    CudaDecodeRunner runner(*find_model_preset("tiny"), config);
    int begins = 0;
    RunnerHooks hooks;
    hooks.iteration_begin = [&](const IterationPlan&, std::int64_t) { ++begins; };
    const DecodeResult r = runner.run(hooks);
    EXPECT_EQ(begins, 8);
    ASSERT_EQ(r.tokens.size(), 2u);
    for (std::size_t q = 0; q < 2; ++q) {
        ASSERT_EQ(r.tokens[q].size(), 8u);
        ASSERT_EQ(r.emission_ns[q].size(), 8u);
        for (std::size_t i = 1; i < 8; ++i) EXPECT_GT(r.emission_ns[q][i], r.emission_ns[q][i - 1]);
    }
    EXPECT_EQ(r.final_logits.size(), 2u * 1024u);
}

}  // namespace
}  // namespace tokenscope::kernels::cuda
