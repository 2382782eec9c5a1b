#pragma once
// Activities for hand-made runs: act(lane, kind, start, end) and, for the fields a
// test cares about, designated extras: act(2, Memcpy, 0, 600, {.bytes = 64,
// .copy = CopyKind::H2D}).
#include <cstdint>

#include "trace/activity.h"

namespace tokenscope::test {

struct ActivityExtras {
    std::uint64_t bytes = 0;
    float flops = 0;
    trace::CopyKind copy = trace::CopyKind::None;
    std::uint32_t name = 0;  // id in the run's StringTable
    std::uint32_t correlation = 0;
};

inline trace::Activity act(std::uint16_t lane, trace::ActivityKind kind, std::int64_t start,
                           std::int64_t end, const ActivityExtras& x = {}) {
    trace::Activity a;
    a.lane = lane;
    a.kind = kind;
    a.start_ns = start;
    a.end_ns = end;
    a.bytes = x.bytes;
    a.flops = x.flops;
    a.copy = x.copy;
    a.name = x.name;
    a.correlation = x.correlation;
    return a;
}

// A kernel with its work: FLOPs / bytes against the ridge point decides
// compute- or memory-bound (docs/attribution.md, Memory- or compute-bound kernels).
inline trace::Activity kernel(std::uint16_t lane, std::int64_t start, std::int64_t end,
                              double flops, std::uint64_t bytes) {
    return act(lane, trace::ActivityKind::Kernel, start, end,
               {.bytes = bytes, .flops = static_cast<float>(flops)});
}

}  // namespace tokenscope::test
