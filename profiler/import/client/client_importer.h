#pragma once

#include <string>
#include <string_view>

#include "import/importer.h"

namespace tokenscope::import {

// Client-side benchmark results, recognised by content: AIPerf's per-record
// profile_export.jsonl, GenAI-Perf's (perf_analyzer's) profile_export.json,
// their summaries (profile_export_aiperf.json, profile_export_genai_perf.json),
// guidellm's benchmark report, LLMPerf's *_individual_responses.json and
// *_summary.json. Each request becomes a trace::Request with one step per
// streamed token or chunk, at the absolute times the tool writes (epoch ns for
// AIPerf and GenAI-Perf, Unix seconds for guidellm); failed requests are marked
// failed. Summary-only files open without requests, their distributions in the
// workload JSON (see client/summary_metrics.h). Where the tool's own figures sit in
// the file or in a summary beside it they are kept beside ours (client/tool_figures.h),
// and requests outside the tool's measurement window are kept and named as such.
// vLLM's `bench serve` and SGLang's `bench_serving` results stay with ServingImporter.
class ClientImporter : public Importer {
  public:
    enum class Kind {
        None,
        AiperfRecords,
        GenaiPerfExport,
        AiperfSummary,
        Guidellm,
        LlmperfResponses,
        LlmperfSummary
    };
    static Kind detect(std::string_view head);

    std::string_view format() const override { return "client"; }
    bool accepts(std::string_view head) const override { return detect(head) != Kind::None; }
    trace::RunData import(const std::string& path, const ImportOptions& options,
                          const trace::ProgressFn& progress) const override;
    // A guidellm report gives one run per benchmark (guidellm_parser.h).
    std::vector<trace::RunData> import_all(const std::string& path, const ImportOptions& options,
                                           const trace::ProgressFn& progress) const override;
};

}  // namespace tokenscope::import
