#pragma once

#include <cstdint>
#include <string>

namespace tokenscope::trace {

struct GpuInfo {
    std::string name;
    std::int32_t sm_count = 0;
    double peak_bandwidth = 0.0;  // bytes/s of device memory
    double peak_flops = 0.0;      // dense FP16/BF16 tensor FLOP/s
    std::int32_t pcie_generation = 0;
    std::int32_t pcie_width = 0;
    std::int32_t nvlink_links = 0;
    double nvlink_bandwidth = 0.0;  // bytes/s, all links, one direction

    // Arithmetic intensity (FLOP/byte) above which a kernel is compute-bound; 0 if unknown.
    double ridge_point() const { return peak_bandwidth > 0.0 ? peak_flops / peak_bandwidth : 0.0; }
    double pcie_bandwidth() const;  // bytes/s per direction from generation and width; 0 if unknown
    bool operator==(const GpuInfo&) const = default;
};

}  // namespace tokenscope::trace
