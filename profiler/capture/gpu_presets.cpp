#include "gpu_presets.h"

#include <algorithm>
#include <cctype>

#include "trace/gpu_catalog.h"

namespace tokenscope::capture {

const std::vector<trace::GpuInfo>& gpu_presets() {
    // The catalogue's models that have a preset name, named by it.
    static const std::vector<trace::GpuInfo> kPresets = [] {
        std::vector<trace::GpuInfo> presets;
        for (const auto& m : trace::gpu_catalog()) {
            if (m.preset.empty()) continue;
            trace::GpuInfo g = m.info;
            g.name = m.preset;
            presets.push_back(std::move(g));
        }
        return presets;
    }();
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
