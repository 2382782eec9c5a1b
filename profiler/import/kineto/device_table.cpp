#include "device_table.h"

#include <limits>
#include <nlohmann/json.hpp>
#include <type_traits>
#include <utility>

#include "trace/gpu_catalog.h"

namespace tokenscope::import::kineto {
namespace {

// A float outside an integer T's range ("numSms": 1e300) gives the fallback:
// converting it would be undefined behaviour (found by fuzzing). NaN fails both tests.
template <typename T>
T number_or(const nlohmann::json& j, const char* key, T fallback) {
    auto it = j.find(key);
    if (it == j.end() || !it->is_number()) return fallback;
    if constexpr (std::is_integral_v<T>) {
        if (it->is_number_float()) {
            double v = it->get<double>();
            constexpr double kMin = static_cast<double>(std::numeric_limits<T>::min());
            constexpr double kEnd = -kMin;  // 2^63 or 2^31: the first value out of range
            return v >= kMin && v < kEnd ? static_cast<T>(v) : fallback;
        }
    }
    return it->get<T>();
}

}  // namespace

bool DeviceTable::parse(std::string_view raw_json) {
    nlohmann::json j = nlohmann::json::parse(raw_json, nullptr, false);
    if (!j.is_array()) return false;
    for (const auto& d : j) {
        if (!d.is_object()) continue;
        Device dev;
        dev.id = number_or<std::int64_t>(d, "id", static_cast<std::int64_t>(devices_.size()));
        if (auto it = d.find("name"); it != d.end() && it->is_string()) dev.name = *it;
        dev.total_global_mem = number_or<std::int64_t>(d, "totalGlobalMem", 0);
        dev.sm_count = number_or<std::int32_t>(d, "numSms", 0);
        dev.compute_major = number_or<std::int32_t>(d, "computeMajor", 0);
        dev.compute_minor = number_or<std::int32_t>(d, "computeMinor", 0);
        dev.warp_size = number_or<std::int32_t>(d, "warpSize", 0);
        dev.memory_clock_khz = number_or<double>(d, "memoryClockRate", 0.0);
        dev.bus_width_bits = number_or<double>(d, "memoryBusWidth", 0.0);
        devices_.push_back(std::move(dev));
    }
    return true;
}

trace::GpuInfo DeviceTable::gpu(std::int64_t device) const {
    if (devices_.empty()) return {};
    const Device* chosen = &devices_.front();
    for (const auto& d : devices_)
        if (d.id == device) chosen = &d;
    trace::GpuInfo info;
    info.name = chosen->name;
    info.sm_count = chosen->sm_count;
    // Double data rate: two transfers per memory clock. Older traces carry both.
    if (chosen->memory_clock_khz > 0 && chosen->bus_width_bits > 0)
        info.peak_bandwidth = 2.0 * chosen->memory_clock_khz * 1e3 * chosen->bus_width_bits / 8.0;
    // The rest from the datasheet of the GPU the name names (DESIGN.md section 14).
    if (const auto* model = trace::find_gpu_model(chosen->name))
        return trace::with_datasheet(std::move(info), *model);
    // ROCm may write no name: an AMD GPU is known by its gfx version, CUs and memory.
    auto amd = trace::infer_amd_gpu({.compute_major = chosen->compute_major,
                                     .compute_minor = chosen->compute_minor,
                                     .compute_units = chosen->sm_count,
                                     .warp_size = chosen->warp_size,
                                     .memory_bytes = chosen->total_global_mem});
    if (!amd) return info;
    if (info.peak_bandwidth > 0) amd->peak_bandwidth = info.peak_bandwidth;
    return *amd;
}

std::string DeviceTable::json() const {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& d : devices_) {
        out.push_back({{"id", d.id},
                       {"name", d.name},
                       {"totalGlobalMem", d.total_global_mem},
                       {"numSms", d.sm_count},
                       {"computeMajor", d.compute_major},
                       {"computeMinor", d.compute_minor}});
    }
    return out.dump();
}

}  // namespace tokenscope::import::kineto
