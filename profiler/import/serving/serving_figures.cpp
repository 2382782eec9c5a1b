#include "serving_figures.h"

#include <nlohmann/json.hpp>
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

ServingTool serving_tool(json::Value result) {
    for (const char* key :
         {"mean_e2e_latency_ms", "total_output_tokens_retokenized", "dataset_name"})
        if (result.find(key)) return ServingTool::Sglang;
    return ServingTool::Vllm;
}

const char* tool_name(ServingTool tool) {
    return tool == ServingTool::Vllm ? "vLLM bench serve" : "SGLang bench_serving";
}

void add_serving_figures(trace::RunData& run, json::Value result, const std::string& file) {
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

trace::RunData summary_only_run(json::Value result) {
    const ServingTool tool = serving_tool(result);
    client::SummaryMetrics s;
    for (const auto& m : kServingMetrics) {
        auto stat = [&](const char* theirs) {
            return client::number(result, key_of(tool, m, theirs));
        };
        client::SummaryMetrics::Stats stats;
        stats.mean = stat("mean");
        stats.std = stat("std");
        stats.p50 = stat("median");
        stats.p90 = stat("p90");
        stats.p95 = stat("p95");
        stats.p99 = stat("p99");
        stats.count = client::number(result, "completed");
        s.set(m.ours, stats, 1e6);
    }
    trace::RunData run;
    run.info.source = trace::Source::Bench;
    run.info.clock = trace::ClockDomain::SourceFile;
    run.info.complete = true;
    run.info.workload_json = result_header(result);
    if (s.empty()) throw std::invalid_argument("result without latency statistics");
    s.write(run, tool_name(tool),
            "run it with --output-details for the per-request data (ttfts, itls)");
    return run;
}

std::string result_header(json::Value result) {
    nlohmann::json header = {{"format", "bench"}};
    for (std::size_t i = 0; i < result.size() && result.is_object(); ++i) {
        const json::Value v = result.value_at(i);
        if (!v.is_array() && !v.is_object())
            header[std::string(result.key_at(i))] = client::to_nlohmann(v);
    }
    return header.dump();
}

}  // namespace tokenscope::import::serving
