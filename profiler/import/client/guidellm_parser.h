#pragma once

#include <nlohmann/json.hpp>
#include <string>

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
class GuidellmParser {
  public:
    GuidellmParser(const std::string& path, trace::RunData& run) : path_(path), run_(run) {}
    void report(const nlohmann::json& root);

  private:
    bool requests(const nlohmann::json& benchmarks);
    void statistics(const nlohmann::json& benchmarks);

    const std::string& path_;
    trace::RunData& run_;
};

}  // namespace tokenscope::import::client
