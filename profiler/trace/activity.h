#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace tokenscope::trace {

enum class ActivityKind : std::uint8_t { Kernel, Memcpy, Memset, Api, Sync, Range, Marker };
inline constexpr std::size_t kActivityKindCount = 7;

// Work a GPU's queue runs (a kernel, a copy or a memset), as opposed to host work: the
// one test every rule that follows launches to the GPU uses.
constexpr bool is_gpu_operation(ActivityKind k) {
    return k == ActivityKind::Kernel || k == ActivityKind::Memcpy || k == ActivityKind::Memset;
}

// Copies carry a sub-kind; everything else uses None.
enum class CopyKind : std::uint8_t { None, H2D, D2H, D2D, P2P, H2H };
inline constexpr std::size_t kCopyKindCount = 6;

// Compact on purpose (40 bytes): a 10M-activity run must stay in memory, and the
// GUI budgets 48 bytes per activity including its timeline index. So the device
// lives on the lane (Lane::device, see device_of) and FLOPs, estimates anyway,
// are a float. Per-kernel extras (grid, block) that only the GUI hover needs live
// elsewhere. No bitfields: GCC 12 rejects brace-initialising aggregates with enum
// bitfields (`v.push_back({...})`).
struct Activity {
    std::int64_t start_ns = 0;
    std::int64_t end_ns = 0;
    std::uint64_t bytes = 0;        // bytes moved (copies, memsets) or read+written (kernels)
    float flops = 0;                // 0 when unknown
    std::uint32_t name = 0;         // id in the run's StringTable
    std::uint32_t correlation = 0;  // links an API call to the work it launched; 0 = none
    std::uint16_t lane = 0;         // index into RunData::lanes
    ActivityKind kind = ActivityKind::Kernel;
    CopyKind copy = CopyKind::None;

    std::int64_t duration_ns() const { return end_ns - start_ns; }
    // Whether it shows in [t0, t1): it starts before t1 and ends after t0, or (an instant
    // marker, or any activity starting there) starts at or after t0.
    bool overlaps(std::int64_t t0, std::int64_t t1) const {
        return start_ns < t1 && (end_ns > t0 || start_ns >= t0);
    }
    bool operator==(const Activity&) const = default;
};
static_assert(sizeof(Activity) == 40, "Activity must stay 40 bytes (GUI memory budget)");

std::string_view to_string(ActivityKind kind);
std::string_view to_string(CopyKind kind);
std::optional<ActivityKind> activity_kind_from_string(std::string_view text);
std::optional<CopyKind> copy_kind_from_string(std::string_view text);

}  // namespace tokenscope::trace
