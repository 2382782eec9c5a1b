#include "trace_start_backlog.h"

#include <cstdio>
#include <limits>
#include <unordered_map>

namespace tokenscope::import {

void note_trace_start_backlog(trace::RunData& run, std::int64_t threshold_ns) {
    // The first GPU operation of each stream lane, and every launch call by correlation.
    constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();
    std::vector<std::size_t> first(run.lanes.size(), kNone);
    std::unordered_map<std::uint32_t, std::int64_t> call_end;
    for (std::size_t i = 0; i < run.activities.size(); ++i) {
        const auto& a = run.activities[i];
        if (trace::is_gpu_operation(a.kind) && a.lane < first.size() &&
            (first[a.lane] == kNone || a.start_ns < run.activities[first[a.lane]].start_ns))
            first[a.lane] = i;
        if (a.kind == trace::ActivityKind::Api && a.correlation != 0)
            call_end.emplace(a.correlation, a.end_ns);
    }
    std::int64_t longest = 0;
    std::size_t streams = 0;
    for (std::size_t i : first) {
        if (i == kNone) continue;
        const auto& a = run.activities[i];
        auto call = call_end.find(a.correlation);
        if (a.correlation == 0 || call == call_end.end()) continue;
        const std::int64_t wait = a.start_ns - call->second;
        if (wait <= threshold_ns) continue;
        ++streams;
        longest = std::max(longest, wait);
    }
    if (streams == 0) return;
    char text[320];
    std::snprintf(text, sizeof text,
                  "the first traced GPU operation of %zu stream%s started up to %.3f ms after "
                  "its launch with nothing traced ahead of it: the GPU was most likely still "
                  "running work launched before the trace began, which the attribution shows "
                  "as idle (scheduling)",
                  streams, streams == 1 ? "" : "s", static_cast<double>(longest) / 1e6);
    run.count_diagnostic("trace_start_backlog", trace::Severity::Info,
                         static_cast<double>(longest) / 1e6, text);
}

}  // namespace tokenscope::import
