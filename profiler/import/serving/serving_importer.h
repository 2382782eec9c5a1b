#pragma once

#include <string>
#include <string_view>

#include "import/importer.h"

namespace tokenscope::import {

// Results JSON of vLLM's benchmarks/benchmark_serving.py (--save-result, with
// per-request arrays) and of SGLang's python/sglang/bench_serving.py (a JSONL file, one
// result per line, with the arrays under --output-details; a line without them opens as
// a summary-only run). Requests and their token steps are rebuilt from ttfts and itls;
// there are no activities. The tool's own summary figures (mean_ttft_ms, ...) are kept
// beside ours (serving/serving_figures.h). Without per-request start times the
// arrivals are laid out from 0 at request_rate spacing (i / rate seconds, all
// at 0 for an infinite rate) and an info diagnostic says they are synthesised.
class ServingImporter : public Importer {
  public:
    std::string_view format() const override { return "bench"; }
    bool accepts(std::string_view head) const override;
    trace::RunData import(const std::string& path, const ImportOptions& options,
                          const trace::ProgressFn& progress) const override;
    // One run per result: SGLang's bench_serving appends a JSON line per run.
    std::vector<trace::RunData> import_all(const std::string& path, const ImportOptions& options,
                                           const trace::ProgressFn& progress) const override;
};

}  // namespace tokenscope::import
