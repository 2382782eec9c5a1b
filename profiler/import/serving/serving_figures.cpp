#include "serving_figures.h"

#include <vector>

#include "import/client/client_json.h"
#include "import/client/summary_metrics.h"
#include "import/client/tool_figures.h"

namespace tokenscope::import::serving {
namespace {

struct ServingMetric {
    const char* ours;
    const char* vllm_key;  // {stat}_{key}_ms
    const char* sglang_key;
    const char* label;
    const char* definition;
};

constexpr ServingMetric kServingMetrics[] = {
    {"ttft", "ttft", "ttft", "TTFT", "first token - request start"},
    {"tpot", "tpot", "tpot", "TPOT",
     "per request (latency - TTFT) / (output tokens - 1), requests of one token left out"},
    {"itl", "itl", "itl", "ITL", "the gaps between consecutive streamed chunks, all requests"},
    {"e2e", "e2el", "e2e_latency", "E2E latency", "end of the stream - request start"},
};

// The tool's name of a statistic, and ours.
constexpr std::pair<const char*, const char*> kServingStats[] = {{"mean", "mean"},  {"std", "std"},
                                                                 {"median", "p50"}, {"p90", "p90"},
                                                                 {"p95", "p95"},    {"p99", "p99"}};

std::string key_of(ServingTool tool, const ServingMetric& m, const char* stat) {
    return std::string(stat) + "_" + (tool == ServingTool::Vllm ? m.vllm_key : m.sglang_key) +
           "_ms";
}

}  // namespace

ServingTool serving_tool(const nlohmann::json& result) {
    for (const char* key :
         {"mean_e2e_latency_ms", "total_output_tokens_retokenized", "dataset_name"})
        if (result.contains(key)) return ServingTool::Sglang;
    return ServingTool::Vllm;
}

const char* tool_name(ServingTool tool) {
    return tool == ServingTool::Vllm ? "vLLM bench serve" : "SGLang bench_serving";
}

void add_serving_figures(trace::RunData& run, const nlohmann::json& result,
                         const std::string& file) {
    const ServingTool tool = serving_tool(result);
    const std::string name = tool == ServingTool::Vllm ? "vLLM" : "SGLang";
    std::vector<client::ToolFigure> figures;
    for (const auto& m : kServingMetrics)
        for (const auto& [theirs, ours] : kServingStats) {
            const std::string key = key_of(tool, m, theirs);
            auto v = client::number(result, key);
            if (!v) continue;
            figures.push_back({tool_name(tool),
                               file,
                               key,
                               name + " " + m.label,
                               m.definition,
                               m.ours,
                               ours,
                               true,
                               *v * 1e6,
                               std::nullopt,
                               {}});
        }
    client::write_tool_figures(run, figures);
}

trace::RunData summary_only_run(const nlohmann::json& result) {
    const ServingTool tool = serving_tool(result);
    client::SummaryMetrics s;
    for (const auto& m : kServingMetrics) {
        nlohmann::json stats = nlohmann::json::object();
        for (const auto& [theirs, ours] : kServingStats)
            if (auto v = client::number(result, key_of(tool, m, theirs))) stats[ours] = *v;
        if (auto c = client::number(result, "completed")) stats["count"] = *c;
        s.set(m.ours, stats, {"mean", "std"}, 1e6);
    }
    trace::RunData run;
    run.info.source = trace::Source::Bench;
    run.info.clock = trace::ClockDomain::SourceFile;
    run.info.complete = true;
    nlohmann::json header = {{"format", "bench"}};
    for (const auto& [key, value] : result.items())
        if (!value.is_array() && !value.is_object()) header[key] = value;
    run.info.workload_json = header.dump();
    if (s.empty()) throw std::invalid_argument("result without latency statistics");
    s.write(run, tool_name(tool),
            "run it with --output-details for the per-request data (ttfts, itls)");
    return run;
}

}  // namespace tokenscope::import::serving
