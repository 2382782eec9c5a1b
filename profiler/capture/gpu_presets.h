#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "trace/gpu_info.h"

namespace tokenscope::capture {

// Datasheet figures of the GPUs the model backend can impersonate: dense BF16
// tensor FLOP/s (no sparsity), HBM/GDDR bandwidth, host link, NVLink total. They are
// the catalogue's models that have a preset name (trace/gpu_catalog.h), named by it.
const std::vector<trace::GpuInfo>& gpu_presets();
// Case-insensitive: "h100-sxm5", "H200", "a100-80gb", "l40s".
std::optional<trace::GpuInfo> find_gpu_preset(std::string_view name);
std::vector<std::string> gpu_preset_names();

}  // namespace tokenscope::capture
