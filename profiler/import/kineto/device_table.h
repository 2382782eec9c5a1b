#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "trace/gpu_info.h"

namespace tokenscope::import::kineto {

// The "deviceProperties" array of a Kineto trace.
class DeviceTable {
  public:
    // Parses the raw JSON text of the array; returns false when it is not one.
    bool parse(std::string_view raw_json);
    bool empty() const { return devices_.empty(); }
    // The GPU with that id, else the first listed; an empty GpuInfo when none. Its
    // peak figures and links come from the catalogue (trace/gpu_catalog.h) by its name,
    // or, for an AMD GPU that gives none, by its gfx version, CU count and memory; then
    // the name says it was inferred. Bandwidth from memory clock and bus width wins
    // over the datasheet where the trace has both.
    trace::GpuInfo gpu(std::int64_t device) const;
    // The devices as a JSON array (id, name, totalGlobalMem, numSms, compute capability),
    // kept in the run's workload JSON since GpuInfo has no field for memory size.
    std::string json() const;

  private:
    struct Device {
        std::int64_t id = 0;
        std::string name;
        std::int64_t total_global_mem = 0;
        std::int32_t sm_count = 0;
        std::int32_t compute_major = 0;
        std::int32_t compute_minor = 0;
        std::int32_t warp_size = 0;
        double memory_clock_khz = 0;
        double bus_width_bits = 0;
    };
    std::vector<Device> devices_;
};

}  // namespace tokenscope::import::kineto
