#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "json/tree.h"
#include "tool_figures.h"

namespace tokenscope::import::client {

// guidellm's measurement window and its own figures, as vllm-project/guidellm computes
// them: src/guidellm/benchmark/schemas/metrics.py (GenerativeMetrics.compile takes the
// requests of accumulator.{completed,incomplete,errored}.get_within_range(measure_start,
// measure_end)), benchmark/schemas/accumulator.py (get_within_range: a request counts
// when request_end_time >= measure start and request_start_time <= measure end, or, with
// no start time, request_end_time <= measure end) and schemas/request_stats.py
// (request_start_time = request_start or resolve_start; request_end_time = request_end
// or resolve_end). The report lists every request; its metrics are those of the window,
// whose bounds are scheduler_metrics.measure_start_time / measure_end_time.

// One request of a benchmark as guidellm's statistics see it; Unix seconds.
struct GuidellmTimes {
    std::optional<double> start, request_end;  // info.timings.request_start / request_end
    std::optional<double> first, last;         // first / last_token_iteration
    std::optional<double> window_start, end;   // request_start_time / request_end_time
    std::optional<double> output_tokens;
    bool successful = false;
    std::int64_t id = 0;  // the run's request id; 0 when the request was left out
};
GuidellmTimes guidellm_times(json::Value request, bool successful);

struct GuidellmBounds {
    double start = 0, end = 0;
};
// nullopt for reports without scheduler_metrics (guidellm before its benchmark refactor)
// or without both bounds.
std::optional<GuidellmBounds> guidellm_bounds(json::Value benchmark);
bool inside_window(const GuidellmTimes& t, const GuidellmBounds& b);

// The requests outside: warm-up (ended before the window) and cool-down (started after).
MeasurementWindow guidellm_window(const GuidellmBounds& b,
                                  const std::vector<GuidellmTimes>& requests);

// guidellm's own TTFT, inter-token latency, time per output token and request latency
// (metrics.<name>.successful: mean and percentiles) with their rules recomputed on the
// successful requests inside the window.
std::vector<ToolFigure> guidellm_figures(json::Value benchmark,
                                         const std::vector<GuidellmTimes>& inside_successful,
                                         const std::string& file);

}  // namespace tokenscope::import::client
