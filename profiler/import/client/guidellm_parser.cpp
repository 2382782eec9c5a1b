#include "guidellm_parser.h"

#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <tuple>

#include "client_json.h"
#include "guidellm_window.h"
#include "import/import_error.h"
#include "request_builder.h"
#include "summary_metrics.h"
#include "tool_figures.h"

namespace tokenscope::import::client {
namespace {

// A time in Unix seconds from the current layout (info.timings.KEY) or the
// older flat one (OLD_KEY on the request itself).
std::optional<std::int64_t> seconds_at(Value req, const char* key, const char* old_key) {
    std::optional<double> s = number(child(child(req, "info"), "timings"), key);
    if (!s) s = number(req, old_key);
    return s ? to_ns(*s, 1e9) : std::nullopt;
}

// guidellm records only the first and the last token's times; the tokens
// between are spaced evenly, as guidellm itself does (request_stats.py,
// iter_tokens_timings).
ClientRequest guidellm_request(Value req, bool failed) {
    ClientRequest r;
    r.arrival_ns = seconds_at(req, "request_start", "start_time");
    r.input_len = length(number(req, "prompt_tokens"));
    r.output_len = length(number(req, "output_tokens"));
    if (failed) {
        r.failed = true;
        r.error = text(req, "error");
        if (r.error.empty()) r.error = text(child(req, "info"), "error");
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

// "constant@4.00" as guidellm names its strategies, and the load as sweep parameters.
std::string strategy_of(Value benchmark, nlohmann::json& workload) {
    const Value strategy = child(child(benchmark, "config"), "strategy");
    if (!strategy) return {};
    std::string type = text(strategy, "type_");
    workload["strategy"] = type;
    std::string label = type;
    if (auto rate = number(strategy, "rate")) {
        workload["request_rate"] = *rate;
        char buf[32];
        std::snprintf(buf, sizeof buf, "@%.2f", *rate);
        label += buf;
    }
    for (const char* key : {"streams", "max_concurrency"})
        if (auto c = number(strategy, key)) {
            workload["max_concurrency"] = *c;
            if (std::string_view(key) == "streams") label += "@" + count_text(*c);
            break;
        }
    return label;
}

void name_benchmark(trace::RunData& run, Value benchmark, std::size_t index, std::size_t count) {
    nlohmann::json w = nlohmann::json::parse(run.info.workload_json, nullptr, false);
    if (!w.is_object()) w = nlohmann::json::object();
    w["benchmark"] = index + 1;
    std::string label = strategy_of(benchmark, w);
    run.info.workload_json = w.dump();
    if (count > 1) run.info.name += " " + (label.empty() ? "#" + std::to_string(index + 1) : label);
}

}  // namespace

std::optional<trace::RunData> GuidellmParser::benchmark_run(Value benchmark, std::size_t index,
                                                            std::size_t count) {
    const Value reqs = child(benchmark, "requests");
    if (!reqs) return std::nullopt;
    trace::RunData run = base_;
    RequestBuilder builder(run);
    std::vector<GuidellmTimes> times;
    for (const char* status : {"successful", "errored", "incomplete"}) {
        const Value list = child(reqs, status);
        if (!list.is_array()) continue;
        const bool ok = std::string_view(status) == "successful";
        for (std::size_t i = 0; i < list.size(); ++i) {
            const Value req = list[i];
            GuidellmTimes t = guidellm_times(req, ok);
            const std::int64_t before = builder.added();
            builder.add(guidellm_request(req, !ok));
            if (builder.added() > before) t.id = builder.added();
            times.push_back(t);
        }
    }
    if (times.empty()) return std::nullopt;
    builder.finish();
    if (builder.added() == 0)
        throw ImportError(path_, "none of the report's " + std::to_string(times.size()) +
                                     " requests has usable times (request_start / "
                                     "first_token_iteration)");
    run.count_diagnostic("client_itl_interpolated", trace::Severity::Info,
                         static_cast<double>(builder.added()),
                         "guidellm records the first and last token times only: the tokens "
                         "between are evenly spaced, so ITLs are per-request means");
    name_benchmark(run, benchmark, index, count);
    window_and_figures(run, benchmark, times);
    return run;
}

void GuidellmParser::window_and_figures(trace::RunData& run, Value benchmark,
                                        const std::vector<GuidellmTimes>& times) const {
    auto bounds = guidellm_bounds(benchmark);
    std::vector<GuidellmTimes> inside;
    for (const auto& t : times)
        if (t.successful && (!bounds || inside_window(t, *bounds))) inside.push_back(t);
    if (bounds) {
        MeasurementWindow w = guidellm_window(*bounds, times);
        write_measurement_window(run, w);
        if (!w.warmup.empty() || !w.cooldown.empty())
            run.count_diagnostic(
                "client_measurement_window", trace::Severity::Info,
                static_cast<double>(w.warmup.size() + w.cooldown.size()),
                "requests outside guidellm's measurement window (" +
                    std::to_string(w.warmup.size()) + " warm-up, " +
                    std::to_string(w.cooldown.size()) +
                    " cool-down): kept in the run, left out of stats as guidellm leaves them out");
    }
    write_tool_figures(run, guidellm_figures(benchmark, inside, base_name(path_)));
    // --sample-size keeps a sample of the requests: guidellm's figures are of them all.
    auto counted = number(child(child(benchmark, "metrics"), "request_totals"), "successful");
    if (bounds && counted && *counted != static_cast<double>(inside.size()))
        run.count_diagnostic("tool_summary_mismatch", trace::Severity::Info, 1,
                             "guidellm counts " + count_text(*counted) +
                                 " successful requests in its window, the report lists " +
                                 std::to_string(inside.size()) +
                                 " (a sample, --sample-size): its figures are of them all");
}

trace::RunData GuidellmParser::statistics(Value benchmarks) {
    if (benchmarks.size() == 0) throw ImportError(path_, "guidellm report without benchmarks");
    trace::RunData run = base_;
    const Value metrics = child(benchmarks[0], "metrics");
    SummaryMetrics s;
    // inter_token_latency_ms is per request (last - first) / (output - 1): TPOT.
    const std::tuple<const char*, const char*, double> map[] = {
        {"time_to_first_token_ms", "ttft", 1e6},
        {"inter_token_latency_ms", "tpot", 1e6},
        {"request_latency", "e2e", 1e9}};
    for (const auto& [key, metric, scale] : map) {
        const Value ok = child(child(metrics, key), "successful");
        if (ok) s.set(metric, SummaryMetrics::read(ok, {"mean", "std_dev", "percentiles"}), scale);
    }
    if (s.empty())
        throw ImportError(path_, "guidellm report without request samples or latency metrics");
    s.write(run, "guidellm",
            "statistics of the first benchmark's successful requests" +
                std::string(benchmarks.size() > 1
                                ? " (of " + std::to_string(benchmarks.size()) + " in the report)"
                                : ""));
    return run;
}

std::vector<trace::RunData> GuidellmParser::report(Value root) {
    const Value benchmarks = child(root, "benchmarks");
    if (!benchmarks.is_array())
        throw ImportError(path_, "guidellm report without a \"benchmarks\" array");
    std::vector<trace::RunData> runs;
    for (std::size_t i = 0; i < benchmarks.size(); ++i)
        if (auto run = benchmark_run(benchmarks[i], i, benchmarks.size()))
            runs.push_back(std::move(*run));
    if (runs.empty()) runs.push_back(statistics(benchmarks));
    return runs;
}

}  // namespace tokenscope::import::client
