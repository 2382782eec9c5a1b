#pragma once
// /metrics scrapes as vLLM and SGLang expose them, written here from bucket counts the
// tests choose, and the quantiles those counts give, computed here independently of
// profiler/fleet. Shared by the snapshot tests (docs/fleet.md, Snapshots).
//
// The layouts imitate the servers' own exposition:
// - vLLM, vllm/v1/metrics/loggers.py (PrometheusStatLogger): histograms with the
//   labels model_name and engine (one series per engine core), through
//   prometheus_client's text format: labels in declaration order and le last, values
//   as Python floats ("12.0"), then _count, _sum, and a _created gauge family per
//   histogram. TTFT buckets as registered there.
// - SGLang, python/sglang/srt/metrics/collector.py (TokenizerMetricsCollector):
//   label model_name; prometheus_client in multiprocess mode (SGLang sets
//   PROMETHEUS_MULTIPROC_DIR), whose collector writes labels sorted (le first) and
//   no _created samples. TTFT buckets are that collector's defaults.
#include <charconv>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tokenscope::fleet_test {

// vllm:time_to_first_token_seconds' buckets (+Inf implied).
inline const std::vector<double> kVllmTtftBounds = {
    0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1,  0.25,  0.5,   0.75,
    1.0,   2.5,   5.0,  7.5,  10.0, 20.0, 40.0, 80.0, 160.0, 640.0, 2560.0};
// sglang:time_to_first_token_seconds' default buckets (+Inf implied).
inline const std::vector<double> kSglangTtftBounds = {0.1, 0.2, 0.4, 0.6, 0.8, 1,  2,   4,   6,
                                                      8,   10,  20,  40,  60,  80, 100, 200, 400};

inline constexpr const char* kVllmModel = "meta-llama/Llama-3.1-8B-Instruct";
inline constexpr const char* kSglangModel = "Qwen/Qwen2.5-7B-Instruct";

// Cumulative counts of one histogram series: one per bound, then +Inf (the total).
using Counts = std::vector<double>;

// n observations of a lognormal latency (median, sigma), binned: integers.
inline Counts lognormal_counts(const std::vector<double>& bounds, double n, double median,
                               double sigma) {
    Counts out;
    for (double le : bounds) {
        const double z = (std::log(le) - std::log(median)) / sigma;
        out.push_back(std::floor(n * 0.5 * std::erfc(-z / std::sqrt(2.0))));
    }
    out.push_back(n);
    return out;
}

inline Counts plus(const Counts& a, const Counts& b) {
    Counts out = a;
    for (std::size_t i = 0; i < out.size(); ++i) out[i] += b[i];
    return out;
}

// PromQL's histogram_quantile for one set of cumulative counts, written from its
// documentation: rank q x total; the first bucket whose count reaches the rank;
// linear interpolation inside it from the previous bound (0 below the first); the
// highest finite bound when the rank falls in +Inf; nothing without observations.
inline std::optional<double> scrape_quantile(double q, const std::vector<double>& bounds,
                                             const Counts& cum) {
    const double total = cum.back();
    if (total <= 0) return std::nullopt;
    const double rank = q * total;
    for (std::size_t i = 0; i < bounds.size(); ++i) {
        if (cum[i] < rank) continue;
        const double lo = i == 0 ? 0.0 : bounds[i - 1];
        const double below = i == 0 ? 0.0 : cum[i - 1];
        return lo + (bounds[i] - lo) * (rank - below) / (cum[i] - below);
    }
    return bounds.back();
}

// A Python float as prometheus_client writes it: repr, so 1 -> "1.0", 0.001 -> "0.001".
inline std::string py_float(double v) {
    char buf[64];
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
    std::string s(buf, end);
    if (s.find_first_of(".e") == std::string::npos) s += ".0";
    return s;
}

inline std::string scrape_le(const std::vector<double>& bounds, std::size_t i) {
    return i == bounds.size() ? "+Inf" : py_float(bounds[i]);
}

struct VllmEngine {
    std::string engine;  // "0", "1": vLLM's engine label (data-parallel engine cores)
    Counts ttft;
    double created_s = 0;
};

// One scrape of a vLLM server's /metrics: TTFT per engine, around other families a
// real scrape has (a counter with _created, a gauge, python_gc).
inline std::string vllm_scrape(const std::vector<VllmEngine>& engines) {
    const std::string m = "vllm:time_to_first_token_seconds";
    std::string out =
        "# HELP python_gc_objects_collected_total Objects collected during gc\n"
        "# TYPE python_gc_objects_collected_total counter\n"
        "python_gc_objects_collected_total{generation=\"0\"} 12345.0\n"
        "# HELP vllm:num_requests_running Number of requests in model execution batches.\n"
        "# TYPE vllm:num_requests_running gauge\n";
    for (const auto& e : engines)
        out += "vllm:num_requests_running{engine=\"" + e.engine + "\",model_name=\"" + kVllmModel +
               "\"} 3.0\n";
    out += "# HELP " + m + " Histogram of time to first token in seconds.\n# TYPE " + m +
           " histogram\n";
    for (const auto& e : engines) {
        const std::string labels =
            "model_name=\"" + std::string(kVllmModel) + "\",engine=\"" + e.engine + "\"";
        for (std::size_t i = 0; i < e.ttft.size(); ++i)
            out += m + "_bucket{" + labels + ",le=\"" + scrape_le(kVllmTtftBounds, i) + "\"} " +
                   py_float(e.ttft[i]) + "\n";
        out += m + "_count{" + labels + "} " + py_float(e.ttft.back()) + "\n";
        out += m + "_sum{" + labels + "} " + py_float(e.ttft.back() * 0.21) + "\n";
    }
    out += "# HELP " + m + "_created Histogram of time to first token in seconds.\n# TYPE " + m +
           "_created gauge\n";
    for (const auto& e : engines)
        out += m + "_created{model_name=\"" + std::string(kVllmModel) + "\",engine=\"" + e.engine +
               "\"} " + py_float(e.created_s) + "\n";
    out +=
        "# HELP vllm:prompt_tokens_total Number of prefill tokens processed.\n"
        "# TYPE vllm:prompt_tokens_total counter\n"
        "vllm:prompt_tokens_total{engine=\"0\",model_name=\"" +
        std::string(kVllmModel) + "\"} 987654.0\n";
    return out;
}

// One scrape of an SGLang server's /metrics (multiprocess collector layout).
inline std::string sglang_scrape(const Counts& ttft) {
    const std::string m = "sglang:time_to_first_token_seconds";
    std::string out =
        "# HELP sglang:num_running_reqs The number of running requests.\n"
        "# TYPE sglang:num_running_reqs gauge\n"
        "sglang:num_running_reqs{model_name=\"" +
        std::string(kSglangModel) + "\"} 7.0\n";
    out += "# HELP " + m + " Histogram of time to first token in seconds.\n# TYPE " + m +
           " histogram\n";
    const std::string model = "model_name=\"" + std::string(kSglangModel) + "\"";
    for (std::size_t i = 0; i < ttft.size(); ++i)
        out += m + "_bucket{le=\"" + scrape_le(kSglangTtftBounds, i) + "\"," + model + "} " +
               py_float(ttft[i]) + "\n";
    out += m + "_count{" + model + "} " + py_float(ttft.back()) + "\n";
    out += m + "_sum{" + model + "} " + py_float(ttft.back() * 0.7) + "\n";
    return out;
}

}  // namespace tokenscope::fleet_test
