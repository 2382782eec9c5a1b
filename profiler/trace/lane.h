#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tokenscope::trace {

// StepTrack holds NVTX/step ranges: they frame steps and are never counted as CPU work.
enum class LaneKind : std::uint8_t { CpuThread, GpuStream, CopyEngine, Counter, StepTrack };

struct Lane {
    LaneKind kind = LaneKind::CpuThread;
    std::int32_t device = -1;    // GPU ordinal; -1 for host lanes
    std::int64_t process = 0;    // pid where known
    std::int64_t native_id = 0;  // thread id, stream id, copy engine id or counter id
    std::string name;
    std::int32_t rank = -1;  // distributed rank (torch.distributed, MPI) where known; -1 = unknown

    bool operator==(const Lane&) const = default;
};

std::string_view to_string(LaneKind kind);
std::optional<LaneKind> lane_kind_from_string(std::string_view text);

}  // namespace tokenscope::trace
