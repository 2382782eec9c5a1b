#include "gpu_presets.h"

#include <algorithm>
#include <cctype>

namespace tokenscope::capture {
namespace {

trace::GpuInfo preset(std::string name, int sms, double bw, double flops, int gen, int links,
                      double nvlink) {
    trace::GpuInfo g;
    g.name = std::move(name);
    g.sm_count = sms;
    g.peak_bandwidth = bw;
    g.peak_flops = flops;
    g.pcie_generation = gen;
    g.pcie_width = 16;
    g.nvlink_links = links;
    // NVIDIA publishes the NVLink total over all links (900 GB/s for Hopper,
    // 600 GB/s for A100); that is the figure kept here.
    g.nvlink_bandwidth = nvlink;
    return g;
}

}  // namespace

const std::vector<trace::GpuInfo>& gpu_presets() {
    static const std::vector<trace::GpuInfo> kPresets = {
        preset("H100-SXM5", 132, 3.35e12, 989e12, 5, 18, 900e9),
        preset("H200", 132, 4.8e12, 989e12, 5, 18, 900e9),
        preset("A100-80GB", 108, 2.039e12, 312e12, 4, 12, 600e9),
        preset("L40S", 142, 864e9, 362e12, 4, 0, 0.0),
    };
    return kPresets;
}

std::optional<trace::GpuInfo> find_gpu_preset(std::string_view name) {
    auto same = [](char a, char b) {
        return std::tolower(static_cast<unsigned char>(a)) ==
               std::tolower(static_cast<unsigned char>(b));
    };
    for (const auto& g : gpu_presets())
        if (std::equal(g.name.begin(), g.name.end(), name.begin(), name.end(), same)) return g;
    return std::nullopt;
}

std::vector<std::string> gpu_preset_names() {
    std::vector<std::string> names;
    for (const auto& g : gpu_presets()) names.push_back(g.name);
    return names;
}

}  // namespace tokenscope::capture
