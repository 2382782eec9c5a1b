#pragma once

#include <array>
#include <cstdint>

namespace tokenscope::import::kineto {

// Launch facts of one kernel that trace::Activity has no room for (it stays
// 48 bytes); only the GUI's hover needs them.
struct KernelLaunch {
    std::uint32_t activity = 0;  // index into RunData::activities
    std::array<std::int32_t, 3> grid{};
    std::array<std::int32_t, 3> block{};
    std::int32_t registers_per_thread = 0;
    std::int32_t shared_memory = 0;  // bytes of static + dynamic shared memory

    bool operator==(const KernelLaunch&) const = default;
};

}  // namespace tokenscope::import::kineto
