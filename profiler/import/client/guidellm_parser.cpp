#include "guidellm_parser.h"

#include <cmath>
#include <tuple>

#include "client_json.h"
#include "import/import_error.h"
#include "request_builder.h"
#include "summary_metrics.h"

namespace tokenscope::import::client {
namespace {

// A time in Unix seconds from the current layout (info.timings.KEY) or the
// older flat one (OLD_KEY on the request itself).
std::optional<std::int64_t> seconds_at(const nlohmann::json& req, const char* key,
                                       const char* old_key) {
    std::optional<double> s;
    if (const nlohmann::json* info = child(req, "info"))
        if (const nlohmann::json* timings = child(*info, "timings")) s = number(*timings, key);
    if (!s) s = number(req, old_key);
    return s ? to_ns(*s, 1e9) : std::nullopt;
}

// guidellm records only the first and the last token's times; the tokens
// between are spaced evenly, as guidellm itself does (request_stats.py,
// iter_tokens_timings).
ClientRequest guidellm_request(const nlohmann::json& req, bool failed) {
    ClientRequest r;
    r.arrival_ns = seconds_at(req, "request_start", "start_time");
    r.input_len = length(number(req, "prompt_tokens"));
    r.output_len = length(number(req, "output_tokens"));
    if (failed) {
        r.failed = true;
        r.error = text(req, "error");
        if (const nlohmann::json* info = child(req, "info"); info && r.error.empty())
            r.error = text(*info, "error");
        if (r.error.empty()) r.error = "incomplete at the end of the benchmark";
        return r;
    }
    auto first = seconds_at(req, "first_token_iteration", "first_token_time");
    auto last = seconds_at(req, "last_token_iteration", "last_token_time");
    if (!first) return r;
    r.emissions.push_back(*first);
    // A hostile output_tokens of 2^31 must not allocate 2^31 steps.
    constexpr std::int32_t kMaxInterpolated = 1 << 20;
    const std::int32_t n = r.output_len;
    std::int64_t span_ns = 0;
    if (!last || n <= 1 || n > kMaxInterpolated || *last < *first ||
        __builtin_sub_overflow(*last, *first, &span_ns)) {
        if (last && *last != *first) r.emissions.push_back(*last);
        return r;
    }
    const double span = static_cast<double>(span_ns);
    for (std::int32_t i = 1; i < n; ++i)
        r.emissions.push_back(*first + std::llround(span * i / (n - 1)));
    return r;
}

}  // namespace

bool GuidellmParser::requests(const nlohmann::json& benchmarks) {
    RequestBuilder builder(run_);
    std::int64_t records = 0;
    for (const auto& b : benchmarks) {
        const nlohmann::json* reqs = child(b, "requests");
        if (reqs == nullptr) continue;
        for (const char* status : {"successful", "errored", "incomplete"}) {
            const nlohmann::json* list = child(*reqs, status);
            if (list == nullptr || !list->is_array()) continue;
            for (const auto& req : *list) {
                ++records;
                builder.add(guidellm_request(req, std::string_view(status) != "successful"));
            }
        }
    }
    if (records == 0) return false;
    builder.finish();
    if (builder.added() == 0)
        throw ImportError(path_, "none of the report's " + std::to_string(records) +
                                     " requests has usable times (request_start / "
                                     "first_token_iteration)");
    run_.count_diagnostic("client_itl_interpolated", trace::Severity::Info,
                          static_cast<double>(builder.added()),
                          "guidellm records the first and last token times only: the tokens "
                          "between are evenly spaced, so ITLs are per-request means");
    if (benchmarks.size() > 1)
        run_.count_diagnostic("client_experiments_merged", trace::Severity::Info,
                              static_cast<double>(benchmarks.size()),
                              "benchmarks (strategies) in the report; their requests are in one "
                              "run");
    return true;
}

void GuidellmParser::statistics(const nlohmann::json& benchmarks) {
    if (benchmarks.empty()) throw ImportError(path_, "guidellm report without benchmarks");
    const nlohmann::json* metrics = child(benchmarks[0], "metrics");
    SummaryMetrics s;
    // inter_token_latency_ms is per request (last - first) / (output - 1): TPOT.
    const std::tuple<const char*, const char*, double> map[] = {
        {"time_to_first_token_ms", "ttft", 1e6},
        {"inter_token_latency_ms", "tpot", 1e6},
        {"request_latency", "e2e", 1e9}};
    for (const auto& [key, metric, scale] : map) {
        const nlohmann::json* m = metrics ? child(*metrics, key) : nullptr;
        const nlohmann::json* ok = m ? child(*m, "successful") : nullptr;
        if (ok) s.set(metric, *ok, {"mean", "std_dev", "percentiles"}, scale);
    }
    if (s.empty())
        throw ImportError(path_, "guidellm report without request samples or latency metrics");
    s.write(run_, "guidellm",
            "statistics of the first benchmark's successful requests" +
                std::string(benchmarks.size() > 1
                                ? " (of " + std::to_string(benchmarks.size()) + " in the report)"
                                : ""));
}

void GuidellmParser::report(const nlohmann::json& root) {
    const nlohmann::json* benchmarks = child(root, "benchmarks");
    if (benchmarks == nullptr || !benchmarks->is_array())
        throw ImportError(path_, "guidellm report without a \"benchmarks\" array");
    if (!requests(*benchmarks)) statistics(*benchmarks);
    if (run_.requests.empty() && run_.diagnostics.empty())
        throw ImportError(path_, "guidellm report without usable requests");
}

}  // namespace tokenscope::import::client
