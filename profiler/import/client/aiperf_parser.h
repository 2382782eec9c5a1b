#pragma once

#include <string>

#include "json/tree.h"
#include "trace/progress.h"
#include "trace/run_data.h"

namespace tokenscope::import::client {

// NVIDIA's load generators. Field names from the public sources:
// - AIPerf per-record JSONL (profile_export.jsonl): ai-dynamo/aiperf
//   aiperf/common/models/record_models.py (MetricRecordInfo: metadata, metrics,
//   error; MetricRecordMetadata: request_start_ns, request_end_ns in epoch ns,
//   x_request_id, benchmark_phase, was_cancelled) and the metric tags of
//   aiperf/metrics/types/*.py (time_to_first_token, inter_chunk_latency,
//   output_sequence_length, input_sequence_length; each {value, unit}), layout
//   shown in docs/tutorials/working-with-profile-exports.md.
// - GenAI-Perf per-request export (perf_analyzer's profile_export.json):
//   triton-inference-server/perf_analyzer
//   genai-perf/genai_perf/profile_data_parser/llm_profile_data_parser.py
//   (experiments[].requests[]: timestamp, response_timestamps, response_outputs).
// - Summaries (profile_export_aiperf.json, profile_export_genai_perf.json):
//   aiperf/common/models/export_models.py (JsonMetricResult: unit, avg, p50...,
//   min, max, std) and genai-perf genai_perf/metrics/statistics.py (same keys). The
//   summary beside the records (profile_export_aiperf.json beside profile_export.jsonl,
//   profile_export_genai_perf.json beside profile_export.json) gives the tool's own
//   figures, kept beside ours (tool_figures.h). Records of AIPerf's warm-up phase are
//   left out, as AIPerf leaves them out of its figures: only the profiling phase counts.
class AiperfParser {
  public:
    AiperfParser(const std::string& path, trace::RunData& run) : path_(path), run_(run) {}
    // profile_export.jsonl, streamed line by line.
    void records(const trace::ProgressFn& progress);
    // perf_analyzer's profile_export.json as GenAI-Perf reads it.
    void genai_perf_export(json::Value root);
    // profile_export_aiperf.json / profile_export_genai_perf.json.
    void summary(json::Value root);

  private:
    // The tool's summary beside the records (stem + suffix), as its own figures.
    void figures_beside(const std::string& tool, const std::string& suffix);

    const std::string& path_;
    trace::RunData& run_;
};

}  // namespace tokenscope::import::client
