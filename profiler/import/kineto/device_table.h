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
    // The GPU with that id, else the first listed; an empty GpuInfo when none.
    trace::GpuInfo gpu(std::int64_t device) const;
    // The devices as a JSON array (id, name, totalGlobalMem, numSms, compute capability),
    // kept in the run's workload JSON since GpuInfo has no field for memory size.
    std::string json() const;

    // Peak DRAM bandwidth in bytes/s: from memory clock and bus width when the
    // trace has them, else from the datasheet figure of a known GPU name, else 0.
    static double peak_bandwidth(std::string_view name, double memory_clock_khz,
                                 double bus_width_bits);

  private:
    struct Device {
        std::int64_t id = 0;
        std::string name;
        std::int64_t total_global_mem = 0;
        std::int32_t sm_count = 0;
        std::int32_t compute_major = 0;
        std::int32_t compute_minor = 0;
        double memory_clock_khz = 0;
        double bus_width_bits = 0;
    };
    std::vector<Device> devices_;
};

}  // namespace tokenscope::import::kineto
