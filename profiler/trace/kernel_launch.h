#pragma once

#include <algorithm>
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

    // From a source's signed or wider counts (CUPTI's int32, SQLite's int64, Kineto's
    // JSON): a negative count never describes a real launch and reads as 0, and one
    // too large for its field is clamped. Shared memory is static + dynamic.
    static KernelLaunch from_counts(std::uint32_t correlation,
                                    const std::array<std::int64_t, 3>& grid,
                                    const std::array<std::int64_t, 3>& block,
                                    std::int64_t static_shared, std::int64_t dynamic_shared,
                                    std::int64_t registers) {
        auto u32 = [](std::int64_t v) {
            return static_cast<std::uint32_t>(std::clamp<std::int64_t>(v, 0, 0xffffffffLL));
        };
        KernelLaunch l;
        l.correlation = correlation;
        for (std::size_t i = 0; i < 3; ++i) {
            l.grid[i] = u32(grid[i]);
            l.block[i] = u32(block[i]);
        }
        l.shared_bytes = u32(std::int64_t{u32(static_shared)} + u32(dynamic_shared));
        l.registers_per_thread =
            static_cast<std::uint16_t>(std::clamp<std::int64_t>(registers, 0, 0xffff));
        return l;
    }
};

}  // namespace tokenscope::trace
