// Host-side behaviour of the runner and tokenscope-gpu-check; the decode on a GPU is
// in cuda_device_checks.cpp.
#include <gtest/gtest.h>

#if defined(TOKENSCOPE_HAVE_CUDA_KERNELS)
#include <sstream>

#include "kernels/cuda/counter_draw.h"
#include "kernels/cuda/cuda_decode_runner.h"
#include "kernels/cuda/gpu_check.h"
#include "kernels/cuda/gpu_decode.h"

namespace tokenscope::kernels::cuda {
namespace {

bool have_gpu() {
    return CudaDecodeRunner::device_count() > 0;
}

TEST(CudaGpuCheck, SaysNoGpuWithStatus3) {
    if (have_gpu()) GTEST_SKIP() << "a GPU is present";
    std::ostringstream out, err;
    EXPECT_EQ(run_gpu_check({}, out, err), 3);
    EXPECT_EQ(out.str(), "no GPU\n");
}

TEST(CudaGpuCheck, BadUsageIsStatus1NamingTheProblem) {
    std::ostringstream out, err;
    const std::vector<std::string> args{"--model", "nosuch"};
    EXPECT_EQ(run_gpu_check(args, out, err), 1);
    EXPECT_NE(err.str().find("unknown model 'nosuch'"), std::string::npos) << err.str();
    const std::vector<std::string> dangling{"--batch"};
    EXPECT_EQ(run_gpu_check(dangling, out, err), 1);
}

TEST(CudaGpuDecode, SaysNoGpuWithStatus3) {
    if (have_gpu()) GTEST_SKIP() << "a GPU is present";
    std::ostringstream out, err;
    EXPECT_EQ(run_gpu_decode({}, out, err), 3);
    EXPECT_EQ(err.str(), "tokenscope-gpu-decode: no GPU\n");
    EXPECT_TRUE(out.str().empty());
}

TEST(CudaGpuDecode, BadUsageIsStatus1NamingTheProblem) {
    std::ostringstream out, err;
    const std::vector<std::string> repeats{"--repeats", "0"};
    EXPECT_EQ(run_gpu_decode(repeats, out, err), 1);
    EXPECT_NE(err.str().find("--repeats must be at least 1"), std::string::npos) << err.str();
    std::ostringstream err2;
    const std::vector<std::string> batch{"--model", "tiny", "--batch", "0"};
    EXPECT_EQ(run_gpu_decode(batch, out, err2), 1);
    EXPECT_NE(err2.str().find("batch"), std::string::npos) << err2.str();
    std::ostringstream err3;
    const std::vector<std::string> unknown{"--frobnicate", "1"};
    EXPECT_EQ(run_gpu_decode(unknown, out, err3), 1);
    EXPECT_NE(err3.str().find("unknown option --frobnicate"), std::string::npos) << err3.str();
}

TEST(CudaGpuCheck, TolerancesPerDtype) {
    EXPECT_DOUBLE_EQ(logit_tolerance("fp16"), 2e-2);
    EXPECT_DOUBLE_EQ(logit_tolerance("bf16"), 5e-2);
    EXPECT_DOUBLE_EQ(logit_tolerance("fp32"), 1e-3);
}

TEST(CudaDecodeRunner, WithoutAGpuConstructionThrowsTheCudaError) {
    if (have_gpu()) GTEST_SKIP() << "a GPU is present";
    DecodeConfig config;
    config.new_tokens = 2;
    try {
        CudaDecodeRunner runner(*find_model_preset("tiny"), config);
        FAIL() << "no exception";
    } catch (const CudaError& e) {
        EXPECT_NE(std::string(e.what()).find("cudaSetDevice: "), std::string::npos) << e.what();
    }
}

TEST(CudaDecodeRunner, BadConfigIsInvalidArgumentBeforeAnyCudaCall) {
    DecodeConfig config;
    config.batch = 0;
    EXPECT_THROW(CudaDecodeRunner(*find_model_preset("tiny"), config), std::invalid_argument);
}

TEST(CudaSampleUniform, InUnitIntervalAndIndependentPerSequence) {
    const double a = sample_uniform(1, 0, 5), b = sample_uniform(1, 1, 5);
    EXPECT_GE(a, 0.0);
    EXPECT_LT(a, 1.0);
    EXPECT_NE(a, b);
    EXPECT_EQ(a, sample_uniform(1, 0, 5));
    EXPECT_NE(a, sample_uniform(2, 0, 5));
}

}  // namespace
}  // namespace tokenscope::kernels::cuda
#else
TEST(CudaDecodeRunner, NotBuilt) {
    GTEST_SKIP() << "built without the CUDA kernels";
}
#endif
