#pragma once

#include <array>
#include <cstdint>

namespace tokenscope::import::kineto {

// Launch facts of one kernel as the Kineto args gave them, keyed by activity
// index (import_with_launches). The run itself keeps them in RunData::launches,
// keyed by correlation (trace::KernelLaunch), which is what the store writes.
struct KernelLaunch {
    std::uint32_t activity = 0;  // index into RunData::activities
    std::array<std::int32_t, 3> grid{};
    std::array<std::int32_t, 3> block{};
    std::int32_t registers_per_thread = 0;
    std::int32_t shared_memory = 0;  // bytes of static + dynamic shared memory

    bool operator==(const KernelLaunch&) const = default;
};

}  // namespace tokenscope::import::kineto
