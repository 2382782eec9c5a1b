#include "summary_metrics.h"

#include "client_json.h"

namespace tokenscope::import::client {

SummaryMetrics::Stats SummaryMetrics::read(json::Value stats, const Keys& keys) {
    Stats s;
    if (!stats.is_object()) return s;
    const json::Value pcts = keys.percentiles ? child(stats, keys.percentiles) : stats;
    s.count = number(stats, keys.count);
    s.mean = number(stats, keys.mean);
    s.std = number(stats, keys.std);
    s.min = number(stats, "min");
    s.p50 = number(pcts, "p50");
    s.p90 = number(pcts, "p90");
    s.p95 = number(pcts, "p95");
    s.p99 = number(pcts, "p99");
    s.max = number(stats, "max");
    return s;
}

void SummaryMetrics::set(const std::string& metric, const Stats& stats, double ns_per_unit) {
    auto scaled = [&](std::optional<double> v) -> nlohmann::json {
        auto ns = v ? to_ns(*v, ns_per_unit) : std::nullopt;
        return ns ? nlohmann::json(*ns) : nlohmann::json(nullptr);
    };
    nlohmann::json d = {{"count", nullptr}};
    // A count past int64 (a hostile 2^64) is no count: converting it would be undefined.
    if (const auto n = stats.count ? to_ns(*stats.count, 1.0) : std::nullopt; n && *n >= 0)
        d["count"] = *n;
    d["mean"] = scaled(stats.mean);
    d["std"] = scaled(stats.std);
    d["min"] = scaled(stats.min);
    d["p50"] = scaled(stats.p50);
    d["p90"] = scaled(stats.p90);
    d["p95"] = scaled(stats.p95);
    d["p99"] = scaled(stats.p99);
    d["max"] = scaled(stats.max);
    bool any = false;
    for (const auto& [k, v] : d.items())
        if (k != "count" && !v.is_null()) any = true;
    if (any) metrics_[metric] = d;
}

void SummaryMetrics::write(trace::RunData& run, const std::string& tool,
                           const std::string& note) const {
    nlohmann::json w = nlohmann::json::parse(run.info.workload_json, nullptr, false);
    if (!w.is_object()) w = nlohmann::json::object();
    w["summary_metrics"] = metrics_;
    run.info.workload_json = w.dump();
    std::string names;
    for (const auto& [k, v] : metrics_.items()) names += (names.empty() ? "" : ", ") + k;
    run.count_diagnostic("summary_only", trace::Severity::Info, 1,
                         tool +
                             " file with summary statistics only, no per-request records: "
                             "the run has no requests or steps; its distributions (" +
                             names + ") are the tool's own, in stats as \"summary_metrics\"" +
                             (note.empty() ? std::string() : "; " + note));
}

}  // namespace tokenscope::import::client
