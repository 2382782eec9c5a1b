#pragma once

#include <optional>
#include <string>
#include <vector>

#include "guidellm_window.h"
#include "json/tree.h"
#include "trace/run_data.h"

namespace tokenscope::import::client {

// guidellm's benchmark report (benchmarks.json). Field names from
// vllm-project/guidellm: src/guidellm/benchmark/schemas/report.py
// (GenerativeBenchmarksReport.benchmarks), benchmark/schemas/benchmark.py
// (GenerativeBenchmark.requests: successful / incomplete / errored, metrics),
// src/guidellm/schemas/request_stats.py (GenerativeRequestStats: request_id,
// info, prompt_tokens, output_tokens), src/guidellm/schemas/info.py
// (RequestTimings: request_start, first_token_iteration, last_token_iteration,
// request_end, Unix seconds; RequestInfo.error) and, for reports of guidellm
// before its benchmark refactor (commit 7829fb8e), src/guidellm/benchmark/
// benchmark.py (GenerativeTextResponseStats: start_time, first_token_time,
// last_token_time, end_time; GenerativeTextErrorStats.error). Statistics:
// benchmark/schemas/metrics.py (GenerativeMetrics.time_to_first_token_ms,
// inter_token_latency_ms, request_latency) and schemas/statistics.py
// (DistributionSummary: mean, std_dev, min, max, count, percentiles.p50...).
// Each benchmark (one strategy or load level) with request samples is a run of its
// own; its requests outside guidellm's measurement window are kept and named as such
// (guidellm_window.h), and its statistics become guidellm's own figures beside ours.
class GuidellmParser {
  public:
    // `base`: the run every benchmark starts from (its info filled in).
    GuidellmParser(const std::string& path, const trace::RunData& base)
        : path_(path), base_(base) {}
    std::vector<trace::RunData> report(json::Value root);

  private:
    // nullopt when the benchmark lists no request.
    std::optional<trace::RunData> benchmark_run(json::Value benchmark, std::size_t index,
                                                std::size_t count);
    void window_and_figures(trace::RunData& run, json::Value benchmark,
                            const std::vector<GuidellmTimes>& times) const;
    trace::RunData statistics(json::Value benchmarks);

    const std::string& path_;
    const trace::RunData& base_;
};

}  // namespace tokenscope::import::client
