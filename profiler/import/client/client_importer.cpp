#include "client_importer.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "aiperf_parser.h"
#include "client_json.h"
#include "guidellm_parser.h"
#include "import/file_source.h"
#include "import/import_error.h"
#include "llmperf_parser.h"

namespace tokenscope::import {
namespace {

bool has(std::string_view head, std::string_view key) {
    return head.find(key) != std::string_view::npos;
}

std::string run_name(const std::string& path) {
    std::string name = path.substr(path.find_last_of('/') + 1);
    for (std::string_view ext : {".gz", ".jsonl", ".json"})
        if (name.size() > ext.size() && name.ends_with(ext)) name.resize(name.size() - ext.size());
    return name;
}

const char* kind_name(ClientImporter::Kind kind) {
    switch (kind) {
        case ClientImporter::Kind::AiperfRecords:
            return "aiperf_records";
        case ClientImporter::Kind::GenaiPerfExport:
            return "genai_perf_export";
        case ClientImporter::Kind::AiperfSummary:
            return "aiperf_summary";
        case ClientImporter::Kind::Guidellm:
            return "guidellm";
        case ClientImporter::Kind::LlmperfResponses:
            return "llmperf_responses";
        case ClientImporter::Kind::LlmperfSummary:
            return "llmperf_summary";
        case ClientImporter::Kind::None:
            break;
    }
    return "none";
}

}  // namespace

ClientImporter::Kind ClientImporter::detect(std::string_view head) {
    std::size_t first = head.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos) return Kind::None;
    // Other importers' formats: Chrome/Kineto traces and vLLM's bench results.
    if (has(head, "\"traceEvents\"") || has(head, "\"ttfts\"") || has(head, "\"mean_ttft_ms\""))
        return Kind::None;
    if (head[first] == '[')
        return has(head, "\"ttft_s\"") || has(head, "\"end_to_end_latency_s\"")
                   ? Kind::LlmperfResponses
                   : Kind::None;
    if (head[first] != '{') return Kind::None;
    if (has(head, "\"metadata\"") && has(head, "\"metrics\"") &&
        (has(head, "\"request_start_ns\"") || has(head, "\"session_num\"")))
        return Kind::AiperfRecords;
    if (has(head, "\"experiments\"") &&
        (has(head, "\"response_timestamps\"") || has(head, "\"service_kind\"")))
        return Kind::GenaiPerfExport;
    if (has(head, "\"benchmarks\"") &&
        (has(head, "generative_benchmark") || has(head, "\"guidellm_version\"") ||
         has(head, "\"time_to_first_token_ms\"") || has(head, "\"scheduler_metrics\"")))
        return Kind::Guidellm;
    if (has(head, "\"results_ttft_s_") || has(head, "\"results_end_to_end_latency_s_"))
        return Kind::LlmperfSummary;
    if ((has(head, "\"time_to_first_token\"") || has(head, "\"request_latency\"")) &&
        has(head, "\"unit\"") && has(head, "\"avg\""))
        return Kind::AiperfSummary;
    return Kind::None;
}

namespace {

// Wall-clock creation time only where the times are epoch times (after 2001), not
// LLMPerf's synthesised ones.
void set_created(trace::RunData& run) {
    constexpr std::int64_t kEpoch2001Ns = 978'307'200'000'000'000;
    auto arrival = [](const trace::Request& a, const trace::Request& b) {
        return a.arrival_ns < b.arrival_ns;
    };
    if (run.requests.empty()) return;
    std::int64_t first =
        std::min_element(run.requests.begin(), run.requests.end(), arrival)->arrival_ns;
    if (first > kEpoch2001Ns) run.info.created_ns = first;
}

std::vector<trace::RunData> parse_document(const std::string& path, ClientImporter::Kind kind,
                                           trace::RunData& run, const trace::ProgressFn& progress) {
    using Kind = ClientImporter::Kind;
    json::Tree tree;
    const json::Value root = client::read_document(path, tree, progress);
    if (kind == Kind::Guidellm) return client::GuidellmParser(path, run).report(root);
    if (kind == Kind::GenaiPerfExport) client::AiperfParser(path, run).genai_perf_export(root);
    if (kind == Kind::AiperfSummary) client::AiperfParser(path, run).summary(root);
    if (kind == Kind::LlmperfResponses) client::LlmperfParser(path, run).individual_responses(root);
    if (kind == Kind::LlmperfSummary) client::LlmperfParser(path, run).summary(root);
    std::vector<trace::RunData> runs;
    runs.push_back(std::move(run));
    return runs;
}

}  // namespace

std::vector<trace::RunData> ClientImporter::import_all(const std::string& path,
                                                       const ImportOptions&,
                                                       const trace::ProgressFn& progress) const {
    Kind kind;
    {
        FileSource source(path);
        kind = detect(source.head(64 * 1024));
    }
    if (kind == Kind::None) throw ImportError(path, "not a client benchmark result");
    trace::RunData run;
    run.info.source = trace::Source::Bench;
    run.info.clock = trace::ClockDomain::SourceFile;
    run.info.complete = true;
    run.info.name = run_name(path);
    run.info.workload_json = nlohmann::json{{"format", "client"}, {"kind", kind_name(kind)}}.dump();
    std::vector<trace::RunData> runs;
    try {
        if (kind == Kind::AiperfRecords) {
            client::AiperfParser(path, run).records(progress);
            runs.push_back(std::move(run));
        } else {
            runs = parse_document(path, kind, run, progress);
        }
    } catch (const nlohmann::json::exception& e) {
        throw ImportError(path, std::string("unexpected value in the results: ") + e.what());
    }
    for (auto& r : runs) set_created(r);
    return runs;
}

trace::RunData ClientImporter::import(const std::string& path, const ImportOptions& options,
                                      const trace::ProgressFn& progress) const {
    auto runs = import_all(path, options, progress);
    if (runs.size() > 1)
        runs.front().count_diagnostic(
            "client_results_in_file", trace::Severity::Info, static_cast<double>(runs.size()),
            "results (benchmarks) in the file: this run is the first; opened as a file (stats, "
            "info, import, the GUI) each is a run of its own");
    return std::move(runs.front());
}

}  // namespace tokenscope::import
