#include "llmperf_parser.h"

#include <cmath>

#include "client_json.h"
#include "import/import_error.h"
#include "request_builder.h"
#include "summary_metrics.h"

namespace tokenscope::import::client {
namespace {

// LLMPerf keeps no start times (time.monotonic() stays in the client) and no
// per-token times: a request arrives at `arrival`, its first token TTFT later,
// its other tokens evenly spaced up to the end-to-end latency.
ClientRequest llmperf_request(const nlohmann::json& rec, std::int64_t arrival) {
    ClientRequest r;
    r.arrival_ns = arrival;
    r.input_len = length(number(rec, "number_input_tokens"));
    r.output_len = length(number(rec, "number_output_tokens"));
    const nlohmann::json* code = child(rec, "error_code");
    if (code != nullptr && !code->is_null()) {
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

void LlmperfParser::individual_responses(const nlohmann::json& root) {
    if (!root.is_array()) throw ImportError(path_, "LLMPerf individual responses are not an array");
    RequestBuilder builder(run_);
    std::int64_t arrival = 0, skipped = 0;
    for (const auto& rec : root) {
        if (!rec.is_object()) {
            ++skipped;
            continue;
        }
        ClientRequest r = llmperf_request(rec, arrival);
        // End to end, as if one request at a time: the file has no arrivals.
        auto e2e = number(rec, "end_to_end_latency_s");
        auto e2e_ns = e2e && *e2e > 0 ? to_ns(*e2e, 1e9) : std::nullopt;
        if (auto next = e2e_ns ? add_ns(arrival, *e2e_ns) : std::nullopt) arrival = *next;
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
}

void LlmperfParser::summary(const nlohmann::json& root) {
    SummaryMetrics s;
    // inter_token_latency_s is LLMPerf's per-request sum of token gaps (TTFT
    // included) / output tokens, closest to TPOT.
    const std::pair<const char*, const char*> map[] = {
        {"ttft_s", "ttft"}, {"inter_token_latency_s", "tpot"}, {"end_to_end_latency_s", "e2e"}};
    for (const auto& [key, metric] : map) {
        const std::string prefix = std::string("results_") + key + "_";
        nlohmann::json stats = nlohmann::json::object();
        for (const char* field : {"mean", "stddev", "min", "max"})
            if (auto v = number(root, prefix + field)) stats[field] = *v;
        for (const char* p : {"p50", "p90", "p95", "p99"})
            if (auto v = number(root, prefix + "quantiles_" + p)) stats[p] = *v;
        if (auto c = number(root, "results_num_completed_requests")) stats["count"] = *c;
        s.set(metric, stats, {"mean", "stddev"}, 1e9);
    }
    if (s.empty()) throw ImportError(path_, "LLMPerf summary without latency results");
    s.write(run_, "LLMPerf",
            "its inter_token_latency_s includes the first token (e2e / output tokens), shown as "
            "tpot");
}

}  // namespace tokenscope::import::client
