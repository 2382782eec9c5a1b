#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "activity.h"
#include "activity_totals.h"
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

// What a run read without its activities still has in its file (a summarised run opened
// for a command that needs only their totals: store::LoadParts, import::ImportOptions).
struct ActivitiesInFile {
    ActivityTotals totals;
    std::int64_t launches = 0;          // kernels with launch facts
    std::int64_t graph_activities = 0;  // activities that ran as CUDA graph nodes
};

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
    // Set only when the activities were left in the file: activities, launches and graphs
    // are then empty, and this says what they hold.
    std::optional<ActivitiesInFile> in_file;

    std::string_view name_of(const Activity& a) const { return strings.str(a.name); }
    // Activities carry no device of their own: it is their lane's (-1 = host or unknown,
    // also for a lane index out of range).
    std::int32_t device_of(const Activity& a) const {
        return a.lane < lanes.size() ? lanes[a.lane].device : -1;
    }
    // The activities' totals: the file's when they were left there, else counted.
    ActivityTotals activity_totals() const {
        return in_file ? in_file->totals : count_activities(activities);
    }
    std::int64_t launch_count() const {
        return in_file ? in_file->launches : static_cast<std::int64_t>(launches.size());
    }
    std::int64_t graph_activity_count() const {
        return in_file ? in_file->graph_activities : static_cast<std::int64_t>(graphs.size());
    }
    // Adds value to the diagnostic of that name, creating it if needed.
    void count_diagnostic(std::string_view name, Severity severity, double value,
                          std::string_view text);
};

}  // namespace tokenscope::trace
