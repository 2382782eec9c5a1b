#pragma once

#include <map>
#include <string>
#include <vector>

#include "trace/run_data.h"

namespace tokenscope::import {

// Serving-benchmark and load-generator results as sweep points (docs/sweeps.md, Views):
// vLLM `bench serve` results, SGLang bench_serving JSONL (a line per run), guidellm
// reports (a benchmark per strategy or rate), AIPerf / GenAI-Perf exports and LLMPerf
// responses, given as files or as folders of them (serving/result_files.h).
// Each result is a point whose parameters are the load it was run at: request_rate
// (when finite), max_concurrency (when set), strategy (guidellm), model_id where the
// file names it. A point has one run, or several where the tool says they repeat one
// configuration: AIPerf's multi-run folders (<name>/profile_runs/run_NNNN, as
// --num-profile-runs writes them) and lines of one file with the same parameters.
// Results with summary statistics only are left out (a point needs its requests).
struct ServingResultPoint {
    std::string path;  // the file, or the AIPerf multi-run folder
    std::map<std::string, std::string> params;
    std::vector<trace::RunData> runs;  // its repeats
};

// Throws ImportError naming a file that is not such a result, or a folder without any.
std::vector<ServingResultPoint> import_serving_points(const std::vector<std::string>& paths);

}  // namespace tokenscope::import
