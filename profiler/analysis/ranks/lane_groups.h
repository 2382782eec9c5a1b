#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "trace/run_data.h"

namespace tokenscope::analysis {

// Lanes grouped the way a multi-GPU trace reads (docs/engine-traces.md, Several GPUs and ranks): by
// rank where the lanes name one (a merged run), else by process, then by GPU: a group holds a
// rank's host lanes (device -1) or one of its GPUs' streams, copy engines and
// counters. The step track belongs to no group. The one home of this rule for the
// timeline's collapsible groups and the heatmap's rows by rank.
struct LaneGroup {
    std::int32_t rank = -1;          // -1 when the run's lanes name no rank
    std::int64_t process = 0;        // the group's process where ranks are unknown, else 0
    std::int32_t device = -1;        // -1: host lanes
    std::string label;               // "rank 1 · GPU 0", "process 4242 · CPU", "GPU 3"
    std::vector<std::size_t> lanes;  // indices into run.lanes, in run order
};

// Groups ordered by rank (or process), host before GPUs, GPUs by ordinal.
std::vector<LaneGroup> lane_groups(const trace::RunData& run);
// Index into lane_groups(run) of each lane; -1 for lanes in no group (the step track).
std::vector<int> lane_group_index(const std::vector<LaneGroup>& groups, std::size_t lane_count);
// "rank 3" for a lane with a rank, else "" (the heatmap's row key by rank).
std::string rank_label(const trace::Lane& lane);

}  // namespace tokenscope::analysis
