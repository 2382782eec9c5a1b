#pragma once

#include <cstdint>

namespace tokenscope::trace {

// Lanes of kind Counter name what is sampled (e.g. "PCIe RX bytes/s").
struct CounterSample {
    std::uint16_t lane = 0;
    std::int64_t time_ns = 0;
    double value = 0.0;

    bool operator==(const CounterSample&) const = default;
};

}  // namespace tokenscope::trace
