#include "summary_metrics.h"

#include "client_json.h"

namespace tokenscope::import::client {

void SummaryMetrics::set(const std::string& metric, const nlohmann::json& stats, const Keys& keys,
                         double ns_per_unit) {
    if (!stats.is_object()) return;
    const nlohmann::json* pcts = keys.percentiles ? child(stats, keys.percentiles) : &stats;
    auto scaled = [&](const nlohmann::json* from, const char* key) -> nlohmann::json {
        if (from == nullptr) return nullptr;
        auto v = number(*from, key);
        if (!v) return nullptr;
        auto ns = to_ns(*v, ns_per_unit);
        return ns ? nlohmann::json(*ns) : nlohmann::json(nullptr);
    };
    nlohmann::json d = {{"count", nullptr}};
    if (auto c = number(stats, keys.count); c && *c >= 0)
        d["count"] = static_cast<std::int64_t>(*c);
    d["mean"] = scaled(&stats, keys.mean);
    d["std"] = scaled(&stats, keys.std);
    d["min"] = scaled(&stats, "min");
    for (const char* p : {"p50", "p90", "p95", "p99"}) d[p] = scaled(pcts, p);
    d["max"] = scaled(&stats, "max");
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
