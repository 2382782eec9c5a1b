#include "kernels/cost_model.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace tokenscope::kernels {
namespace {

Roofline roof() {
    Roofline r;
    r.peak_flops = 1e12;
    r.peak_bandwidth = 1e11;
    r.link_bandwidth = 1e10;
    r.launch_overhead_ns = 1500;
    r.copy_latency_ns = 2000;
    return r;
}

TEST(CostModelTest, KernelTimeIsTheSlowerRoofPlusOverhead) {
    CostModel m(roof());
    // Compute: 2e9 / 1e12 = 2 ms beats memory 1e6 / 1e11 = 10 us.
    EXPECT_EQ(m.kernel_ns(KernelSpec{KernelOp::QkvProj, false, 0, 2000000000, 600000, 400000}),
              2000000 + 1500);
    // Memory: 5e8 B / 1e11 = 5 ms beats compute 1e6 / 1e12 = 1 us.
    EXPECT_EQ(m.kernel_ns(KernelSpec{KernelOp::LmHead, false, -1, 1000000, 500000000, 0}),
              5000000 + 1500);
    // An empty kernel still pays the overhead; 1 byte rounds up to 1 ns.
    EXPECT_EQ(m.kernel_ns(KernelSpec{KernelOp::Argmax, false, -1, 0, 1, 0}), 1 + 1500);
}

TEST(CostModelTest, CopiesAndMemoryBound) {
    CostModel m(roof());
    EXPECT_EQ(m.copy_ns(1000000), 100000 + 2000);  // 1e6 / 1e10 s = 100 us
    // Ridge point 1e12 / 1e11 = 10 FLOP/B.
    EXPECT_TRUE(m.memory_bound(KernelSpec{KernelOp::Rope, false, 0, 9, 1, 0}));
    EXPECT_FALSE(m.memory_bound(KernelSpec{KernelOp::Rope, false, 0, 10, 1, 0}));
}

TEST(CostModelTest, FloorOfPrefillAndDecode) {
    CostModel m(roof());
    IterationPlan prefill;
    prefill.prefill = true;
    prefill.kernels = {KernelSpec{KernelOp::QkvProj, false, 0, 3000000, 100, 100},
                       KernelSpec{KernelOp::Rope, false, 0, 0, 50000, 50000}};
    // max(3e6 / 1e12 = 3 us, 100,200 / 1e11 = 1.002 us) = 3000 ns.
    EXPECT_EQ(m.floor_ns(prefill), 3000);
    IterationPlan decode;
    decode.floor_bytes = 250000;  // 2.5 us
    EXPECT_EQ(m.floor_ns(decode), 2500);
}

TEST(CostModelTest, RejectsMissingPeaks) {
    Roofline r = roof();
    r.peak_bandwidth = 0;
    EXPECT_THROW(CostModel{r}, std::invalid_argument);
}

}  // namespace
}  // namespace tokenscope::kernels
