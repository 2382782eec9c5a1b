#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "json/tree.h"
#include "trace/run_data.h"

namespace tokenscope::import::client {

// LLMPerf (ray-project/llmperf) results. Field names from
// src/llmperf/common_metrics.py (ttft_s, end_to_end_latency_s,
// inter_token_latency_s, number_input_tokens, number_output_tokens, error_code,
// error_msg) as token_benchmark_ray.py writes them: *_individual_responses.json
// is a JSON array of those per-request dicts, *_summary.json the flattened
// (flatten_dict, sep "_") metrics_summary: results_<metric>_quantiles_p50,
// results_<metric>_mean, _min, _max, _stddev, results_num_completed_requests.
// The summary written beside the records (token_benchmark_ray.py names them
// <name>_individual_responses.json and <name>_summary.json) gives LLMPerf's own
// figures, kept beside ours (tool_figures.h).
class LlmperfParser {
  public:
    LlmperfParser(const std::string& path, trace::RunData& run) : path_(path), run_(run) {}
    void individual_responses(json::Value root);
    void summary(json::Value root);

  private:
    // Per-request values of the successful records, by LLMPerf's key.
    struct Values {
        std::vector<double> ttft_s, inter_token_latency_s, end_to_end_latency_s;
        std::int64_t completed = 0;
    };
    void figures_beside(const Values& values);

    const std::string& path_;
    trace::RunData& run_;
};

}  // namespace tokenscope::import::client
