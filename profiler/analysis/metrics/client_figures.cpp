#include "client_figures.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <unordered_set>

namespace tokenscope::analysis {
namespace {

std::string json_text_of(const nlohmann::json& j, const char* key) {
    auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::optional<double> json_number_of(const nlohmann::json& j, const char* key) {
    auto it = j.find(key);
    if (it == j.end() || !it->is_number()) return std::nullopt;
    double v = it->get<double>();
    return std::isfinite(v) ? std::optional<double>(v) : std::nullopt;
}

std::vector<std::int64_t> json_ids_of(const nlohmann::json& j, const char* key) {
    std::vector<std::int64_t> ids;
    auto it = j.find(key);
    if (it == j.end() || !it->is_array()) return ids;
    for (const auto& v : *it)
        if (v.is_number_integer()) ids.push_back(v.get<std::int64_t>());
    return ids;
}

std::optional<ToolWindow> window_of(const nlohmann::json& w) {
    auto it = w.find("measurement_window");
    if (it == w.end() || !it->is_object()) return std::nullopt;
    ToolWindow t{json_text_of(*it, "tool"), json_text_of(*it, "rule"), {}, {}, {}, {}};
    // Written as integers by the importers; anything else beyond int64 is left out.
    if (auto v = json_number_of(*it, "start_ns"); v && std::fabs(*v) < 9e18)
        t.start_ns = std::llround(*v);
    if (auto v = json_number_of(*it, "end_ns"); v && std::fabs(*v) < 9e18)
        t.end_ns = std::llround(*v);
    t.warmup = json_ids_of(*it, "warmup_requests");
    t.cooldown = json_ids_of(*it, "cooldown_requests");
    return t;
}

std::optional<ToolFigure> figure_of(const nlohmann::json& j) {
    auto value = json_number_of(j, "value_ns");
    if (!j.is_object() || !value) return std::nullopt;
    ToolFigure f;
    f.tool = json_text_of(j, "tool");
    f.file = json_text_of(j, "file");
    f.field = json_text_of(j, "field");
    f.label = json_text_of(j, "label");
    f.definition = json_text_of(j, "definition");
    f.metric = json_text_of(j, "metric");
    f.stat = json_text_of(j, "stat");
    auto same = j.find("same_definition");
    f.same_definition = same == j.end() || !same->is_boolean() || same->get<bool>();
    f.value_ns = *value;
    f.recomputed_ns = json_number_of(j, "recomputed_ns");
    f.recomputed_from = json_text_of(j, "recomputed_from");
    return f;
}

std::string percent_text(double fraction) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f %%", fraction * 100.0);
    return buf;
}

std::string ms_text(double ns) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.2f ms", ns / 1e6);
    return buf;
}

double relative(double value, double reference) {
    if (reference == 0) return value == 0 ? 0.0 : INFINITY;
    return (value - reference) / std::fabs(reference);
}

// The verdict on a figure with a Tokenscope counterpart (docs/metrics.md, the 1 % rule).
void judge(FigureCheck& c) {
    const ToolFigure& t = c.tool;
    const double d = *c.difference;
    if (std::fabs(d) <= kToolFigureTolerance) {
        c.verdict = FigureVerdict::Agrees;
        c.explanation = t.same_definition ? "same definition" : "within 1 % though defined apart";
        return;
    }
    if (t.same_definition) {
        c.verdict = FigureVerdict::Differs;
        c.explanation = "differs by " + percent_text(d) + " though the definitions agree";
    } else if (!t.recomputed_ns) {
        c.verdict = FigureVerdict::Unchecked;
        c.explanation = "differs by " + percent_text(d) + "; " + t.tool +
                        "'s rule cannot be recomputed from the file" +
                        (t.recomputed_from.empty() ? "" : " (" + t.recomputed_from + ")");
    } else {
        const double r = relative(*t.recomputed_ns, t.value_ns);
        const bool explained = std::fabs(r) <= kToolFigureTolerance;
        c.verdict = explained ? FigureVerdict::DefinitionsDiffer : FigureVerdict::Unexplained;
        c.explanation = "definitions differ: " + t.tool + "'s rule on " + t.recomputed_from +
                        " gives " + ms_text(*t.recomputed_ns) +
                        (explained ? "" : ", " + percent_text(r) + " from its figure");
    }
    c.flagged = c.verdict != FigureVerdict::DefinitionsDiffer;
}

}  // namespace

