#pragma once

#include <array>
#include <cstdint>

namespace tokenscope::trace {

// How a kernel was launched. Kept out of Activity, which must stay compact for
// 10M-activity runs: only the timeline hover and exports read these, so they
// live in a side table of RunData keyed by the kernel's correlation id.
struct KernelLaunch {
    std::uint32_t correlation = 0;  // the kernel activity's correlation id (never 0)
    std::array<std::uint32_t, 3> grid{};
    std::array<std::uint32_t, 3> block{};
    std::uint32_t shared_bytes = 0;  // static + dynamic shared memory per block
    std::uint16_t registers_per_thread = 0;

    bool operator==(const KernelLaunch&) const = default;
};

}  // namespace tokenscope::trace
