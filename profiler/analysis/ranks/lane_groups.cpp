#include "lane_groups.h"

#include <algorithm>
#include <map>
#include <set>

namespace tokenscope::analysis {

std::vector<LaneGroup> lane_groups(const trace::RunData& run) {
    const bool ranked = std::any_of(run.lanes.begin(), run.lanes.end(),
                                    [](const trace::Lane& l) { return l.rank >= 0; });
    std::set<std::int64_t> processes;
    for (const auto& l : run.lanes)
        if (l.kind != trace::LaneKind::StepTrack && l.process != 0) processes.insert(l.process);
    const bool by_process = !ranked && processes.size() > 1;
    // Key: (rank or process, device); std::map orders it as documented.
    std::map<std::pair<std::int64_t, std::int32_t>, LaneGroup> groups;
    for (std::size_t i = 0; i < run.lanes.size(); ++i) {
        const trace::Lane& l = run.lanes[i];
        if (l.kind == trace::LaneKind::StepTrack) continue;
        const std::int64_t owner = ranked ? l.rank : (by_process ? l.process : 0);
        const std::int32_t device = std::max(l.device, -1);
        LaneGroup& g = groups[{owner, device}];
        if (g.lanes.empty()) {
            g.rank = ranked ? l.rank : -1;
            g.process = by_process ? l.process : 0;
            g.device = device;
            std::string who = ranked ? (l.rank >= 0 ? "rank " + std::to_string(l.rank) : "no rank")
                                     : (by_process ? "process " + std::to_string(l.process) : "");
            std::string what = device >= 0 ? "GPU " + std::to_string(device) : "CPU";
            g.label = who.empty() ? what : who + " \u00b7 " + what;
        }
        g.lanes.push_back(i);
    }
    std::vector<LaneGroup> out;
    for (auto& [key, g] : groups) out.push_back(std::move(g));
    return out;
}

std::vector<int> lane_group_index(const std::vector<LaneGroup>& groups, std::size_t lane_count) {
    std::vector<int> out(lane_count, -1);
    for (std::size_t g = 0; g < groups.size(); ++g)
        for (std::size_t lane : groups[g].lanes)
            if (lane < lane_count) out[lane] = static_cast<int>(g);
    return out;
}

std::string rank_label(const trace::Lane& lane) {
    return lane.rank >= 0 ? "rank " + std::to_string(lane.rank) : std::string();
}

}  // namespace tokenscope::analysis
