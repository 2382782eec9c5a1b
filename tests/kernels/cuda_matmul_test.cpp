// The matmul paths' host-side rules: split counts, where cuBLASLt is looked for, and
// what the engine says without a GPU. Every path against an exact CPU product
// (kernels/cuda/matmul_check.h) needs a GPU: cuda_device_checks.cpp.
#include <gtest/gtest.h>

#if defined(TOKENSCOPE_HAVE_CUDA_KERNELS)
#include "kernels/cuda/cublaslt_library.h"
#include "kernels/cuda/cuda_decode_runner.h"
#include "kernels/cuda/gemv_plan.h"
#include "kernels/cuda/matmul_engine.h"

namespace tokenscope::kernels::cuda {
namespace {

TEST(CudaMatmul, SplitCountsFillTheGpuWithinTheirLimits) {
    // 2048 columns = 32 tiles of 64: 512 / 32 = 16 splits, k / 256 = 32 allows them.
    EXPECT_EQ(gemv_splits(8192, 2048), 16);
    EXPECT_EQ(gemv_splits(2048, 2048), 8);    // k / 256 caps it
    EXPECT_EQ(gemv_splits(2048, 128256), 1);  // 2004 tiles fill the GPU alone
    EXPECT_EQ(gemv_splits(100, 64), 1);       // too little k to split
    EXPECT_EQ(gemv_partial_floats(8192, 2048), 8 * 16 * 2048);
    EXPECT_EQ(gemv_partial_floats(2048, 128256), 0);
}

TEST(CudaMatmul, CublasLtIsLookedForWhereTheUserSaysThenOnTheLoaderPathThenTheToolkit) {
    const auto dflt = CublasLtLibrary::candidates(nullptr, nullptr);
    ASSERT_EQ(dflt.size(), 2u);
    EXPECT_EQ(dflt[0].rfind("libcublasLt.so.", 0), 0u) << dflt[0];
    EXPECT_EQ(dflt[1], "/usr/local/cuda/lib64/" + dflt[0]);
    const auto mine = CublasLtLibrary::candidates("/opt/lt/libcublasLt.so.13", "/opt/cuda");
    ASSERT_EQ(mine.size(), 4u);
    EXPECT_EQ(mine[0], "/opt/lt/libcublasLt.so.13");
    EXPECT_EQ(mine[2], "/opt/cuda/lib64/" + dflt[0]);
    for (const char* off : {"0", "off", "builtin"})
        EXPECT_TRUE(CublasLtLibrary::candidates(off, "/opt/cuda").empty()) << off;
}

TEST(CudaMatmul, WithoutAGpuTheEngineSaysItRunsTheBuiltInKernelsAndWhy) {
    if (CudaDecodeRunner::device_count() > 0) GTEST_SKIP() << "a GPU is present";
    MatmulEngine engine;
    EXPECT_FALSE(engine.uses_library());
    const std::string d = engine.description();
    EXPECT_EQ(d.rfind("built-in kernels (split-k GEMV, tiled GEMM): ", 0), 0u) << d;
    EXPECT_GT(d.size(), std::string("built-in kernels (split-k GEMV, tiled GEMM): ").size());
}

}  // namespace
}  // namespace tokenscope::kernels::cuda
#else
TEST(CudaMatmul, NotBuilt) {
    GTEST_SKIP() << "built without the CUDA kernels";
}
#endif
