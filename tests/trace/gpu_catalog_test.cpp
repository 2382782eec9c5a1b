// The GPU catalogue, looked up by device names as real traces and drivers write them
// (Kineto's deviceProperties, nsys TARGET_INFO_GPU, nvidia-smi, rocm-smi).
#include "trace/gpu_catalog.h"

#include <gtest/gtest.h>

namespace tokenscope::trace {
namespace {

struct Lookup {
    const char* device;  // as the trace writes it
    const char* model;   // the catalogue's name, or nullptr: not known
    double bandwidth;    // bytes/s
    double flops;        // dense BF16/FP16
    int links;           // NVLink or xGMI
    double link_bandwidth;
};

TEST(GpuCatalogTest, FindsModelsByTheNamesTracesWrite) {
    const Lookup kTable[] = {
        {"NVIDIA H100 80GB HBM3", "NVIDIA H100 80GB HBM3", 3.35e12, 989e12, 18, 900e9},
        {"NVIDIA H100 PCIe", "NVIDIA H100 PCIe", 2.0e12, 756e12, 0, 0.0},
        {"NVIDIA H100 NVL", "NVIDIA H100 NVL", 3.9e12, 835e12, 0, 0.0},
        {"NVIDIA H200", "NVIDIA H200", 4.8e12, 989e12, 18, 900e9},
        {"NVIDIA A100-SXM4-80GB", "NVIDIA A100-SXM4-80GB", 2.039e12, 312e12, 12, 600e9},
        {"NVIDIA A100-SXM4-40GB", "NVIDIA A100-SXM4-40GB", 1.555e12, 312e12, 12, 600e9},
        {"NVIDIA A100 80GB PCIe", "NVIDIA A100 80GB PCIe", 1.935e12, 312e12, 0, 0.0},
        {"NVIDIA A100-PCIE-40GB", "NVIDIA A100-PCIE-40GB", 1.555e12, 312e12, 0, 0.0},
        {"A100 80GB PCIe", "NVIDIA A100 80GB PCIe", 1.935e12, 312e12, 0, 0.0},
        {"Tesla V100-SXM2-32GB", "Tesla V100-SXM2-16GB", 0.9e12, 125e12, 6, 300e9},
        {"Tesla V100-PCIE-16GB", "Tesla V100-PCIE-16GB", 0.9e12, 112e12, 0, 0.0},
        {"Tesla V100S-PCIE-32GB", "Tesla V100S-PCIE-32GB", 1.134e12, 130e12, 0, 0.0},
        {"NVIDIA L40S", "NVIDIA L40S", 864e9, 362e12, 0, 0.0},
        {"NVIDIA A10G", "NVIDIA A10G", 600e9, 0.0, 0, 0.0},
        {"NVIDIA A10", "NVIDIA A10", 600e9, 125e12, 0, 0.0},
        {"Tesla T4", "Tesla T4", 320e9, 65e12, 0, 0.0},
        {"AMD Instinct MI300X", "AMD Instinct MI300X", 5.3e12, 1307.4e12, 7, 896e9},
        {"AMD Instinct MI325X", "AMD Instinct MI325X", 6.0e12, 1307.4e12, 7, 896e9},
        {"AMD Instinct MI300A", "AMD Instinct MI300A", 5.3e12, 980.6e12, 4, 512e9},
        {"AMD Instinct MI250X", "AMD Instinct MI250X", 3.2768e12, 383e12, 8, 800e9},
        {"nvidia h100 80gb hbm3", "NVIDIA H100 80GB HBM3", 3.35e12, 989e12, 18, 900e9},
        // Whole words only: none of these is a model of the catalogue.
        {"NVIDIA GH200 480GB", nullptr, 0, 0, 0, 0},
        {"NVIDIA H20", nullptr, 0, 0, 0, 0},
        {"NVIDIA H800", nullptr, 0, 0, 0, 0},
        {"NVIDIA GeForce RTX 4090", nullptr, 0, 0, 0, 0},
        {"AMD Instinct MI210", nullptr, 0, 0, 0, 0},
        {"", nullptr, 0, 0, 0, 0},
    };
    for (const auto& row : kTable) {
        SCOPED_TRACE(row.device);
        const GpuModel* m = find_gpu_model(row.device);
        if (row.model == nullptr) {
            EXPECT_EQ(m, nullptr);
            continue;
        }
        ASSERT_NE(m, nullptr);
        EXPECT_EQ(m->info.name, row.model);
        EXPECT_DOUBLE_EQ(m->info.peak_bandwidth, row.bandwidth);
        EXPECT_DOUBLE_EQ(m->info.peak_flops, row.flops);
        EXPECT_EQ(m->info.nvlink_links, row.links);
        EXPECT_DOUBLE_EQ(m->info.nvlink_bandwidth, row.link_bandwidth);
    }
}

TEST(GpuCatalogTest, EveryModelIsFoundByItsOwnName) {
    for (const auto& m : gpu_catalog()) {
        SCOPED_TRACE(m.info.name);
        EXPECT_EQ(find_gpu_model(m.info.name), &m);
        EXPECT_GT(m.info.peak_bandwidth, 0.0);
        EXPECT_GT(m.info.pcie_generation, 0);
    }
}

TEST(GpuCatalogTest, DatasheetFillsWhatTheDeviceLacks) {
    const GpuModel& h100 = *find_gpu_model("NVIDIA H100 80GB HBM3");
    GpuInfo device;
    device.name = "NVIDIA H100 80GB HBM3";
    device.sm_count = 132;
    device.peak_bandwidth = 3.0e12;  // the trace's own figure stays
    GpuInfo g = with_datasheet(device, h100);
    EXPECT_EQ(g.name, "NVIDIA H100 80GB HBM3");
    EXPECT_DOUBLE_EQ(g.peak_bandwidth, 3.0e12);
    EXPECT_DOUBLE_EQ(g.peak_flops, 989e12);
    EXPECT_EQ(g.pcie_generation, 5);
    EXPECT_EQ(g.pcie_width, 16);
    EXPECT_EQ(g.nvlink_links, 18);
    // ROCm lists each of an MI250X's two dies as a device of 110 CUs: half the module.
    GpuInfo die;
    die.name = "AMD Instinct MI250X";
    die.sm_count = 110;
    g = with_datasheet(die, *find_gpu_model(die.name));
    EXPECT_EQ(g.sm_count, 110);
    EXPECT_DOUBLE_EQ(g.peak_bandwidth, 3.2768e12 / 2);
    EXPECT_DOUBLE_EQ(g.peak_flops, 383e12 / 2);
    EXPECT_EQ(g.nvlink_links, 8);
    // A device that names no SM count takes the model's.
    g = with_datasheet(GpuInfo{}, h100);
    EXPECT_EQ(g.name, "NVIDIA H100 80GB HBM3");
    EXPECT_EQ(g.sm_count, 132);
}

struct Inference {
    DeviceFacts facts;
    const char* name;  // nullptr: no model fits
    double bandwidth;
};

TEST(GpuCatalogTest, InfersAmdGpusFromGfxCusAndMemory) {
    constexpr std::int64_t kGiB = std::int64_t{1} << 30;
    const Inference kTable[] = {
        // The vLLM V1 fixtures' deviceProperties: name "", 192 GiB less 16 MiB.
        {{9, 4, 304, 64, 206141652992},
         "AMD Instinct MI300X (inferred from 304 CUs, gfx9.4, 192 GiB)",
         5.3e12},
        {{9, 4, 304, 64, 256 * kGiB},
         "AMD Instinct MI325X (inferred from 304 CUs, gfx9.4, 256 GiB)",
         6.0e12},
        {{9, 4, 228, 64, 128 * kGiB},
         "AMD Instinct MI300A (inferred from 228 CUs, gfx9.4, 128 GiB)",
         5.3e12},
        {{9, 0, 110, 64, 64 * kGiB},
         "AMD Instinct MI250X (inferred from 110 CUs, gfx9.0, 64 GiB)",
         3.2768e12 / 2},
        {{9, 0, 132, 32, 85018279936}, nullptr, 0},  // an H100: warps of 32
        {{9, 4, 38, 64, 24 * kGiB}, nullptr, 0},     // one CPX partition: MI300X or MI325X
        {{9, 4, 304, 64, 0}, nullptr, 0},            // no memory size: MI300X or MI325X
        {{11, 0, 96, 64, 48 * kGiB}, nullptr, 0},    // a Radeon PRO W7900
    };
    for (const auto& row : kTable) {
        SCOPED_TRACE(row.facts.compute_units);
        auto g = infer_amd_gpu(row.facts);
        if (row.name == nullptr) {
            EXPECT_FALSE(g.has_value());
            continue;
        }
        ASSERT_TRUE(g.has_value());
        EXPECT_EQ(g->name, row.name);
        EXPECT_EQ(g->sm_count, row.facts.compute_units);
        EXPECT_DOUBLE_EQ(g->peak_bandwidth, row.bandwidth);
        EXPECT_GT(g->nvlink_links, 0);
    }
}

}  // namespace
}  // namespace tokenscope::trace
