#pragma once

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
    GpuInfo info;
    // The model backend's short name ("H100-SXM5"); empty when it is no preset.
    std::string preset;
    // Case-insensitive parts of a device name that pick this model ("H100 PCIe").
    std::vector<std::string> patterns;
};

// Every known model, the more specific ones first ("H100 PCIe" before "H100").
const std::vector<GpuModel>& gpu_catalog();

// The model a device name (as a trace writes it: "NVIDIA H100 80GB HBM3") names: the
// first whose pattern it contains, case-insensitively; nullptr when none does.
const GpuModel* find_gpu_model(std::string_view device_name);

}  // namespace tokenscope::trace
