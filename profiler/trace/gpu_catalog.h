#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpu_info.h"

namespace tokenscope::trace {

// One GPU model's datasheet figures and the names it goes by. The catalogue is the one
// home of these figures: the model backend's presets (capture/gpu_presets) and the
// importers read them from here.
struct GpuModel {
    // info.name is the name as drivers report it; a figure left 0 is not known here.
    // AMD's Infinity Fabric (xGMI) links are kept as nvlink_links / nvlink_bandwidth:
    // they are the `nvlink` category (DESIGN.md section 14).
    GpuInfo info;
    // The model backend's short name ("H100-SXM5"); empty when it is no preset.
    std::string preset;
    // Case-insensitive parts of a device name that pick this model ("H100 PCIe"), each
    // matched as whole words: "H100" does not match "GH100", "A10" does not match "A100".
    std::vector<std::string> patterns;
};

// Every known model, the more specific ones first ("H100 PCIe" before "H100").
const std::vector<GpuModel>& gpu_catalog();

// The model a device name (as a trace writes it: "NVIDIA H100 80GB HBM3") names: the
// first with a pattern the name contains; nullptr when none does.
const GpuModel* find_gpu_model(std::string_view device_name);

// `device` (what a trace says of a GPU) completed from its model's datasheet: its name
// and SM count stay; each figure it lacks (0) is the model's. A device with fewer SMs
// than its model (an MI250X's graphics compute die, a partition, a MIG instance) gets
// that share of the model's bandwidth and FLOP/s.
GpuInfo with_datasheet(GpuInfo device, const GpuModel& model);

// What a device that gives no name says of itself (Kineto's deviceProperties).
struct DeviceFacts {
    std::int32_t compute_major = 0;  // AMD: the gfx version, 9.4 for gfx942
    std::int32_t compute_minor = 0;
    std::int32_t compute_units = 0;  // SMs or CUs
    std::int32_t warp_size = 0;      // 64 on AMD Instinct GPUs
    std::int64_t memory_bytes = 0;
};

// The AMD Instinct GPU that architecture, CU count and memory size make it (304 CUs of
// gfx9.4 with 192 GiB: an MI300X), named so that a reader sees it was inferred:
// "AMD Instinct MI300X (inferred from 304 CUs, gfx9.4, 192 GiB)". nullopt when the
// facts fit no model, or fit more than one.
std::optional<GpuInfo> infer_amd_gpu(const DeviceFacts& facts);

}  // namespace tokenscope::trace