ClientFigures read_client_figures(const trace::RunInfo& info) {
    ClientFigures out;
    nlohmann::json w = nlohmann::json::parse(info.workload_json, nullptr, false);
    if (!w.is_object()) return out;
    out.window = window_of(w);
    if (auto it = w.find("tool_figures"); it != w.end() && it->is_array())
        for (const auto& j : *it)
            if (auto f = figure_of(j)) out.figures.push_back(std::move(*f));
    return out;
}

trace::RunData inside_window(const trace::RunData& run, const ToolWindow& window) {
    std::unordered_set<std::int64_t> out(window.warmup.begin(), window.warmup.end());
    out.insert(window.cooldown.begin(), window.cooldown.end());
    trace::RunData inside = run;
    std::erase_if(inside.requests, [&](const trace::Request& r) { return out.count(r.id) > 0; });
    std::erase_if(inside.steps, [&](const trace::Step& s) {
        return !s.is_iteration() && out.count(s.request) > 0;
    });
    return inside;
}

RunMetrics windowed_metrics(const trace::RunData& run, const MetricsOptions& options) {
    ClientFigures c = read_client_figures(run.info);
    if (!c.window || (c.window->warmup.empty() && c.window->cooldown.empty()))
        return compute_metrics(run, options);
    trace::RunData inside = inside_window(run, *c.window);
    RunMetrics m = compute_metrics(inside, options);
    m.warmup_requests += static_cast<std::int64_t>(run.requests.size() - inside.requests.size());
    return m;
}

std::string_view verdict_name(FigureVerdict v) {
    switch (v) {
        case FigureVerdict::Agrees:
            return "agrees";
        case FigureVerdict::DefinitionsDiffer:
            return "definitions_differ";
        case FigureVerdict::Differs:
            return "differs";
        case FigureVerdict::Unexplained:
            return "unexplained";
        case FigureVerdict::Unchecked:
            return "unchecked";
        case FigureVerdict::NoFigure:
            break;
    }
    return "no_figure";
}

std::optional<double> our_figure(const RunMetrics& m, std::string_view metric,
                                 std::string_view stat) {
    const Distribution* d = metric == "ttft"   ? &m.ttft
                            : metric == "tpot" ? &m.tpot
                            : metric == "itl"  ? &m.itl
                            : metric == "e2e"  ? &m.e2e
                                               : nullptr;
    if (d == nullptr || d->count == 0) return std::nullopt;
    if (stat == "mean") return d->mean;
    if (stat == "std") return d->std;
    if (stat == "min") return d->min;
    if (stat == "p50") return d->p50;
    if (stat == "p90") return d->p90;
    if (stat == "p95") return d->p95;
    if (stat == "p99") return d->p99;
    if (stat == "max") return d->max;
    return std::nullopt;
}

std::string our_label(std::string_view metric) {
    if (metric == "ttft") return "Tokenscope TTFT, first token - arrival";
    if (metric == "tpot") return "Tokenscope TPOT, (E2E - TTFT) / (output tokens - 1) per request";
    if (metric == "itl") return "Tokenscope ITL, the gaps between tokens";
    if (metric == "e2e") return "Tokenscope E2E, last token - arrival";
    return "Tokenscope " + std::string(metric);
}

std::vector<FigureCheck> check_tool_figures(const std::vector<ToolFigure>& figures,
                                            const RunMetrics& ours) {
    std::vector<FigureCheck> out;
    for (const auto& f : figures) {
        FigureCheck c;
        c.tool = f;
        c.our_label = our_label(f.metric);
        c.ours_ns = our_figure(ours, f.metric, f.stat);
        if (!c.ours_ns) {
            c.explanation = "no Tokenscope figure (no samples)";
        } else {
            c.difference = relative(*c.ours_ns, f.value_ns);
            judge(c);
        }
        out.push_back(std::move(c));
    }
    return out;
}

}  // namespace tokenscope::analysis
