#include "llmperf_parser.h"

#include <cmath>

#include "client_json.h"
#include "import/import_error.h"
#include "request_builder.h"
#include "summary_metrics.h"
#include "tool_figures.h"

namespace tokenscope::import::client {
namespace {

// LLMPerf keeps no start times (time.monotonic() stays in the client) and no
// per-token times: a request arrives at `arrival`, its first token TTFT later,
// its other tokens evenly spaced up to the end-to-end latency.
ClientRequest llmperf_request(Value rec, std::int64_t arrival) {
    ClientRequest r;
    r.arrival_ns = arrival;
    r.input_len = length(number(rec, "number_input_tokens"));
    r.output_len = length(number(rec, "number_output_tokens"));
    const Value code = child(rec, "error_code");
    if (code && !code.is_null()) {
        r.failed = true;
        r.error = text(rec, "error_code") + " " + text(rec, "error_msg");
        return r;
    }
    auto ttft = number(rec, "ttft_s");
    if (!ttft) return r;
    auto first = to_ns(*ttft, 1e9);
    if (!first) return r;
    std::optional<std::int64_t> end;
    if (auto e2e = number(rec, "end_to_end_latency_s")) end = to_ns(*e2e, 1e9);
    auto first_at = add_ns(arrival, *first);
    if (!first_at) return r;
    r.emissions.push_back(*first_at);
    constexpr std::int32_t kMaxInterpolated = 1 << 20;
    const std::int32_t n = r.output_len;
    // A negative TTFT or an end before the first token is left to RequestBuilder
    // to count; nothing is interpolated across it.
    if (!end || n <= 1 || n > kMaxInterpolated || *first < 0 || *end < *first ||
        !add_ns(arrival, *end))
        return r;
    const double span = static_cast<double>(*end - *first);
    for (std::int32_t i = 1; i < n; ++i)
        r.emissions.push_back(arrival + *first + std::llround(span * i / (n - 1)));
    return r;
}

}  // namespace

void LlmperfParser::individual_responses(Value root) {
    if (!root.is_array()) throw ImportError(path_, "LLMPerf individual responses are not an array");
    RequestBuilder builder(run_);
    Values values;
    std::int64_t arrival = 0, skipped = 0;
    for (std::size_t i = 0; i < root.size(); ++i) {
        const Value rec = root[i];
        if (!rec.is_object()) {
            ++skipped;
            continue;
        }
        ClientRequest r = llmperf_request(rec, arrival);
        // End to end, as if one request at a time: the file has no arrivals.
        auto e2e = number(rec, "end_to_end_latency_s");
        auto e2e_ns = e2e && *e2e > 0 ? to_ns(*e2e, 1e9) : std::nullopt;
        if (auto next = e2e_ns ? add_ns(arrival, *e2e_ns) : std::nullopt) arrival = *next;
        if (!r.failed) {
            // LLMPerf's summary: the records without error_code, NaN dropped per metric.
            ++values.completed;
            if (auto v = number(rec, "ttft_s")) values.ttft_s.push_back(*v * 1e9);
            if (auto v = number(rec, "inter_token_latency_s"))
                values.inter_token_latency_s.push_back(*v * 1e9);
            if (e2e) values.end_to_end_latency_s.push_back(*e2e * 1e9);
        }
        builder.add(r);
    }
    builder.finish();
    if (skipped > 0)
        run_.count_diagnostic("client_malformed_records", trace::Severity::DataLoss,
                              static_cast<double>(skipped),
                              "array elements that are not request objects, skipped");
    run_.count_diagnostic(
        "synthesised_arrival_times", trace::Severity::Info, static_cast<double>(builder.added()),
        "LLMPerf writes no request start times: requests are laid end to end from 0 (as at "
        "concurrency 1), so throughput and overlap are not the benchmark's; the tokens after the "
        "first are evenly spaced up to end_to_end_latency_s");
    if (builder.added() == 0)
        throw ImportError(path_, "LLMPerf individual responses without a usable request (ttft_s)");
    figures_beside(values);
}

namespace {

// <name>_individual_responses.json -> <name>_summary.json (token_benchmark_ray.py), or
// any name with "individual" for "summary" (the leaderboard's files).
std::string summary_name(std::string name) {
    for (std::string_view from : {"individual_responses", "individual"})
        if (auto at = name.find(from); at != std::string::npos)
            return name.replace(at, from.size(), "summary");
    return {};
}

struct LlmperfMetric {
    const char* key;
    const char* metric;
    bool same_definition;
    const char* label;
    const char* definition;
};

// token_benchmark_ray.py and ray_clients/openai_chat_completions_client.py.
constexpr LlmperfMetric kLlmperfMetrics[] = {
    {"ttft_s", "ttft", true, "LLMPerf TTFT",
     "time from sending the request to its first content chunk"},
    {"inter_token_latency_s", "itl", false, "LLMPerf inter-token latency, TTFT included",
     "per request: the time from sending the request to its last content chunk, TTFT "
     "included, divided by the chunks received; then over requests"},
    {"end_to_end_latency_s", "e2e", true, "LLMPerf end-to-end latency",
     "time from sending the request to the end of its stream"},
};

}  // namespace

void LlmperfParser::figures_beside(const Values& values) {
    auto summary_path = file_beside(path_, summary_name(base_name(path_)));
    if (!summary_path) return;
    const std::string file = base_name(*summary_path);
    json::Tree tree;
    Value summary;
    try {
        summary = read_document(*summary_path, tree, {});
    } catch (const ImportError& e) {
        run_.count_diagnostic("tool_summary_unreadable", trace::Severity::Info, 1, e.what());
        return;
    }
    if (!summary.is_object() || !number(summary, "results_ttft_s_mean")) return;
    std::vector<ToolFigure> figures;
    // In the order of kLlmperfMetrics.
    const std::vector<double>* per_metric[] = {&values.ttft_s, &values.inter_token_latency_s,
                                               &values.end_to_end_latency_s};
    for (std::size_t i = 0; i < std::size(kLlmperfMetrics); ++i) {
        const LlmperfMetric& m = kLlmperfMetrics[i];
        const std::vector<double>& v = *per_metric[i];
        for (const std::string stat : {"mean", "p50", "p90", "p95", "p99"}) {
            const std::string field =
                std::string("results_") + m.key + (stat == "mean" ? "_mean" : "_quantiles_" + stat);
            auto value = number(summary, field);
            if (!value) continue;
            ToolFigure f{"LLMPerf",    file,         field, m.label,
                         m.definition, m.metric,     stat,  m.same_definition,
                         *value * 1e9, std::nullopt, {}};
            f.recomputed_ns = tool_stats::numpy_stat(v, stat);
            f.recomputed_from = "the " + std::to_string(v.size()) + " records' " + m.key +
                                (stat == "mean" ? ", their mean" : ", pandas' quantile");
            figures.push_back(std::move(f));
        }
    }
    write_tool_figures(run_, figures);
    write_load(run_, "max_concurrency", number(summary, "num_concurrent_requests"));
    auto completed = number(summary, "results_num_completed_requests");
    if (completed && *completed != static_cast<double>(values.completed))
        run_.count_diagnostic(
            "tool_summary_mismatch", trace::Severity::Info, 1,
            file + " counts " + count_text(*completed) + " completed requests, the records " +
                std::to_string(values.completed) + ": the summary may be of another run");
}

void LlmperfParser::summary(Value root) {
    SummaryMetrics s;
    // inter_token_latency_s is LLMPerf's per-request sum of token gaps (TTFT
    // included) / output tokens, closest to TPOT.
    const std::pair<const char*, const char*> map[] = {
        {"ttft_s", "ttft"}, {"inter_token_latency_s", "tpot"}, {"end_to_end_latency_s", "e2e"}};
    for (const auto& [key, metric] : map) {
        const std::string prefix = std::string("results_") + key + "_";
        SummaryMetrics::Stats stats;
        stats.mean = number(root, prefix + "mean");
        stats.std = number(root, prefix + "stddev");
        stats.min = number(root, prefix + "min");
        stats.max = number(root, prefix + "max");
        stats.p50 = number(root, prefix + "quantiles_p50");
        stats.p90 = number(root, prefix + "quantiles_p90");
        stats.p95 = number(root, prefix + "quantiles_p95");
        stats.p99 = number(root, prefix + "quantiles_p99");
        stats.count = number(root, "results_num_completed_requests");
        s.set(metric, stats, 1e9);
    }
    if (s.empty()) throw ImportError(path_, "LLMPerf summary without latency results");
    s.write(run_, "LLMPerf",
            "its inter_token_latency_s includes the first token (e2e / output tokens), shown as "
            "tpot");
}

}  // namespace tokenscope::import::client
