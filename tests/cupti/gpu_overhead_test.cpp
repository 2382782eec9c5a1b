// tokenscope-gpu-overhead's entry point on a machine without a GPU: it stops at
// once with exit status 3 and says "no GPU"; bad arguments are status 2.
#include "capture/cupti/gpu_overhead.h"

#include <gtest/gtest.h>

#include <sstream>

namespace tokenscope::capture::cupti {
namespace {

DriverStatus no_driver() {
    DriverStatus s;
    s.reason = "no NVIDIA driver found (libcuda.so.1)";
    return s;
}

TEST(GpuOverhead, WithoutADriverExitsThreeSayingNoGpu) {
    std::ostringstream out, err;
    EXPECT_EQ(gpu_overhead_main({"--model", "tiny"}, out, err, no_driver), 3);
    EXPECT_NE(err.str().find("no GPU"), std::string::npos) << err.str();
    EXPECT_NE(err.str().find("libcuda.so.1"), std::string::npos) << err.str();
    EXPECT_TRUE(out.str().empty());
}

TEST(GpuOverhead, RealProbeOnThisMachine) {
    std::ostringstream out, err;
    const int rc = gpu_overhead_main({"--tokens", "8", "--repeats", "1"}, out, err);
    if (rc != 3) GTEST_SKIP() << "this machine has a GPU (status " << rc << ")";
    EXPECT_NE(err.str().find("no GPU"), std::string::npos) << err.str();
}

TEST(GpuOverhead, BadArgumentsExitTwoNamingTheProblem) {
    std::ostringstream out, err;
    EXPECT_EQ(gpu_overhead_main({"--repeats", "0"}, out, err, no_driver), 2);
    EXPECT_NE(err.str().find("--repeats"), std::string::npos) << err.str();
    std::ostringstream out2, err2;
    EXPECT_EQ(gpu_overhead_main({"--frobnicate", "1"}, out2, err2, no_driver), 2);
    EXPECT_NE(err2.str().find("unknown option --frobnicate"), std::string::npos);
    std::ostringstream out3, err3;
    EXPECT_EQ(gpu_overhead_main({"--prompt", "0"}, out3, err3, no_driver), 2);
    EXPECT_NE(err3.str().find("--prompt"), std::string::npos) << err3.str();
}

TEST(GpuOverhead, PromptAndCudaGraphsAreOptions) {
    std::ostringstream out, err;
    EXPECT_EQ(gpu_overhead_main({"--cuda-graphs", "--prompt", "512", "--batch", "8"}, out, err,
                                no_driver),
              3);
    EXPECT_NE(err.str().find("no GPU"), std::string::npos) << err.str();
}

}  // namespace
}  // namespace tokenscope::capture::cupti
