#include <cmath>

#include "analysis/sweep/strategy_comparison.h"
#include "sweep_report.h"

namespace tokenscope::cli {
namespace {

// docs/cli.md, JSON: times are integer ns in keys ending _ns; NaN becomes null.
nlohmann::json figures_json(const analysis::Figures& f) {
    nlohmann::json j = nlohmann::json::object();
    for (const auto& [k, v] : f) {
        if (is_time_figure(k))
            j[k + "_ns"] = std::isnan(v) ? nlohmann::json() : nlohmann::json(std::llround(v));
        else
            j[k] = std::isnan(v) ? nlohmann::json() : nlohmann::json(v);
    }
    return j;
}

nlohmann::json value(double v) {
    return std::isnan(v) ? nlohmann::json() : nlohmann::json(v);
}

// Parameters that read as numbers are numbers, so readers can sort and plot them.
nlohmann::json params_json(const std::map<std::string, std::string>& params) {
    nlohmann::json j = nlohmann::json::object();
    for (const auto& [k, v] : params) {
        auto n = nlohmann::json::parse(v, nullptr, false);
        j[k] = !n.is_discarded() && n.is_number() ? n : nlohmann::json(v);
    }
    return j;
}

nlohmann::json curve_json(const analysis::SweepCurve& c) {
    nlohmann::json samples = nlohmann::json::array();
    for (std::size_t i = 0; i < c.x.size(); ++i)
        samples.push_back({{"point", c.points[i]}, {"x", c.x[i]}, {"y", c.y[i]}});
    nlohmann::json frontier = nlohmann::json::array();
    for (std::size_t i : c.frontier) frontier.push_back(c.points[i]);
    nlohmann::json j = {
        {"x", c.x_name}, {"y", c.y_name}, {"samples", samples}, {"pareto_points", frontier}};
    j["fit"] = c.fit.ok ? nlohmann::json{{"formula", "y = a * x^b + c"},
                                         {"a", c.fit.a},
                                         {"b", c.fit.b},
                                         {"c", c.fit.c},
                                         {"r2", c.fit.r2}}
                        : nlohmann::json();
    j["knee"] =
        c.knee
            ? nlohmann::json{{"point", c.points[*c.knee]}, {"x", c.x[*c.knee]}, {"y", c.y[*c.knee]}}
            : nlohmann::json();
    return j;
}

nlohmann::json ns(double v) {
    return std::isnan(v) ? nlohmann::json() : nlohmann::json(std::llround(v));
}

nlohmann::json strategies_json(const SweepReport& r) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& s : analysis::strategy_comparison(r.points, r.input.axes))
        out.push_back({{"point", s.point},
                       {"strategy", s.strategy},
                       {"context", s.context},
                       {"requests", value(s.requests)},
                       {"ttft_p50_ns", ns(s.ttft_p50)},
                       {"ttft_p90_ns", ns(s.ttft_p90)},
                       {"ttft_std_ns", ns(s.ttft_std)},
                       {"tpot_p50_ns", ns(s.tpot_p50)},
                       {"tpot_p90_ns", ns(s.tpot_p90)},
                       {"tpot_std_ns", ns(s.tpot_std)}});
    return out;
}

}  // namespace

nlohmann::json sweep_json(const SweepReport& r) {
    nlohmann::json points = nlohmann::json::array();
    for (const auto& p : r.points) {
        nlohmann::json tenants = nlohmann::json::array();
        for (const auto& t : p.tenants)
            tenants.push_back({{"name", t.name},
                               {"attainment", value(t.median)},
                               {"attainment_std", value(t.spread)}});
        points.push_back({{"point", p.point},
                          {"params", params_json(p.params)},
                          {"run_ids", p.run_ids},
                          {"median", figures_json(p.median)},
                          {"spread", figures_json(p.spread)},
                          {"pooled", figures_json(p.pooled)},
                          {"tenants", tenants}});
    }
    nlohmann::json sla = nlohmann::json::object();
    sla["ttft_ns"] = r.sla.ttft_ns ? nlohmann::json(*r.sla.ttft_ns) : nlohmann::json();
    sla["tpot_ns"] = r.sla.tpot_ns ? nlohmann::json(*r.sla.tpot_ns) : nlohmann::json();
    return {{"source", r.input.source},
            {"name", r.input.name},
            {"is_model", r.input.model},
            {"axes", r.input.axes},
            {"sla", sla},
            {"points", points},
            {"curve", curve_json(r.curve)},
            {"strategies", strategies_json(r)}};
}

}  // namespace tokenscope::cli
