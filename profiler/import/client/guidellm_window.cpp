#include "guidellm_window.h"

#include "client_json.h"

namespace tokenscope::import::client {
namespace {

// info.timings.KEY of the current layout.
std::optional<double> timing(Value req, const char* key) {
    return number(child(child(req, "info"), "timings"), key);
}

std::optional<double> either(std::optional<double> a, std::optional<double> b) {
    return a ? a : b;
}

struct GuidellmMetric {
    const char* key;     // metrics.<key>.successful
    const char* metric;  // ours
    double ns_per_unit;
    bool mean_same;  // the mean as ours; percentiles never are (no interpolation)
    const char* label;
    const char* definition;
};

constexpr GuidellmMetric kGuidellmMetrics[] = {
    {"time_to_first_token_ms", "ttft", 1e6, true, "guidellm time to first token",
     "first token iteration - request start, per request"},
    {"inter_token_latency_ms", "itl", 1e6, true, "guidellm inter-token latency",
     "per request (last token - first token) / (output tokens - 1), weighted by output "
     "tokens - 1: the mean gap between tokens"},
    {"time_per_output_token_ms", "tpot", 1e6, false,
     "guidellm time per output token, TTFT included",
     "per request (last token - request start) / output tokens, weighted by output tokens"},
    {"request_latency", "e2e", 1e9, false, "guidellm request latency",
     "request end - request start (the response closed, after the last token)"},
};

// Per request, guidellm's value and weight of that metric (request_stats.py; a value
// guidellm has no figure for counts 0, as its `or 0.0` does; metrics.py the weights).
tool_stats::Weighted guidellm_value(const GuidellmTimes& t, std::string_view metric) {
    const double n = t.output_tokens.value_or(0);
    if (metric == "ttft") return {t.first && t.start ? 1000 * (*t.first - *t.start) : 0.0, 1};
    if (metric == "itl") {
        bool ok = t.first && t.last && n > 1;
        return {ok ? 1000 * (*t.last - *t.first) / (n - 1) : 0.0, (n > 0 ? n : 1.0) - 1.0};
    }
    if (metric == "tpot") {
        auto last = either(t.last, t.end);
        return {t.start && last && n > 0 ? 1000 * (*last - *t.start) / n : 0.0, n};
    }
    return {t.start && t.request_end ? *t.request_end - *t.start : 0.0, 1};
}

}  // namespace

GuidellmTimes guidellm_times(Value req, bool successful) {
    GuidellmTimes t;
    t.start = timing(req, "request_start");
    t.request_end = timing(req, "request_end");
    t.first = timing(req, "first_token_iteration");
    t.last = timing(req, "last_token_iteration");
    t.window_start = either(t.start, timing(req, "resolve_start"));
    t.end = either(t.request_end, timing(req, "resolve_end"));
    t.output_tokens = number(req, "output_tokens");
    t.successful = successful;
    return t;
}

std::optional<GuidellmBounds> guidellm_bounds(Value benchmark) {
    const Value s = child(benchmark, "scheduler_metrics");
    if (!s) return std::nullopt;
    auto start = number(s, "measure_start_time");
    auto end = number(s, "measure_end_time");
    // -1.0 is guidellm's "never set".
    if (!start || !end || *start == -1.0 || *end == -1.0) return std::nullopt;
    return GuidellmBounds{*start, *end};
}

bool inside_window(const GuidellmTimes& t, const GuidellmBounds& b) {
    if (!t.end) return true;  // guidellm requires one; nothing to judge without it
    if (*t.end < b.start) return false;
    return t.window_start ? *t.window_start <= b.end : *t.end <= b.end;
}

MeasurementWindow guidellm_window(const GuidellmBounds& b,
                                  const std::vector<GuidellmTimes>& requests) {
    MeasurementWindow w;
    w.tool = "guidellm";
    w.rule =
        "guidellm's figures count the requests that end at or after measure_start_time and "
        "start at or before measure_end_time (scheduler_metrics); the others are its "
        "warm-up and cool-down";
    w.start_ns = to_ns(b.start, 1e9);  // nullopt beyond int64 (a hostile report)
    w.end_ns = to_ns(b.end, 1e9);
    for (const auto& t : requests) {
        if (t.id == 0 || inside_window(t, b)) continue;
        (t.end && *t.end < b.start ? w.warmup : w.cooldown).push_back(t.id);
    }
    return w;
}

std::vector<ToolFigure> guidellm_figures(Value benchmark,
                                         const std::vector<GuidellmTimes>& inside_successful,
                                         const std::string& file) {
    std::vector<ToolFigure> out;
    const Value metrics = child(benchmark, "metrics");
    if (!metrics || !guidellm_bounds(benchmark)) return out;
    for (const auto& m : kGuidellmMetrics) {
        const Value ok = child(child(metrics, m.key), "successful");
        if (!ok) continue;
        std::vector<tool_stats::Weighted> values;
        for (const auto& t : inside_successful) values.push_back(guidellm_value(t, m.metric));
        for (const std::string stat : {"mean", "p50", "p90", "p95", "p99"}) {
            auto v = stat == "mean" ? number(ok, "mean") : number(child(ok, "percentiles"), stat);
            if (!v) continue;
            const bool same = m.mean_same && stat == "mean";
            std::string definition = m.definition;
            if (stat != "mean")
                definition +=
                    "; percentile p: the first value whose cumulative weight reaches "
                    "p, not interpolated";
            ToolFigure f{"guidellm",
                         file,
                         "metrics." + std::string(m.key) + ".successful." +
                             (stat == "mean" ? "mean" : "percentiles." + stat),
                         m.label,
                         definition,
                         m.metric,
                         stat,
                         same,
                         *v * m.ns_per_unit,
                         std::nullopt,
                         {}};
            if (auto r = tool_stats::guidellm_stat(values, stat))
                f.recomputed_ns = *r * m.ns_per_unit;
            f.recomputed_from = "the " + std::to_string(inside_successful.size()) +
                                " successful requests inside its window";
            out.push_back(std::move(f));
        }
    }
    return out;
}

}  // namespace tokenscope::import::client
