#pragma once

#include <cstdint>

#include "trace/activity.h"

namespace tokenscope::capture {

// The fields every simulated or measured host/GPU span sets; callers add bytes,
// FLOPs, correlation and device where they apply.
inline trace::Activity make_activity(trace::ActivityKind kind, std::uint16_t lane,
                                     std::uint32_t name, std::int64_t start, std::int64_t end) {
    trace::Activity a;
    a.kind = kind;
    a.lane = lane;
    a.name = name;
    a.start_ns = start;
    a.end_ns = end;
    return a;
}

}  // namespace tokenscope::capture
