#include "gpu_catalog.h"

#include <algorithm>
#include <cctype>
#include <utility>

namespace tokenscope::trace {
namespace {

struct Figures {
    std::int32_t sms = 0;
    double bandwidth = 0.0;  // bytes/s
    double flops = 0.0;      // dense BF16/FP16 tensor FLOP/s
    std::int32_t pcie_generation = 0;
    std::int32_t links = 0;
    // NVIDIA publishes the NVLink total over all links (900 GB/s for Hopper,
    // 600 GB/s for A100); that is the figure kept here.
    double link_bandwidth = 0.0;
};

GpuModel model(std::string name, std::string preset, std::vector<std::string> patterns,
               const Figures& f) {
    GpuModel m;
    m.info.name = std::move(name);
    m.info.sm_count = f.sms;
    m.info.peak_bandwidth = f.bandwidth;
    m.info.peak_flops = f.flops;
    m.info.pcie_generation = f.pcie_generation;
    m.info.pcie_width = f.pcie_generation > 0 ? 16 : 0;
    m.info.nvlink_links = f.links;
    m.info.nvlink_bandwidth = f.link_bandwidth;
    m.preset = std::move(preset);
    m.patterns = std::move(patterns);
    return m;
}

bool contains_ignoring_case(std::string_view text, std::string_view part) {
    auto same = [](char a, char b) {
        return std::tolower(static_cast<unsigned char>(a)) ==
               std::tolower(static_cast<unsigned char>(b));
    };
    return std::search(text.begin(), text.end(), part.begin(), part.end(), same) != text.end();
}

}  // namespace

const std::vector<GpuModel>& gpu_catalog() {
    // Datasheet figures: dense tensor FLOP/s (no sparsity), HBM/GDDR bandwidth.
    static const std::vector<GpuModel> kCatalog = {
        model("NVIDIA H100 PCIe", "", {"H100 PCIe"}, {.bandwidth = 2.0e12}),
        model("NVIDIA H100 80GB HBM3", "H100-SXM5", {"H100"}, {132, 3.35e12, 989e12, 5, 18, 900e9}),
        model("NVIDIA H200", "H200", {"H200"}, {132, 4.8e12, 989e12, 5, 18, 900e9}),
        model("NVIDIA A100-SXM4-80GB", "A100-80GB", {"A100-SXM4-80GB"},
              {108, 2.039e12, 312e12, 4, 12, 600e9}),
        model("NVIDIA A100 80GB PCIe", "", {"A100 80GB"}, {.bandwidth = 1.935e12}),
        model("NVIDIA A100-PCIE-40GB", "", {"A100"}, {.bandwidth = 1.555e12}),
        model("Tesla V100-SXM2-16GB", "", {"V100"}, {.bandwidth = 0.9e12}),
        model("NVIDIA L40S", "L40S", {"L40S"}, {142, 864e9, 362e12, 4, 0, 0.0}),
        model("NVIDIA A10G", "", {"A10G"}, {.bandwidth = 0.6e12}),
        model("Tesla T4", "", {"T4"}, {.bandwidth = 0.32e12}),
    };
    return kCatalog;
}

const GpuModel* find_gpu_model(std::string_view device_name) {
    for (const auto& m : gpu_catalog())
        for (const auto& p : m.patterns)
            if (contains_ignoring_case(device_name, p)) return &m;
    return nullptr;
}

}  // namespace tokenscope::trace
