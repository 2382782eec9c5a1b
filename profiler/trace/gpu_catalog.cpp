#include "gpu_catalog.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <utility>

namespace tokenscope::trace {
namespace {

struct Figures {
    std::int32_t sms = 0;    // SMs (NVIDIA) or CUs (AMD)
    double bandwidth = 0.0;  // bytes/s of device memory
    double flops = 0.0;      // dense BF16/FP16 tensor FLOP/s (no sparsity)
    std::int32_t pcie_generation = 0;
    std::int32_t links = 0;  // NVLink, or AMD Infinity Fabric (xGMI)
    // The vendors publish the total over all links (NVIDIA 900 GB/s for Hopper, 600 GB/s
    // for A100; AMD 7 x 128 GB/s for MI300X); that is the figure kept here.
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

// NVIDIA's datasheets. PCIe cards get no links: their NVLink bridges are optional and
// join pairs only, so collectives among more GPUs still cross PCIe.
void add_nvidia(std::vector<GpuModel>& out) {
    out.push_back(model("NVIDIA H100 PCIe", "", {"H100 PCIe", "H100-PCIE"},
                        {114, 2.0e12, 756e12, 5, 0, 0.0}));
    out.push_back(model("NVIDIA H100 NVL", "", {"H100 NVL"}, {132, 3.9e12, 835e12, 5, 0, 0.0}));
    out.push_back(model("NVIDIA H100 80GB HBM3", "H100-SXM5", {"H100"},
                        {132, 3.35e12, 989e12, 5, 18, 900e9}));
    out.push_back(model("NVIDIA H200", "H200", {"H200"}, {132, 4.8e12, 989e12, 5, 18, 900e9}));
    out.push_back(model("NVIDIA A100-SXM4-80GB", "A100-80GB", {"A100-SXM4-80GB"},
                        {108, 2.039e12, 312e12, 4, 12, 600e9}));
    out.push_back(
        model("NVIDIA A100-SXM4-40GB", "", {"A100-SXM4"}, {108, 1.555e12, 312e12, 4, 12, 600e9}));
    out.push_back(
        model("NVIDIA A100 80GB PCIe", "", {"A100 80GB"}, {108, 1.935e12, 312e12, 4, 0, 0.0}));
    out.push_back(model("NVIDIA A100-PCIE-40GB", "", {"A100"}, {108, 1.555e12, 312e12, 4, 0, 0.0}));
    // Volta has no BF16: its FP16 tensor figure.
    out.push_back(model("Tesla V100S-PCIE-32GB", "", {"V100S"}, {80, 1.134e12, 130e12, 3, 0, 0.0}));
    out.push_back(
        model("Tesla V100-SXM2-16GB", "", {"V100-SXM2"}, {80, 0.9e12, 125e12, 3, 6, 300e9}));
    out.push_back(model("Tesla V100-PCIE-16GB", "", {"V100"}, {80, 0.9e12, 112e12, 3, 0, 0.0}));
    out.push_back(model("NVIDIA L40S", "L40S", {"L40S"}, {142, 864e9, 362e12, 4, 0, 0.0}));
    // AWS's part: only its bandwidth is published.
    out.push_back(model("NVIDIA A10G", "", {"A10G"}, {0, 600e9, 0.0, 4, 0, 0.0}));
    out.push_back(model("NVIDIA A10", "", {"A10"}, {72, 600e9, 125e12, 4, 0, 0.0}));
    out.push_back(model("Tesla T4", "", {"T4"}, {40, 320e9, 65e12, 3, 0, 0.0}));
}

// AMD's data sheets (amd.com, "AMD Instinct MI300X / MI325X / MI300A / MI250X
// Accelerator" product briefs and data sheets): peak dense BF16, peak HBM bandwidth,
// Infinity Fabric links x peak link bandwidth. An MI250X is two graphics compute dies
// (GCDs) that ROCm lists as two devices of 110 CUs each: with_datasheet gives each half.
void add_amd(std::vector<GpuModel>& out) {
    // 304 CUs, 192 GB HBM3, 5.3 TB/s, 1307.4 TFLOP/s BF16, 7 links x 128 GB/s, PCIe 5 x16.
    out.push_back(
        model("AMD Instinct MI300X", "MI300X", {"MI300X"}, {304, 5.3e12, 1307.4e12, 5, 7, 896e9}));
    // 304 CUs, 256 GB HBM3E, 6 TB/s, 1307.4 TFLOP/s BF16, 7 links x 128 GB/s, PCIe 5 x16.
    out.push_back(
        model("AMD Instinct MI325X", "MI325X", {"MI325X"}, {304, 6.0e12, 1307.4e12, 5, 7, 896e9}));
    // The APU: 228 CUs, 128 GB HBM3, 5.3 TB/s, 980.6 TFLOP/s BF16, 4 links x 128 GB/s.
    out.push_back(
        model("AMD Instinct MI300A", "", {"MI300A"}, {228, 5.3e12, 980.6e12, 5, 4, 512e9}));
    // 220 CUs, 128 GB HBM2e, 3.2768 TB/s, 383 TFLOP/s BF16, 8 links x 100 GB/s, PCIe 4 x16.
    out.push_back(
        model("AMD Instinct MI250X", "MI250X", {"MI250X"}, {220, 3.2768e12, 383e12, 4, 8, 800e9}));
}

bool is_word_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0;
}

// `part` in `text`, ignoring case, with no letter or digit right before or after it.
bool contains_word(std::string_view text, std::string_view part) {
    auto same = [](char a, char b) {
        return std::tolower(static_cast<unsigned char>(a)) ==
               std::tolower(static_cast<unsigned char>(b));
    };
    for (auto it = text.begin();; ++it) {
        it = std::search(it, text.end(), part.begin(), part.end(), same);
        if (it == text.end()) return false;
        const auto end = it + static_cast<std::ptrdiff_t>(part.size());
        const bool open = it == text.begin() || !is_word_char(*(it - 1));
        const bool close = end == text.end() || !is_word_char(*end);
        if (open && close) return true;
    }
}

const GpuModel* find_preset_model(std::string_view preset) {
    for (const auto& m : gpu_catalog())
        if (m.preset == preset) return &m;
    return nullptr;
}

}  // namespace

const std::vector<GpuModel>& gpu_catalog() {
    static const std::vector<GpuModel> kCatalog = [] {
        std::vector<GpuModel> all;
        add_nvidia(all);
        add_amd(all);
        return all;
    }();
    return kCatalog;
}

const GpuModel* find_gpu_model(std::string_view device_name) {
    for (const auto& m : gpu_catalog())
        for (const auto& p : m.patterns)
            if (contains_word(device_name, p)) return &m;
    return nullptr;
}

GpuInfo with_datasheet(GpuInfo device, const GpuModel& model) {
    const GpuInfo& sheet = model.info;
    double share = 1.0;
    if (device.sm_count > 0 && device.sm_count < sheet.sm_count)
        share = static_cast<double>(device.sm_count) / sheet.sm_count;
    if (device.name.empty()) device.name = sheet.name;
    if (device.sm_count <= 0) device.sm_count = sheet.sm_count;
    if (device.peak_bandwidth <= 0) device.peak_bandwidth = sheet.peak_bandwidth * share;
    if (device.peak_flops <= 0) device.peak_flops = sheet.peak_flops * share;
    if (device.pcie_generation <= 0) {
        device.pcie_generation = sheet.pcie_generation;
        device.pcie_width = sheet.pcie_width;
    }
    if (device.nvlink_links <= 0) {
        device.nvlink_links = sheet.nvlink_links;
        device.nvlink_bandwidth = sheet.nvlink_bandwidth;
    }
    return device;
}

std::optional<GpuInfo> infer_amd_gpu(const DeviceFacts& f) {
    if (f.warp_size != 64 || f.memory_bytes <= 0) return std::nullopt;
    const double gib = static_cast<double>(f.memory_bytes) / (1024.0 * 1024.0 * 1024.0);
    const char* preset = nullptr;
    if (f.compute_major == 9 && f.compute_minor == 4 && f.compute_units == 304)
        preset = gib >= 224.0 ? "MI325X" : "MI300X";  // 256 GB of HBM3E, 192 GB of HBM3
    else if (f.compute_major == 9 && f.compute_minor == 0 && f.compute_units == 110)
        preset = "MI250X";  // one of its two graphics compute dies
    const GpuModel* m = preset ? find_preset_model(preset) : nullptr;
    if (m == nullptr && f.compute_major == 9 && f.compute_minor == 4 && f.compute_units == 228)
        m = find_gpu_model("MI300A");
    if (m == nullptr) return std::nullopt;
    GpuInfo device;
    device.name = m->info.name + " (inferred from " + std::to_string(f.compute_units) +
                  " CUs, gfx" + std::to_string(f.compute_major) + "." +
                  std::to_string(f.compute_minor) + ", " + std::to_string(std::llround(gib)) +
                  " GiB)";
    device.sm_count = f.compute_units;
    return with_datasheet(std::move(device), *m);
}

}  // namespace tokenscope::trace
