#include "sweep_summary.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

#include "analysis/metrics/distribution.h"

namespace tokenscope::analysis {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

void put_distribution(Figures& f, const std::string& key, std::vector<double> v) {
    if (v.empty()) {
        for (const char* s : {"_p50", "_p90", "_p99", "_mean", "_std"}) f[key + s] = kNaN;
        return;
    }
    const Distribution d = summarize(v);
    f[key + "_p50"] = d.p50;
    f[key + "_p90"] = d.p90;
    f[key + "_p99"] = d.p99;
    f[key + "_mean"] = d.mean;
    f[key + "_std"] = d.std;
}

}  // namespace

double median_of(std::vector<double> v) {
    std::erase_if(v, [](double x) { return std::isnan(x); });
    if (v.empty()) return kNaN;
    return percentile(v, 50.0);
}

double std_of(const std::vector<double>& v) {
    double n = 0, mean = 0;
    for (double x : v)
        if (!std::isnan(x)) mean += x, n += 1;
    if (n == 0) return kNaN;
    mean /= n;
    double ss = 0;
    for (double x : v)
        if (!std::isnan(x)) ss += (x - mean) * (x - mean);
    return std::sqrt(ss / n);
}

Figures run_figures(const SweepRun& run, const SlaBounds& sla) {
    std::vector<double> ttft, tpot, e2e;
    std::int64_t tokens = 0, done = 0;
    std::int64_t first = std::numeric_limits<std::int64_t>::max();
    std::int64_t last = std::numeric_limits<std::int64_t>::min();
    for (const auto& r : run.requests) {
        first = std::min(first, r.arrival_ns);
        if (r.failed) continue;
        ++done;
        tokens += r.output_len;
        last = std::max(last, r.done_ns);
        ttft.push_back(static_cast<double>(r.first_token_ns - r.arrival_ns));
        e2e.push_back(static_cast<double>(r.done_ns - r.arrival_ns));
        if (r.output_len > 1)
            tpot.push_back(static_cast<double>(r.done_ns - r.first_token_ns) /
                           static_cast<double>(r.output_len - 1));
    }
    Figures f;
    put_distribution(f, "ttft", std::move(ttft));
    put_distribution(f, "tpot", std::move(tpot));
    put_distribution(f, "e2e", std::move(e2e));
    const double span_s = last > first ? static_cast<double>(last - first) / 1e9 : 0.0;
    f["throughput_tok_s"] = span_s > 0 ? static_cast<double>(tokens) / span_s : kNaN;
    f["request_rate"] = span_s > 0 ? static_cast<double>(done) / span_s : kNaN;
    const Attainment a = sla_attainment(run.requests, sla);
    f["attainment"] = a.requests > 0 ? a.fraction : kNaN;
    f["goodput"] = a.goodput;
    f["requests"] = static_cast<double>(a.requests);
    return f;
}

std::vector<std::pair<std::string, double>> tenant_attainment(const SweepRun& run,
                                                              const SlaBounds& sla) {
    std::vector<std::pair<std::string, double>> out;
    auto j = nlohmann::json::parse(run.workload_json, nullptr, false);
    if (j.is_discarded() || !j.contains("serving") || !j.contains("request_tenants")) return out;
    const auto& tenants = j["serving"]["tenants"];
    const std::string classes = j["request_tenants"].get<std::string>();
    if (tenants.size() < 2) return out;
    for (std::size_t c = 0; c < tenants.size(); ++c) {
        SlaBounds bounds = sla;
        if (auto t = tenants[c].value("sla_ttft_ns", std::int64_t{0}); t > 0) bounds.ttft_ns = t;
        if (auto t = tenants[c].value("sla_tpot_ns", std::int64_t{0}); t > 0) bounds.tpot_ns = t;
        std::vector<trace::Request> mine;
        for (const auto& r : run.requests) {
            const auto i = static_cast<std::size_t>(r.id - 1);
            if (i < classes.size() && classes[i] == static_cast<char>('0' + c)) mine.push_back(r);
        }
        const Attainment a = sla_attainment(mine, bounds);
        out.emplace_back(tenants[c].value("name", std::string("class")),
                         a.requests > 0 ? a.fraction : kNaN);
    }
    return out;
}

std::vector<SweepPointSummary> summarize_sweep(const std::vector<SweepPointRuns>& points,
                                               const SlaBounds& sla) {
    std::vector<SweepPointSummary> out;
    for (const auto& p : points) {
        SweepPointSummary s;
        s.point = p.point;
        s.params = p.params;
        std::map<std::string, std::vector<double>> per_figure;
        std::map<std::string, std::vector<double>> per_tenant;
        std::vector<std::string> tenant_order;
        SweepRun pooled;
        for (const auto& run : p.runs) {
            pooled.requests.insert(pooled.requests.end(), run.requests.begin(), run.requests.end());
            s.run_ids.push_back(run.run_id);
            for (const auto& [k, v] : run_figures(run, sla)) per_figure[k].push_back(v);
            for (const auto& [name, v] : tenant_attainment(run, sla)) {
                if (!per_tenant.contains(name)) tenant_order.push_back(name);
                per_tenant[name].push_back(v);
            }
        }
        s.pooled = run_figures(pooled, sla);
        for (const auto& [k, v] : per_figure) {
            s.median[k] = median_of(v);
            s.spread[k] = std_of(v);
        }
        for (const auto& name : tenant_order)
            s.tenants.push_back({name, median_of(per_tenant[name]), std_of(per_tenant[name])});
        out.push_back(std::move(s));
    }
    return out;
}

}  // namespace tokenscope::analysis
