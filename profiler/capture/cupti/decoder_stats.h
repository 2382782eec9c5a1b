#pragma once

#include <cstdint>

namespace tokenscope::capture::cupti {

struct DecoderStats {
    std::int64_t records = 0;     // every record seen
    std::int64_t activities = 0;  // activities written
    std::int64_t steps = 0;       // steps written from NVTX ranges
    // A zero timestamp, or end < start: CUPTI could not time it (out of device
    // memory for timestamps, or the capture stopped first). Skipped, counted.
    std::int64_t incomplete = 0;
    std::int64_t other_kinds = 0;          // kinds the decoder does not turn into activities
    std::int64_t unterminated_ranges = 0;  // NVTX starts without an end at finish()
    std::int64_t orphan_range_ends = 0;    // NVTX ends without a start at finish()
    std::int64_t unattributed_syncs = 0;   // syncs whose API call never arrived
    std::int64_t graph_activities = 0;     // GPU work that ran as a CUDA graph node
};

}  // namespace tokenscope::capture::cupti
