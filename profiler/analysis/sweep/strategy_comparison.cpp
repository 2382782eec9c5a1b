#include "strategy_comparison.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace tokenscope::analysis {
namespace {

double figure(const Figures& f, const char* key) {
    auto it = f.find(key);
    return it == f.end() ? std::numeric_limits<double>::quiet_NaN() : it->second;
}

// Quoted when it holds a comma or a quote (a strategy never does; a context may).
std::string csv_field(const std::string& s) {
    if (s.find_first_of(",\"\n") == std::string::npos) return s;
    std::string out = "\"";
    for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

std::string ms(double ns) {
    if (std::isnan(ns)) return "";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4f", ns * 1e-6);
    return buf;
}

}  // namespace

std::vector<StrategyRow> strategy_comparison(const std::vector<SweepPointSummary>& points,
                                             const std::vector<std::string>& axes) {
    std::vector<StrategyRow> out;
    if (std::find(axes.begin(), axes.end(), "strategy") == axes.end()) return out;
    for (const auto& p : points) {
        StrategyRow row;
        row.point = p.point;
        if (auto it = p.params.find("strategy"); it != p.params.end()) row.strategy = it->second;
        for (const auto& a : axes) {
            auto it = p.params.find(a);
            if (a == "strategy" || it == p.params.end()) continue;
            row.context += (row.context.empty() ? "" : " ") + a + "=" + it->second;
        }
        const Figures& f = p.pooled;
        row.requests = figure(f, "requests");
        row.ttft_p50 = figure(f, "ttft_p50");
        row.ttft_p90 = figure(f, "ttft_p90");
        row.ttft_std = figure(f, "ttft_std");
        row.tpot_p50 = figure(f, "tpot_p50");
        row.tpot_p90 = figure(f, "tpot_p90");
        row.tpot_std = figure(f, "tpot_std");
        out.push_back(std::move(row));
    }
    return out;
}

void write_strategy_csv(std::ostream& out, const std::vector<StrategyRow>& rows) {
    out << "point,strategy,context,requests,ttft_p50_ms,ttft_p90_ms,ttft_std_ms,tpot_p50_ms,"
           "tpot_p90_ms,tpot_std_ms\n";
    for (const auto& r : rows) {
        out << r.point << ',' << csv_field(r.strategy) << ',' << csv_field(r.context) << ','
            << (std::isnan(r.requests) ? std::string() : std::to_string(std::llround(r.requests)));
        for (double v : {r.ttft_p50, r.ttft_p90, r.ttft_std, r.tpot_p50, r.tpot_p90, r.tpot_std})
            out << ',' << ms(v);
        out << '\n';
    }
}

}  // namespace tokenscope::analysis
