#include "metric_presets.h"

#include <algorithm>
#include <array>
#include <stdexcept>

namespace tokenscope::fleet {
namespace {

struct Preset {
    std::string_view key;
    Engine engine;
    std::string_view metric;
};

// Each engine's request-level latency histograms, all in seconds, as their code
// registers them:
// - vLLM, vllm/v1/metrics/loggers.py (PrometheusStatLogger): time_to_first_token,
//   inter_token_latency, e2e_request_latency, request_queue_time; tpot is
//   time_per_output_token_seconds (deprecated there in favour of
//   inter_token_latency) or, in later releases, request_time_per_output_token_seconds
//   (one observation per request).
// - SGLang, python/sglang/srt/metrics/collector.py: TokenizerMetricsCollector's
//   time_to_first_token, inter_token_latency (time_per_output_token in releases
//   before it) and e2e_request_latency; SchedulerMetricsCollector's queue_time.
// - TGI, router/src/server.rs (and docs/source/reference/metrics.md): the router's
//   tgi_request_duration (e2e), tgi_request_queue_duration and
//   tgi_request_mean_time_per_token_duration (a request's inference time over its
//   generated tokens, prefill included: tpot). TGI has no TTFT or ITL histogram.
constexpr std::array<Preset, 14> kPresets = {{
    {"ttft", Engine::Vllm, "vllm:time_to_first_token_seconds"},
    {"itl", Engine::Vllm, "vllm:inter_token_latency_seconds"},
    {"e2e", Engine::Vllm, "vllm:e2e_request_latency_seconds"},
    {"queue", Engine::Vllm, "vllm:request_queue_time_seconds"},
    {"tpot", Engine::Vllm, "vllm:time_per_output_token_seconds"},
    {"tpot", Engine::Vllm, "vllm:request_time_per_output_token_seconds"},
    {"ttft", Engine::Sglang, "sglang:time_to_first_token_seconds"},
    {"itl", Engine::Sglang, "sglang:inter_token_latency_seconds"},
    {"e2e", Engine::Sglang, "sglang:e2e_request_latency_seconds"},
    {"queue", Engine::Sglang, "sglang:queue_time_seconds"},
    {"tpot", Engine::Sglang, "sglang:time_per_output_token_seconds"},
    {"e2e", Engine::Tgi, "tgi_request_duration"},
    {"queue", Engine::Tgi, "tgi_request_queue_duration"},
    {"tpot", Engine::Tgi, "tgi_request_mean_time_per_token_duration"},
}};

constexpr std::array<std::string_view, 5> kKeys = {"ttft", "itl", "e2e", "queue", "tpot"};
constexpr std::array<std::pair<std::string_view, Engine>, 3> kEngines = {{
    {"vllm", Engine::Vllm},
    {"sglang", Engine::Sglang},
    {"tgi", Engine::Tgi},
}};

}  // namespace

std::optional<Engine> parse_engine(std::string_view name) {
    for (const auto& [n, e] : kEngines)
        if (n == name) return e;
    return std::nullopt;
}

std::string_view to_string(Engine engine) {
    for (const auto& [n, e] : kEngines)
        if (e == engine) return n;
    return "?";
}

std::string engine_names() {
    std::string out;
    for (const auto& [n, e] : kEngines) out += (out.empty() ? "" : ", ") + std::string(n);
    return out;
}

bool is_preset(std::string_view key) {
    for (auto k : kKeys)
        if (k == key) return true;
    return false;
}

std::optional<std::string> preset_metric(std::string_view key) {
    if (!is_preset(key)) return std::nullopt;
    return preset_metrics(key, Engine::Vllm).front();
}

std::string preset_names() {
    std::string out;
    for (auto k : kKeys) out += (out.empty() ? "" : ", ") + std::string(k);
    return out;
}

std::vector<std::string> preset_metrics(std::string_view key, std::optional<Engine> engine) {
    std::vector<std::string> out;
    if (!is_preset(key)) return out;
    for (const auto& p : kPresets) {
        if (p.key != key || (engine && p.engine != *engine)) continue;
        if (std::find(out.begin(), out.end(), p.metric) == out.end()) out.emplace_back(p.metric);
    }
    if (out.empty())
        throw std::invalid_argument(
            "TGI exports no " + std::string(key == "ttft" ? "time-to-first-token" : "inter-token") +
            " histogram (its presets: e2e, queue, tpot = "
            "tgi_request_mean_time_per_token_duration)");
    return out;
}

}  // namespace tokenscope::fleet
