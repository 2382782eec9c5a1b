#pragma once

#include <string>

#include "json/tree.h"
#include "trace/run_data.h"

namespace tokenscope::import::serving {

// Which benchmark wrote a serving result. vLLM's benchmarks/benchmark_serving.py (and
// `vllm bench serve`) and SGLang's python/sglang/bench_serving.py (adapted from it) write
// the same per-request arrays (input_lens, output_lens, ttfts, itls, errors); SGLang's
// result (bench_serving.py, benchmark(): the `result` dict, one JSON line appended to
// --output-file per run, with the arrays under --output-details) has keys vLLM's lacks:
// mean_e2e_latency_ms (vLLM: mean_e2el_ms), total_output_tokens_retokenized, dataset_name.
enum class ServingTool { Vllm, Sglang };
ServingTool serving_tool(json::Value result);
const char* tool_name(ServingTool tool);  // "vLLM bench serve", "SGLang bench_serving"

// The summary figures the benchmark computed from the same arrays,
// {mean,median,std,p50,p90,p95,p99}_{ttft,tpot,itl,e2el | e2e_latency}_ms, kept beside
// ours (import/client/tool_figures.h). Both tools define them as docs/metrics.md does
// (calculate_metrics: ttfts; tpot = (latency - ttft) / (output_len - 1); itls flattened;
// numpy mean, median, std, percentile), so a difference over 1 % is flagged.
void add_serving_figures(trace::RunData& run, json::Value result, const std::string& file);

// An SGLang result line without the per-request arrays (no --output-details): a run
// without requests whose summary_metrics hold SGLang's distributions
// (import/client/summary_metrics.h).
trace::RunData summary_only_run(json::Value result);

// The scalar members of a result (its parameters and summary figures) as the
// workload JSON of its run: {"format": "bench", ...}.
std::string result_header(json::Value result);

}  // namespace tokenscope::import::serving
