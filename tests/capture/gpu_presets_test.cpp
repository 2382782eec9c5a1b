#include "capture/gpu_presets.h"

#include <gtest/gtest.h>

namespace tokenscope::capture {
namespace {

TEST(GpuPresetsTest, RidgePointsFromTheDatasheets) {
    // Ridge = peak FLOP/s / bandwidth, worked out by hand.
    EXPECT_NEAR(find_gpu_preset("H100-SXM5")->ridge_point(), 989.0 / 3.35, 1e-9);   // 295.22
    EXPECT_NEAR(find_gpu_preset("H200")->ridge_point(), 989.0 / 4.8, 1e-9);         // 206.04
    EXPECT_NEAR(find_gpu_preset("A100-80GB")->ridge_point(), 312.0 / 2.039, 1e-9);  // 153.02
    EXPECT_NEAR(find_gpu_preset("L40S")->ridge_point(), 362000.0 / 864.0, 1e-9);    // 418.98
    EXPECT_NEAR(find_gpu_preset("MI300X")->ridge_point(), 1307.4 / 5.3, 1e-9);      // 246.68
    EXPECT_NEAR(find_gpu_preset("MI325X")->ridge_point(), 1307.4 / 6.0, 1e-9);      // 217.90
    EXPECT_NEAR(find_gpu_preset("MI250X")->ridge_point(), 383.0 / 3.2768, 1e-9);    // 116.88
}

TEST(GpuPresetsTest, LookupIsCaseInsensitiveAndListsAll) {
    auto h100 = find_gpu_preset("h100-sxm5");
    ASSERT_TRUE(h100.has_value());
    EXPECT_EQ(h100->name, "H100-SXM5");
    EXPECT_EQ(h100->sm_count, 132);
    EXPECT_EQ(h100->pcie_generation, 5);
    EXPECT_EQ(h100->pcie_width, 16);
    EXPECT_EQ(h100->nvlink_links, 18);
    EXPECT_DOUBLE_EQ(h100->nvlink_bandwidth, 900e9);
    // Gen5 x16: 3.938 GB/s per lane * 16.
    EXPECT_NEAR(h100->pcie_bandwidth(), 3.938e9 * 16, 1.0);
    auto a100 = find_gpu_preset("A100-80gb");
    ASSERT_TRUE(a100.has_value());
    EXPECT_EQ(a100->sm_count, 108);
    EXPECT_EQ(a100->nvlink_links, 12);
    auto l40s = find_gpu_preset("L40S");
    ASSERT_TRUE(l40s.has_value());
    EXPECT_EQ(l40s->nvlink_links, 0);
    EXPECT_EQ(l40s->pcie_generation, 4);
    // AMD: xGMI (Infinity Fabric) links are kept as NVLink links.
    auto mi300x = find_gpu_preset("mi300x");
    ASSERT_TRUE(mi300x.has_value());
    EXPECT_EQ(mi300x->name, "MI300X");
    EXPECT_EQ(mi300x->sm_count, 304);
    EXPECT_EQ(mi300x->nvlink_links, 7);
    EXPECT_DOUBLE_EQ(mi300x->nvlink_bandwidth, 7 * 128e9);
    EXPECT_EQ(mi300x->pcie_generation, 5);
    EXPECT_FALSE(find_gpu_preset("H300").has_value());
    EXPECT_EQ(gpu_preset_names(), (std::vector<std::string>{"H100-SXM5", "H200", "A100-80GB",
                                                            "L40S", "MI300X", "MI325X", "MI250X"}));
}

}  // namespace
}  // namespace tokenscope::capture
