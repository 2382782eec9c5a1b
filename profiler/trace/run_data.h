#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "activity.h"
#include "counter_sample.h"
#include "diagnostic.h"
#include "graph_table.h"
#include "lane.h"
#include "launch_table.h"
#include "request.h"
#include "run_info.h"
#include "step.h"
#include "string_table.h"

namespace tokenscope::trace {

// One run fully in memory: what analysis works on.
struct RunData {
    RunInfo info;
    StringTable strings;
    std::vector<Lane> lanes;
    std::vector<Activity> activities;
    std::vector<Step> steps;
    std::vector<Request> requests;
    std::vector<CounterSample> counters;
    std::vector<Diagnostic> diagnostics;
    // Launch facts of kernels by correlation; whoever fills it calls launches.finish().
    LaunchTable launches;
    // CUDA graph and node of the GPU activities that ran in a graph, by lane and
    // start; whoever fills it calls graphs.finish().
    GraphTable graphs;

    std::string_view name_of(const Activity& a) const { return strings.str(a.name); }
    // Activities carry no device of their own: it is their lane's (-1 = host or unknown,
    // also for a lane index out of range).
    std::int32_t device_of(const Activity& a) const {
        return a.lane < lanes.size() ? lanes[a.lane].device : -1;
    }
    // Adds value to the diagnostic of that name, creating it if needed.
    void count_diagnostic(std::string_view name, Severity severity, double value,
                          std::string_view text);
};

}  // namespace tokenscope::trace
